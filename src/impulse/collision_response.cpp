// One contact's collision, from the bodies' state to their new velocities (collision_response.hpp).
#include "impulse/collision_response.hpp"

#include "dynamics/mass.hpp"
#include "math/cross_matrix.hpp"

#include <cmath>

namespace pegsim {
namespace {

Vec3 midpoint(const Contact& c) { return 0.5 * (c.point_a + c.point_b); }

Vec3 point_velocity(const BodyState& s, const Vec3& p) {
  return s.linear_velocity + s.angular_velocity.cross(p - s.pose.position);
}

}  // namespace

Mat3 contact_frame(const Vec3& n) {
  // t1 from the world axis least aligned with n (fixed choice: deterministic)
  int axis = 0;
  if (std::abs(n.y()) < std::abs(n(axis))) axis = 1;
  if (std::abs(n.z()) < std::abs(n(axis))) axis = 2;
  const Vec3 t1 = n.cross(Vec3::Unit(axis)).normalized();
  const Vec3 t2 = n.cross(t1);
  Mat3 E;
  E.col(0) = t1;
  E.col(1) = t2;
  E.col(2) = n;
  return E;
}

Vec3 relative_contact_velocity(const State& state, const Contact& c) {
  const Vec3 p = midpoint(c);
  return point_velocity(state.bodies[c.body_b], p) - point_velocity(state.bodies[c.body_a], p);
}

AppliedCollision apply_collision(const Model& model, State& state, const Contact& c, const CollisionSettings& settings) {
  const BodyModel& body_a = model.bodies[c.body_a];
  const BodyModel& body_b = model.bodies[c.body_b];
  BodyState& sa = state.bodies[c.body_a];
  BodyState& sb = state.bodies[c.body_b];
  const Dimension dim = model.options.dimension;
  const InverseMass ma = world_inverse_mass(body_a, sa, dim), mb = world_inverse_mass(body_b, sb, dim);
  const Vec3 p = midpoint(c);
  const Vec3 ra = p - sa.pose.position, rb = p - sb.pose.position;
  const Mat3 Ra = cross_matrix(ra), Rb = cross_matrix(rb);
  // paper eq. 7: u(p) = u0 + K p, p on B (-p on A)
  const Mat3 K = (ma.inv_mass + mb.inv_mass) * Mat3::Identity() - Ra * ma.inv_inertia * Ra - Rb * mb.inv_inertia * Rb;
  const Mat3 E = contact_frame(c.normal);

  CollisionInput in;
  in.K = E.transpose() * K * E;
  in.K = 0.5 * (in.K + in.K.transpose());  // symmetric to round-off
  in.u0 = E.transpose() * relative_contact_velocity(state, c);
  in.mu = model.mu(body_a.material, body_b.material);
  in.e = model.restitution_of(body_a.material, body_b.material);
  in.law = settings.law;
  in.steps = settings.steps;
  AppliedCollision out;
  out.micro = -in.u0.z() < settings.micro_speed;
  if (out.micro) in.floor_speed = settings.micro_speed;
  out.result = integrate_collision(in);
  out.point = p;
  out.impulse = E * out.result.impulse;
  out.energy_change = 0.5 * out.result.impulse.dot(in.u0 + out.result.u_end);
  // paper eq. 7's impulse applied: dv_B = p/m_B, dw_B = I_B^-1 (r_B x p); A the opposite
  if (!body_b.is_static) {
    sb.linear_velocity += mb.inv_mass * out.impulse;
    sb.angular_velocity += mb.inv_inertia * rb.cross(out.impulse);
  }
  if (!body_a.is_static) {
    sa.linear_velocity -= ma.inv_mass * out.impulse;
    sa.angular_velocity -= ma.inv_inertia * ra.cross(out.impulse);
  }
  return out;
}

}  // namespace pegsim
