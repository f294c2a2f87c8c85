// The time-of-impact bound (impulse/time_of_impact.hpp) never passes the
// true first contact: random ballistic pairs, spinning boxes against a
// ground and against each other, the true distance sampled densely up to
// the bound.
#include "impulse/ballistic_flight.hpp"
#include "impulse/time_of_impact.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <random>

namespace pegsim {
namespace {

constexpr double kDelta = 0.5e-5;

BodyModel box_body(double m) {
  BodyModel b;
  b.name = "box";
  b.shape = make_box(Vec3(0.3, 0.2, 0.1));
  b.mass = m;
  b.inertia = mass_properties(b.shape, 1.0).inertia * (m / mass_properties(b.shape, 1.0).mass);
  return b;
}

// Two spheres under the same gravity: the distance is |dx + dv t| - R1 - R2,
// the bound (d - delta)/(dv.n) for closing pairs is never beyond the exact
// time at which the distance reaches delta.
TEST(TimeOfImpact, SpheresNeverPassTheExactContactTime) {
  std::mt19937_64 rng(3);
  std::uniform_real_distribution<double> U(-1.0, 1.0);
  int closing = 0;
  for (int trial = 0; trial < 100000; ++trial) {
    const Vec3 dx = 3.0 * Vec3(U(rng), U(rng), U(rng)), dv = 5.0 * Vec3(U(rng), U(rng), U(rng));
    const double r_sum = 0.2 + 0.3 * std::abs(U(rng));
    if (dx.norm() <= r_sum + kDelta) continue;
    const Vec3 n = dx.normalized();  // from A towards B
    const double d = dx.norm() - r_sum;
    MotionBound a, b;
    a.velocity = Vec3::Zero();
    b.velocity = dv;  // relative motion: B moves by dv t
    a.acceleration = b.acceleration = Vec3(0, 0, -9.81);
    const double tau = time_of_impact_bound(d, n, a, b, kDelta);
    // exact: |dx + dv t| = r_sum + delta, smallest positive root
    const double A = dv.squaredNorm(), B = 2.0 * dx.dot(dv), C = dx.squaredNorm() - std::pow(r_sum + kDelta, 2);
    const double disc = B * B - 4.0 * A * C;
    const double exact = (disc < 0.0 || B >= 0.0) ? INFINITY : (-B - std::sqrt(disc)) / (2.0 * A);
    if (std::isfinite(exact)) ++closing;
    EXPECT_LE(tau, exact * (1.0 + 1e-12)) << trial;
  }
  EXPECT_GT(closing, 400);
}

// A tumbling box (no torque: its angular momentum is fixed and |w| <= |L|/I_min)
// thrown at a ground plane, and at a second tumbling box: sampled at 500
// points up to the bound, the true distance stays at or above delta.
TEST(TimeOfImpact, TumblingBoxesStayApartUntilTheBound) {
  std::mt19937_64 rng(7);
  std::uniform_real_distribution<double> U(-1.0, 1.0);
  const BodyModel box = box_body(2.0);
  const Shape ground = HalfSpace{Vec3::UnitZ(), 0.0};
  const Vec3 g(0, 0, -9.81);
  for (int trial = 0; trial < 60; ++trial) {
    BodyState a, b;
    a.pose.position = Vec3(U(rng), U(rng), 0.5 + std::abs(U(rng)));
    a.pose.orientation = Quat(Eigen::AngleAxisd(3.0 * U(rng), Vec3(U(rng), U(rng), U(rng)).normalized()));
    a.linear_velocity = 3.0 * Vec3(U(rng), U(rng), U(rng));
    a.angular_velocity = 10.0 * Vec3(U(rng), U(rng), U(rng));
    b = a;
    b.pose.position += Vec3(0.8 + U(rng) * 0.2, U(rng) * 0.3, U(rng) * 0.3);
    b.linear_velocity = 3.0 * Vec3(U(rng), U(rng), U(rng));
    b.angular_velocity = 10.0 * Vec3(U(rng), U(rng), U(rng));
    const Flight fa = flight_of(box, a, g), fb = flight_of(box, b, g);
    const double horizon = 1.0;
    MotionBound ma{a.linear_velocity, fa.acceleration, angular_speed_bound(fa, a, horizon) * spin_radius(box.shape)};
    MotionBound mb{b.linear_velocity, fb.acceleration, angular_speed_bound(fb, b, horizon) * spin_radius(box.shape)};
    MotionBound fixed;
    // box against the ground (ground is A) and box against box
    const PartDistance dg = part_distance(ground, Pose(), box.shape, a.pose);
    const PartDistance dab = part_distance(box.shape, a.pose, box.shape, b.pose);
    if (dg.distance <= kDelta || dab.distance <= kDelta) continue;
    const double tau_g = std::min(horizon, time_of_impact_bound(dg.distance, dg.normal, fixed, ma, kDelta));
    const double tau_ab = std::min(horizon, time_of_impact_bound(dab.distance, dab.normal, ma, mb, kDelta));
    const int samples = 500;
    BodyState xa = a, xb = b;
    for (int k = 1; k <= samples; ++k) {
      const double t = tau_ab * k / samples;
      xa = a;
      xb = b;
      fly(fa, xa, t);
      fly(fb, xb, t);
      ASSERT_GE(part_distance(box.shape, xa.pose, box.shape, xb.pose).distance, kDelta * (1.0 - 1e-6)) << trial << " t " << t;
    }
    for (int k = 1; k <= samples; ++k) {
      const double t = tau_g * k / samples;
      xa = a;
      fly(fa, xa, t);
      ASSERT_GE(part_distance(ground, Pose(), box.shape, xa.pose).distance, kDelta * (1.0 - 1e-6)) << trial << " t " << t;
    }
  }
}

// Torque-free tumbling keeps the angular momentum (ballistic_flight.hpp holds L fixed).
TEST(BallisticFlight, TumblingKeepsAngularMomentumAndTheCentreIsAParabola) {
  const BodyModel box = box_body(2.0);
  BodyState s;
  s.linear_velocity = Vec3(1.0, 2.0, 3.0);
  s.angular_velocity = Vec3(5.0, 0.1, 0.2);  // near the intermediate axis: it tumbles
  const Flight f = flight_of(box, s, Vec3(0, 0, -9.81));
  auto L = [&](const BodyState& x) {
    const Mat3 R = x.pose.orientation.toRotationMatrix();
    return Vec3(R * box.inertia * R.transpose() * x.angular_velocity);
  };
  const Vec3 L0 = L(s);
  BodyState x = s;
  for (int i = 0; i < 100; ++i) fly(f, x, 0.01);
  EXPECT_LT((L(x) - L0).norm(), 1e-12 * L0.norm());
  EXPECT_LT((x.pose.position - Vec3(1.0, 2.0, 3.0 - 0.5 * 9.81)).norm(), 1e-12);
  EXPECT_LT((x.linear_velocity - Vec3(1.0, 2.0, 3.0 - 9.81)).norm(), 1e-12);
}

}  // namespace
}  // namespace pegsim
