// The contact drift correction (SimOptions::contact_drift_correction,
// sim/contact_drift.hpp): a sticking contact's tangential drift from the
// first-order position update is taken back in the next step, so it stays at
// one step's, O(h^2), instead of adding up; rolling is left alone.
#include "io/scene.hpp"
#include "sim/scene_runner.hpp"
#include "sim/world.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <stdexcept>
#include <string>

namespace pegsim {
namespace {

// A box riding a turntable (a kinematic cylinder turning at Omega about z),
// set down on it already turning with it at radius r0. The contacts hold it
// at the velocity level, v = Omega x r at the step's start; the position
// update then moves it along that tangent by h v, off the circle: r grows by
// r (sqrt(1 + (Omega h)^2) - 1) = r (Omega h)^2 / 2 a step, so r0 (e^(Omega^2 h
// t / 2) - 1) in time t, 15.4 mm in 5 s here (h = 0.005, Omega = 2 rad/s,
// r0 = 0.3 m): the uncorrected run must show exactly that creep (to 1%: the
// series' next term). Corrected, each step's r0 (Omega h)^2 / 2 = 1.5e-5 m
// is taken back in the next: the radius stays within two steps' worth.
double turntable_radius_change(bool corrected) {
  const std::string yaml = std::string(R"(options: {dimension: 3, h: 0.005, model: peg, friction: 0.6,
          contact_drift_correction: )") + (corrected ? "true" : "false") + R"(}
bodies:
  - {name: table, shape: {cylinder: {radius: 1, height: 0.1}}, kinematic: true, position: [0, 0, -0.05],
     angular_velocity: [0, 0, 2]}
  - {name: box, shape: {cube: 0.1}, mass: 0.5, position: [0.3, 0, 0.05], velocity: [0, 0.6, 0],
     angular_velocity: [0, 0, 2]}
)";
  Scene s = load_scene_string(yaml, "turntable.yaml");
  World w(std::move(s.model), std::move(s.state));
  const test::RunStats run = test::run_until(w, 5.0);
  EXPECT_EQ(run.failures, 0);
  EXPECT_LT(run.max_penetration, 1e-9);
  const Vec3 r = w.state().bodies[1].pose.position;
  // it turned with the table: Omega t = 10 rad, to the step's own O(h) phase error
  EXPECT_NEAR(std::remainder(std::atan2(r.y(), r.x()) - 10.0, 2.0 * M_PI), 0.0, 2e-3);
  return std::hypot(r.x(), r.y()) - 0.3;
}

TEST(ContactDrift, TurntableCarriesABoxOnItsCircle) {
  const double omega = 2.0, h = 0.005, r0 = 0.3;
  const double creep = r0 * std::expm1(0.5 * omega * omega * h * 5.0);
  EXPECT_NEAR(turntable_radius_change(false), creep, 0.01 * creep);
  EXPECT_LT(std::abs(turntable_radius_change(true)), 2.0 * r0 * omega * omega * h * h / 2.0);
}

// A ball rolling and spinning on the ground (v = 1.12 m/s, 3 rad/s about the
// normal) touches new material points each step: the ones that touched part
// by -(h^2 / 2) Omega x v, tangentially for the spin. The correction leaves
// that alone (the Omega term of the header): the corrected run differs from
// the uncorrected one by the correction's O(h^3) per step, 1.1e-5 m in 1 s at
// h = 0.001, a quarter of that at h / 2 (second order). Without the Omega
// term it was 4.7e-4 m at h = 0.001.
Vec3 rolling_ball(double h, bool corrected) {
  char yaml[512];
  std::snprintf(yaml, sizeof yaml, R"(options: {dimension: 3, h: %g, model: peg, friction: 0.5,
          contact_drift_correction: %s}
bodies:
  - {name: ground, static: true, shape: {half_space: {normal: [0, 0, 1], offset: 0}}}
  - {name: ball, shape: {sphere: {radius: 0.1}}, density: 1000, position: [0, 0, 0.1], velocity: [1, 0.5, 0],
     angular_velocity: [-5, 10, 3]}
)", h, corrected ? "true" : "false");
  Scene s = load_scene_string(yaml, "rolling.yaml");
  World w(std::move(s.model), std::move(s.state));
  const test::RunStats run = test::run_until(w, 1.0);
  EXPECT_EQ(run.failures, 0);
  return w.state().bodies[1].pose.position;
}

TEST(ContactDrift, RollingAndSpinningBallIsLeftAlone) {
  const double coarse = (rolling_ball(0.001, true) - rolling_ball(0.001, false)).norm();
  const double fine = (rolling_ball(0.0005, true) - rolling_ball(0.0005, false)).norm();
  EXPECT_LT(coarse, 2e-5);
  EXPECT_GT(coarse, 0.0);  // the correction ran
  EXPECT_NEAR(coarse / fine, 4.0, 0.4);
  // uncorrected, the rolling is exact: 1 m along x, 0.5 along y in 1 s
  EXPECT_LT((rolling_ball(0.001, false) - Vec3(1.0, 0.5, 0.1)).norm(), 1e-12);
}

// Steppers without a sticking contact refuse the option (never silently dropped).
TEST(ContactDrift, ViscousAndImpulseSteppersRefuseIt) {
  for (const char* stepper : {"viscous", "impulse"}) {
    SCOPED_TRACE(stepper);
    const std::string yaml = std::string("options: {dimension: 3, model: standard, contact_drift_correction: true, "
                                         "stepper: ") + stepper + R"(}
bodies:
  - {name: ground, static: true, shape: {half_space: {normal: [0, 0, 1], offset: 0}}}
  - {name: box, shape: {cube: 0.1}, mass: 1, position: [0, 0, 0.05]}
)";
    Scene s = load_scene_string(yaml, "refuse.yaml");
    EXPECT_THROW(World(std::move(s.model), std::move(s.state)), std::invalid_argument);
  }
}

}  // namespace
}  // namespace pegsim
