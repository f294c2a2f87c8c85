#include "dynamics/integration.hpp"

namespace pegsim {

namespace {

// x <- x + h v, q <- normalize(q + (h/2) (0, w) (x) q) (eq. 2.36); planar:
// the angle about z read from q, advanced by h w_z (the orientation is the one
// source of truth, math/pose.hpp planar_angle).
void advance_pose(BodyState& s, const Vec3& v, const Vec3& w, double h, bool planar) {
  s.pose.position += h * v;
  if (planar) {
    s.pose.orientation = Quat(Eigen::AngleAxisd(planar_angle(s.pose) + h * w.z(), Vec3::UnitZ()));
    return;
  }
  // eq. 2.36: q_dot = 1/2 (0, w) (x) q for a world-frame angular velocity
  const Quat& q = s.pose.orientation;
  const Vec3 qv = q.vec();
  Quat dq;
  dq.w() = -0.5 * h * w.dot(qv);
  dq.vec() = 0.5 * h * (q.w() * w + w.cross(qv));
  Quat next(q.w() + dq.w(), q.x() + dq.x(), q.y() + dq.y(), q.z() + dq.z());
  next.normalize();
  s.pose.orientation = next;
}

}  // namespace

void advance_kinematic(BodyState& s, double h, bool planar) {
  s.pose.position += h * s.linear_velocity;
  if (planar) {
    s.pose.orientation = Quat(Eigen::AngleAxisd(planar_angle(s.pose) + h * s.angular_velocity.z(), Vec3::UnitZ()));
    return;
  }
  const double angle = h * s.angular_velocity.norm();
  if (angle > 0.0)
    s.pose.orientation =
        (Quat(Eigen::AngleAxisd(angle, s.angular_velocity.normalized())) * s.pose.orientation).normalized();
}

void integrate(const Model& model, const std::vector<Vec6>& velocity, double h, State& state) {
  const bool planar = model.options.dimension == Dimension::Planar;
  for (std::size_t i = 0; i < model.bodies.size(); ++i) {
    BodyState& s = state.bodies[i];
    if (model.bodies[i].is_kinematic) {  // prescribed motion: its own constant velocity, exactly
      advance_kinematic(s, h, planar);
      continue;
    }
    if (model.bodies[i].is_static) continue;
    s.linear_velocity = velocity[i].head<3>();
    s.angular_velocity = velocity[i].tail<3>();
    advance_pose(s, s.linear_velocity, s.angular_velocity, h, planar);
  }
}

void displace(const Model& model, const std::vector<Vec6>& displacement, State& state) {
  const bool planar = model.options.dimension == Dimension::Planar;
  for (std::size_t i = 0; i < model.bodies.size(); ++i) {
    if (model.bodies[i].is_static) continue;
    const Vec3 dx = displacement[i].head<3>();
    const Vec3 dtheta = displacement[i].tail<3>();
    advance_pose(state.bodies[i], dx, dtheta, 1.0, planar);
  }
}

}  // namespace pegsim
