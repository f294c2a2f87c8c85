#include "dynamics/integration.hpp"

namespace pegsim {

void integrate(const Model& model, const std::vector<Vec6>& velocity, double h, State& state) {
  const bool planar = model.options.dimension == Dimension::Planar;
  for (std::size_t i = 0; i < model.bodies.size(); ++i) {
    BodyState& s = state.bodies[i];
    if (model.bodies[i].is_static) continue;
    s.linear_velocity = velocity[i].head<3>();
    s.angular_velocity = velocity[i].tail<3>();
    s.pose.position += h * s.linear_velocity;
    if (planar) {
      s.theta += h * s.angular_velocity.z();
      s.pose.orientation = Quat(Eigen::AngleAxisd(s.theta, Vec3::UnitZ()));
      continue;
    }
    // eq. 2.36: q_dot = 1/2 (0, w) (x) q for a world-frame angular velocity
    const Quat& q = s.pose.orientation;
    const Vec3& w = s.angular_velocity;
    const Vec3 qv = q.vec();
    Quat dq;
    dq.w() = -0.5 * h * w.dot(qv);
    dq.vec() = 0.5 * h * (q.w() * w + w.cross(qv));
    Quat next(q.w() + dq.w(), q.x() + dq.x(), q.y() + dq.y(), q.z() + dq.z());
    next.normalize();
    s.pose.orientation = next;
  }
}

}  // namespace pegsim
