#include "dynamics/mass.hpp"
#include "math/cross_matrix.hpp"

#include <Eigen/LU>

#include <algorithm>
#include <cmath>

namespace pegsim {

InverseMass world_inverse_mass(const BodyModel& body, const BodyState& state, Dimension dim) {
  InverseMass m;
  if (body.is_static) return m;
  m.inv_mass = 1.0 / body.mass;
  if (dim == Dimension::Planar) {
    m.linear_mask = Vec3(1.0, 1.0, 0.0);
    m.inv_inertia(2, 2) = 1.0 / body.inertia(2, 2);
  } else {
    m.linear_mask = Vec3::Ones();
    const Mat3 R = state.pose.orientation.toRotationMatrix();
    m.inv_inertia = R * body.inertia.inverse() * R.transpose();
  }
  return m;
}

Mat3 world_inertia(const BodyModel& body, const BodyState& state, Dimension dim) {
  Mat3 J = Mat3::Zero();
  if (body.is_static) return J;
  if (dim == Dimension::Planar) {
    J(2, 2) = body.inertia(2, 2);
    return J;
  }
  const Mat3 R = state.pose.orientation.toRotationMatrix();
  return R * body.inertia * R.transpose();
}

// One midpoint step of length h from w: Newton on
// F(w') = J (w' - w) + (h/4) s x J s, s = w + w' (= 2m), whose Jacobian is
// J + (h/4) ([s]x J - [J s]x). At most 12 iterations, stopping when F is at
// round-off (of J w and of the h/4 s x J s term); quadratic convergence takes
// 3-4 for |w| h up to 0.5, the most gyroscopic_impulse gives it.
static Vec3 midpoint_spin(const Mat3& J, const Vec3& w, double h) {
  const double scale = (J * w).norm() * (1.0 + h * w.norm());
  Vec3 w_next = w;
  for (int k = 0; k < 12; ++k) {
    const Vec3 s = w + w_next;
    const Vec3 Js = J * s;
    const Vec3 F = J * (w_next - w) + (0.25 * h) * s.cross(Js);
    if (F.norm() <= 1e-14 * scale) break;
    const Mat3 jacobian = J + (0.25 * h) * (cross_matrix(s) * J - cross_matrix(Js));
    w_next -= Eigen::PartialPivLU<Mat3>(jacobian).solve(F);
    if (!w_next.allFinite()) return w;  // a singular Jacobian (not seen): the spin left unturned
  }
  return w_next;
}

Vec3 gyroscopic_impulse(const Mat3& J, const Vec3& w, double h) {
  const Vec3 Jw = J * w;
  if (w.cross(Jw) == Vec3::Zero()) return Vec3::Zero();  // isotropic J, or w along a principal axis
  // Sub-steps of at most 0.5 rad of spin each, where Newton from w' = w
  // converges (it wanders from |w| h of about 5); each keeps both invariants,
  // so their sum does. At most 64 (32 rad a step: far past any accuracy).
  const double turn = w.norm() * h;
  const int pieces = turn <= 0.5 ? 1 : static_cast<int>(std::min(64.0, std::ceil(turn / 0.5)));
  Vec3 w_next = w;
  for (int i = 0; i < pieces; ++i) w_next = midpoint_spin(J, w_next, h / pieces);
  // round-off, or a spin past 32 rad a step whose pieces did not converge:
  // never more energy than w had
  const double energy = w.dot(Jw);
  const double energy_next = w_next.dot(J * w_next);
  if (energy_next > energy) w_next *= std::sqrt(energy / energy_next);
  return J * (w_next - w);
}

std::string_view to_string(GyroscopicTerm term) {
  return term == GyroscopicTerm::Explicit ? "explicit" : "implicit";
}

bool parse_gyroscopic(std::string_view text, GyroscopicTerm& term) {
  for (GyroscopicTerm t : {GyroscopicTerm::Implicit, GyroscopicTerm::Explicit})
    if (text == to_string(t)) {
      term = t;
      return true;
    }
  return false;
}

std::vector<std::string> gyroscopic_names() {
  return {std::string(to_string(GyroscopicTerm::Implicit)), std::string(to_string(GyroscopicTerm::Explicit))};
}

Vec6 external_impulse(const BodyModel& body, const BodyState& state, const Vec3& gravity, double h,
                      Dimension dim, GyroscopicTerm gyroscopic) {
  Vec6 p = Vec6::Zero();
  if (body.is_static) return p;
  p.head<3>() = h * (state.force + body.mass * gravity);
  if (dim == Dimension::Spatial) {
    const Mat3 J = world_inertia(body, state, dim);
    const Vec3& w = state.angular_velocity;
    if (gyroscopic == GyroscopicTerm::Explicit)  // eq. 2.30 as written, h (tau - w x J w)
      p.tail<3>() = h * (state.torque - w.cross(J * w));
    else
      p.tail<3>() = h * state.torque + gyroscopic_impulse(J, w, h);
  } else {
    p.tail<3>() = h * state.torque;
  }
  if (dim == Dimension::Planar) {
    p(2) = 0.0;
    p(3) = 0.0;
    p(4) = 0.0;
  }
  return p;
}

void body_velocities(const Model& model, const State& state, bool with_impulse,
                     std::vector<InverseMass>& inverse_mass, std::vector<Vec6>& velocity) {
  const std::size_t nb = model.bodies.size();
  const Dimension dim = model.options.dimension;
  inverse_mass.resize(nb);
  velocity.resize(nb);
  for (std::size_t i = 0; i < nb; ++i) {
    const BodyModel& body = model.bodies[i];
    const BodyState& s = state.bodies[i];
    inverse_mass[i] = world_inverse_mass(body, s, dim);
    velocity[i] = velocity_of(s);
    if (with_impulse && !body.is_static)
      velocity[i] += inverse_mass[i].apply(external_impulse(body, s, model.options.gravity, model.options.h, dim,
                                                               model.options.gyroscopic));
  }
}

}  // namespace pegsim
