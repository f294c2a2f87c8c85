#include "sim/contact_finder.hpp"

#include "collision/narrowphase.hpp"
#include "dynamics/mass.hpp"
#include "sim/stage_timer.hpp"

#include <algorithm>

namespace pegsim {
namespace {

// Pose after one step of free motion: where the broadphase box must reach.
Pose predicted_pose(const BodyState& s, const Vec6& nu, double h, bool planar) {
  Pose p = s.pose;
  p.position += h * nu.head<3>();
  const Vec3 w = nu.tail<3>();
  const double angle = h * w.norm();
  if (angle > 0.0) {
    if (planar) p.orientation = Quat(Eigen::AngleAxisd(planar_angle(s.pose) + h * w.z(), Vec3::UnitZ()));
    else p.orientation = (Quat(Eigen::AngleAxisd(angle, w.normalized())) * s.pose.orientation).normalized();
  }
  return p;
}

}  // namespace

// The largest distance a point of the body can travel in one step: the
// estimate of thesis eq. 5.1, in a dimensionally consistent form. As printed,
// eq. 5.1 multiplies the accelerations by h instead of h^2 and leaves out the
// rotational speed term |w| r h; here
//   eps_i = h (|v| + |w| r) + h^2/2 (|a| + |alpha| r)
// with a = f/m + g and alpha = J^-1 (tau - w x J w), r the bounding radius
// (alpha from the explicit gyroscopic term whichever the step takes: the
// implicit one turns w by no more, to first order in h).
// A pair's contact distance is the sum of its two bodies' (both may approach).
double contact_distance(const Model& model, const State& state, std::uint32_t i) {
  if (!model.options.eps_auto) return 0.5 * model.options.eps;
  if (model.bodies[i].is_static && !model.bodies[i].is_kinematic) return 0.0;
  return std::max(step_travel(model, state, i), 1e-9);
}

double step_travel(const Model& model, const State& state, std::uint32_t i) {
  const BodyModel& body = model.bodies[i];
  if (body.is_static && !body.is_kinematic) return 0.0;
  const BodyState& s = state.bodies[i];
  const double h = model.options.h;
  const double r = bounding_radius(body.shape);
  if (body.is_kinematic) return h * (s.linear_velocity.norm() + s.angular_velocity.norm() * r);  // no acceleration
  const Dimension dim = model.options.dimension;
  const InverseMass minv = world_inverse_mass(body, s, dim);
  const Vec6 accel = minv.apply(external_impulse(body, s, model.options.gravity, 1.0, dim, GyroscopicTerm::Explicit));
  return h * (s.linear_velocity.norm() + s.angular_velocity.norm() * r) +
         0.5 * h * h * (accel.head<3>().norm() + accel.tail<3>().norm() * r);
}

void ContactFinder::find(const Model& model, const State& state, const std::vector<Vec6>& free_velocity,
                         StepProfile& profile) {
  const std::size_t nb = model.bodies.size();
  const bool planar = model.options.dimension == Dimension::Planar;
  {
    StageTimer timer(profile, Stage::Broadphase);
    boxes_.resize(nb);
    is_static_.resize(nb);
    body_eps_.resize(nb);
    short_eps_ = 0;
    for (std::size_t i = 0; i < nb; ++i) {
      const BodyState& s = state.bodies[i];
      body_eps_[i] = contact_distance(model, state, static_cast<std::uint32_t>(i));
      // a fixed eps shorter than the body's travel: the pair's whole eps (a
      // static partner takes none of it) still cannot see a contact that far
      if (!model.options.eps_auto && step_travel(model, state, static_cast<std::uint32_t>(i)) > model.options.eps)
        ++short_eps_;
      is_static_[i] = model.bodies[i].is_static;
      const Pose next = predicted_pose(s, free_velocity[i], model.options.h, planar);
      boxes_[i] = swept_box(model.bodies[i].shape, s.pose, next, body_eps_[i]);
    }
    broadphase_.find_pairs(boxes_, is_static_, pairs_);
    if (!model.trees.empty() || !model.joints.empty()) {  // links of one tree, joined bodies (contact/collision_filter.hpp)
      filter_.reset(model);
      std::erase_if(pairs_, [&](const BodyPair& p) { return !filter_.may_touch(p.a, p.b); });
    }
  }
  StageTimer timer(profile, Stage::Narrowphase);
  narrowphase(model, state, &free_velocity);
}

void ContactFinder::refind(const Model& model, const State& state) { narrowphase(model, state, nullptr); }

// Every feature pair within each broadphase pair's contact distance, at the
// current poses. With free velocities and eps_theta: auto, applicability is
// judged over the step's rotation (SimOptions::eps_theta_auto).
void ContactFinder::narrowphase(const Model& model, const State& state, const std::vector<Vec6>* free_velocity) {
  contacts_.clear();
  NarrowphaseParams params;
  params.eps_feasible = model.options.eps_feasible;
  const double h = model.options.h;
  for (const BodyPair& pair : pairs_) {
    params.eps = body_eps_[pair.a] + body_eps_[pair.b];
    double turn = 0.0;
    if (model.options.eps_theta_auto && free_velocity)
      turn = std::min(1.0, h * ((*free_velocity)[pair.a].tail<3>().norm() + (*free_velocity)[pair.b].tail<3>().norm()));
    params.eps_theta = model.options.eps_theta - turn;
    const std::size_t first = contacts_.size();
    const BodyGeometry a{pair.a, &model.bodies[pair.a].shape, state.bodies[pair.a].pose};
    const BodyGeometry b{pair.b, &model.bodies[pair.b].shape, state.bodies[pair.b].pose};
    find_contacts(a, b, params, contacts_);
    for (std::size_t k = first; k < contacts_.size(); ++k) contacts_[k].features.applicability += turn;
  }
}

}  // namespace pegsim
