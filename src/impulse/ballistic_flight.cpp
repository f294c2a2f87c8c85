// Ballistic flight (ballistic_flight.hpp).
#include "impulse/ballistic_flight.hpp"

#include <Eigen/Eigenvalues>

#include <algorithm>
#include <cmath>

namespace pegsim {
namespace {

constexpr double kMaxTurn = 0.05;  // rad of rotation per RK4 substep
constexpr int kMaxSubsteps = 4096;

Mat3 world_of(const Quat& q, const Mat3& body) {
  const Mat3 R = q.toRotationMatrix();
  return R * body * R.transpose();
}

Vec3 world_angular_momentum(const Flight& f, const BodyState& s) {
  return world_of(s.pose.orientation, f.inertia_body) * s.angular_velocity;
}

// dq/dt = 1/2 (0, w) q with w = R(q) I_b^-1 R(q)^T L
Quat quat_rate(const Flight& f, const Quat& q, const Vec3& L) {
  const Vec3 w = world_of(q, f.inv_inertia_body) * L;
  const Quat wq(0.0, w.x(), w.y(), w.z());
  Quat r = wq * q;
  r.coeffs() *= 0.5;
  return r;
}

Quat add(const Quat& q, const Quat& dq, double h) {
  Quat r;
  r.coeffs() = q.coeffs() + h * dq.coeffs();
  return r;
}

}  // namespace

Flight flight_of(const BodyModel& body, const BodyState& state, const Vec3& gravity) {
  Flight f;
  f.is_static = body.is_static && !body.is_kinematic;
  if (body.is_kinematic) {  // prescribed motion: constant v and w, the rotation exact (the isotropic path)
    f.isotropic = true;
    return f;
  }
  if (body.is_static) return f;
  f.acceleration = gravity + state.force / body.mass;
  f.torque = state.torque;
  f.inertia_body = body.inertia;
  f.inv_inertia_body = body.inertia.inverse();
  const Eigen::SelfAdjointEigenSolver<Mat3> eig(body.inertia, Eigen::EigenvaluesOnly);
  f.min_inertia = eig.eigenvalues().minCoeff();
  const double max_inertia = eig.eigenvalues().maxCoeff();
  f.isotropic = max_inertia - f.min_inertia <= 1e-12 * max_inertia;
  return f;
}

void fly(const Flight& f, BodyState& s, double tau) {
  if (f.is_static || tau <= 0.0) return;
  s.pose.position += tau * s.linear_velocity + (0.5 * tau * tau) * f.acceleration;
  s.linear_velocity += tau * f.acceleration;
  const bool torque_free = f.torque.isZero(0.0);
  if (f.isotropic && torque_free) {  // w constant: exact rotation
    const double angle = s.angular_velocity.norm() * tau;
    if (angle > 0.0)
      s.pose.orientation =
          (Quat(Eigen::AngleAxisd(angle, s.angular_velocity.normalized())) * s.pose.orientation).normalized();
    return;
  }
  const Vec3 L0 = world_angular_momentum(f, s);
  const double w_bound = angular_speed_bound(f, s, tau);
  const int n = std::clamp(static_cast<int>(std::ceil(w_bound * tau / kMaxTurn)), 1, kMaxSubsteps);
  const double h = tau / n;
  Quat q = s.pose.orientation;
  for (int i = 0; i < n; ++i) {
    const double t = i * h;
    const Vec3 La = L0 + t * f.torque, Lm = L0 + (t + h / 2) * f.torque, Lb = L0 + (t + h) * f.torque;
    const Quat k1 = quat_rate(f, q, La);
    const Quat k2 = quat_rate(f, add(q, k1, h / 2), Lm);
    const Quat k3 = quat_rate(f, add(q, k2, h / 2), Lm);
    const Quat k4 = quat_rate(f, add(q, k3, h), Lb);
    q.coeffs() += (h / 6) * (k1.coeffs() + 2 * k2.coeffs() + 2 * k3.coeffs() + k4.coeffs());
    q.normalize();
  }
  s.pose.orientation = q;
  s.angular_velocity = world_of(q, f.inv_inertia_body) * (L0 + tau * f.torque);
}

double angular_speed_bound(const Flight& f, const BodyState& s, double horizon) {
  if (f.is_static) return 0.0;
  if (f.isotropic && f.torque.isZero(0.0)) return s.angular_velocity.norm();
  const Vec3 L = world_angular_momentum(f, s);
  return (L.norm() + f.torque.norm() * horizon) / f.min_inertia;
}

double kinetic_energy(const BodyModel& body, const BodyState& s) {
  if (body.is_static) return 0.0;  // kinematic bodies included: infinite mass, outside the energy balance
  const Mat3 I = world_of(s.pose.orientation, body.inertia);
  return 0.5 * body.mass * s.linear_velocity.squaredNorm() + 0.5 * s.angular_velocity.dot(I * s.angular_velocity);
}

}  // namespace pegsim
