// Kinematic (prescribed-motion) bodies under the time-stepping LCP
// (sim/model.hpp BodyModel::is_kinematic): a box set down at rest on a
// conveyor belt moving at V. Coulomb friction accelerates it at a = mu g
// until it moves with the belt, then it sticks: it slides back along the belt
// by V^2 / (2 a) and from then on keeps its place on the belt exactly. The
// belt's velocity reaches the problem only through the rows' prescribed term
// (b of eq. 2.30); PEG's face contact goes through its slack rows (the
// difference of two sub-contacts' rows), so both paths are exercised.
#include "io/scene.hpp"
#include "sim/scene_runner.hpp"
#include "sim/world.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <numbers>
#include <string>

namespace pegsim {
namespace {

constexpr double kBeltSpeed = 0.5, kMu = 0.4, kG = 9.81, kH = 0.005;

struct BeltRun {
  double slide_back = 0.0;    // the box's lag behind the belt once it sticks (m)
  double drift = 0.0;         // largest change of that lag after sticking (m)
  double speed_error = 0.0;   // largest |v_box - V| after sticking (m/s)
  double deepest = 0.0;       // deepest penetration after any step (m)
  double belt_travel = 0.0;   // the belt's displacement (m)
  int failures = 0;
};

BeltRun run_belt(const std::string& yaml) {
  Scene s = load_scene_string(yaml, "belt.yaml");
  World w(std::move(s.model), std::move(s.state));
  w.set_measure_penetration(true);
  const Vec3 belt0 = w.state().bodies[0].pose.position;
  const Vec3 offset0 = w.state().bodies[1].pose.position - belt0;
  BeltRun run;
  Vec3 lag_at_stick = Vec3::Constant(NAN);
  const double stick_time = kBeltSpeed / (kMu * kG);  // 0.127 s
  while (w.state().time < 1.0 - 1e-9) {
    const StepReport& r = w.step();
    run.failures += r.solver_failures;
    run.deepest = std::max(run.deepest, r.max_penetration);
    const Vec3 lag = w.state().bodies[1].pose.position - w.state().bodies[0].pose.position - offset0;
    if (w.state().time < 2.0 * stick_time) continue;  // sliding, then a margin
    if (std::isnan(lag_at_stick.x())) lag_at_stick = lag;
    run.drift = std::max(run.drift, (lag - lag_at_stick).norm());
    run.speed_error = std::max(run.speed_error, (w.state().bodies[1].linear_velocity - Vec3(kBeltSpeed, 0, 0)).norm());
  }
  run.slide_back = -lag_at_stick.x();
  run.belt_travel = (w.state().bodies[0].pose.position - belt0).norm();
  return run;
}

// The belt moves exactly V t (prescribed motion). Sliding: with friction at
// mu N the slide-back is V^2 / (2 mu g) = 31.9 mm; the linearized cone (7
// directions, 3D) gives a friction force between mu N cos(pi/7) and mu N along
// the slip, so up to 1 / cos(pi/7) = 1.11 times as much (and, not antiparallel
// to the slip, a sideways slide of a few mm, unchecked); the step's explicit
// friction adds at most V h = 2.5 mm either way. Sticking: the box's velocity
// equals the belt's to the solver tolerance (1e-9 scaled), and the lag stays
// put to 1e-9 m over 0.75 s (rounding, no creep). Face contact at rest on a
// flat face: penetration at the solver tolerance's scale.
void expect_conveyed(const BeltRun& run, double cone_factor) {
  const double slide = kBeltSpeed * kBeltSpeed / (2.0 * kMu * kG);
  EXPECT_EQ(run.failures, 0);
  EXPECT_NEAR(run.belt_travel, kBeltSpeed * 1.0, 1e-12);
  EXPECT_GT(run.slide_back, slide - kBeltSpeed * kH);
  EXPECT_LT(run.slide_back, cone_factor * slide + kBeltSpeed * kH);
  EXPECT_LT(run.speed_error, 1e-8);
  EXPECT_LT(run.drift, 1e-9);
  EXPECT_LT(run.deepest, 1e-9);
}

TEST(KinematicBody, BoxOnAConveyorBeltSlidesThenRidesItWithoutCreep3D) {
  const BeltRun run = run_belt(R"(options: {dimension: 3, h: 0.005, model: peg, friction: 0.4}
bodies:
  - {name: belt, shape: {box: [3, 1, 0.1]}, kinematic: true, position: [0, 0, -0.05], velocity: [0.5, 0, 0]}
  - {name: box, shape: {cube: 0.2}, mass: 1, position: [0.3, 0.1, 0.1]}
)");
  expect_conveyed(run, 1.0 / std::cos(std::numbers::pi / 7.0));
}

TEST(KinematicBody, BoxOnAConveyorBeltSlidesThenRidesItWithoutCreep2D) {
  const BeltRun run = run_belt(R"(options: {dimension: 2, h: 0.005, model: peg, friction: 0.4, gravity: [0, -9.81]}
bodies:
  - {name: belt, shape: {rectangle: [3, 0.1]}, kinematic: true, position: [0, -0.05], velocity: [0.5, 0]}
  - {name: box, shape: {rectangle: [0.2, 0.2]}, mass: 1, position: [0.3, 0.1]}
)");
  expect_conveyed(run, 1.0);  // 2D friction is +-t: the cone is exact
}

// A turntable (a cylinder turning about its axis) carries a box resting on it
// off the axis, on its four corners (collision/narrowphase_rim.cpp): once it
// sticks, the box turns with the table (its angular velocity the table's, to
// 1%: the explicit step's rotation error is O(Omega h) = 1% at h = 0.005,
// Omega = 2 rad/s).
TEST(KinematicBody, TurntableCarriesABoxRound) {
  Scene s = load_scene_string(R"(options: {dimension: 3, h: 0.005, model: peg, friction: 0.6}
bodies:
  - {name: table, shape: {cylinder: {radius: 1, height: 0.1}}, kinematic: true, position: [0, 0, -0.05],
     angular_velocity: [0, 0, 2]}
  - {name: box, shape: {cube: 0.1}, mass: 0.5, position: [0.3, 0, 0.05]}
)", "turntable.yaml");
  World w(std::move(s.model), std::move(s.state));
  const test::RunStats run = test::run_until(w, 2.0);
  const BodyState& box = w.state().bodies[1];
  EXPECT_EQ(run.failures, 0);
  EXPECT_LT(run.max_penetration, 1e-9);
  EXPECT_NEAR(box.angular_velocity.z(), 2.0, 0.02);
  const Vec3 r = box.pose.position;
  const Vec3 carried(-2.0 * r.y(), 2.0 * r.x(), 0.0);  // Omega z x r
  EXPECT_LT((box.linear_velocity - carried).norm(), 0.01 * carried.norm());
  // carried round near its circle: it slides a little while catching up, and
  // the explicit step grows the radius by O(Omega h) per radian
  EXPECT_NEAR(std::hypot(r.x(), r.y()), 0.3, 0.03);
  // the table itself turned by Omega t = 4 rad, exactly (to round-off over 400 steps)
  EXPECT_NEAR(w.state().bodies[0].pose.orientation.angularDistance(
                  Quat(Eigen::AngleAxisd(4.0, Vec3::UnitZ()))), 0.0, 1e-12);
}

}  // namespace
}  // namespace pegsim
