#include "dynamics/mass.hpp"

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

Vec6 external_impulse(const BodyModel& body, const BodyState& state, const Vec3& gravity, double h,
                      Dimension dim) {
  Vec6 p = Vec6::Zero();
  if (body.is_static) return p;
  p.head<3>() = h * (state.force + body.mass * gravity);
  Vec3 torque = state.torque;
  if (dim == Dimension::Spatial) {
    const Mat3 J = world_inertia(body, state, dim);
    torque -= state.angular_velocity.cross(J * state.angular_velocity);
  }
  p.tail<3>() = h * torque;
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
      velocity[i] += inverse_mass[i].apply(external_impulse(body, s, model.options.gravity, model.options.h, dim));
  }
}

}  // namespace pegsim
