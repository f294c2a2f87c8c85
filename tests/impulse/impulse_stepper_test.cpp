// The impulse stepper end to end: selection by scene and by name, the scene
// keys it reads, its refusals, a bouncing ball against the closed form, and
// its budgets.
#include "sim/impulse_stepping.hpp"
#include "sim/scene_runner.hpp"

#include <gtest/gtest.h>

#include <cmath>

namespace pegsim {
namespace {

std::string error_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const std::exception& e) {
    return e.what();
  }
  return "";
}

const char* kBall = R"(options: {dimension: 3, stepper: impulse, h: 0.001, restitution: 0.8, collision_tolerance: 1.0e-6}
bodies:
  - {name: ground, shape: {half_space: {normal: [0, 0, 1], offset: 0}}, static: true}
  - {name: ball, shape: {sphere: {radius: 0.05}}, mass: 1, position: [0, 0, 0.55]}
)";

TEST(ImpulseStepper, SelectedByTheSceneAndByName) {
  const Scene s = load_scene_string(kBall, "ball");
  EXPECT_EQ(s.model.options.stepper, "impulse");
  EXPECT_EQ(s.model.restitution_of(MaterialId{0}, MaterialId{0}), 0.8);
  World w(s.model, s.state);
  EXPECT_EQ(w.stepper().name(), "impulse");
  World box = test::load_world("box-stack-3d");
  box.set_stepper("impulse");
  EXPECT_EQ(box.stepper().name(), "impulse");
  EXPECT_EQ(make_stepper("impulse")->name(), "impulse");
}

TEST(ImpulseStepper, BadOptionsAndUnsupportedModelsAreClearErrors) {
  std::string e = error_of([] { load_scene_string("options: {restitution: 1.5}\nbodies: []\n", "t"); });
  EXPECT_NE(e.find("restitution lies in [0, 1]"), std::string::npos) << e;
  e = error_of([] { load_scene_string("options: {restitution_law: elastic}\nbodies: []\n", "t"); });
  EXPECT_NE(e.find("elastic"), std::string::npos) << e;
  e = error_of([] { load_scene_string("options: {collision_tolerance: -1}\nbodies: []\n", "t"); });
  EXPECT_NE(e.find("collision_tolerance"), std::string::npos) << e;
  e = error_of([] {
    load_scene_string("materials: [a]\nrestitution: [{materials: [a, b], e: 0.5}]\nbodies: []\n", "t");
  });
  EXPECT_NE(e.find("unknown material 'b'"), std::string::npos) << e;
  World planar = test::load_world("box-stack-2d");
  e = error_of([&] { planar.set_stepper("impulse"); });
  EXPECT_NE(e.find("3D scenes only"), std::string::npos) << e;
  EXPECT_EQ(planar.model().options.stepper, "time-stepping");
  World pendulum = test::load_world("pendulum");
  e = error_of([&] { pendulum.set_stepper("impulse"); });
  EXPECT_NE(e.find("joints"), std::string::npos) << e;
}

// Bodies that start overlapping deeper than the envelope cannot be separated
// by time-of-impact bounds (each would be negative and clamped to
// min_advance: two boxes 5 cm into each other took 24 s for 20 steps, 2
// million events): the first step refuses them, naming the pair and the
// depth. Touching within the envelope runs; a restarted state (step > 0) is
// not checked again.
TEST(ImpulseStepper, BodiesOverlappingAtTheStartAreRefused) {
  const char* boxes = R"(options: {dimension: 3, stepper: impulse, h: 0.01, collision_tolerance: 1.0e-5}
bodies:
  - {name: ground, shape: {half_space: {normal: [0, 0, 1]}}, static: true}
  - {name: a, shape: {cube: 0.2}, mass: 1, position: [0, 0, 0.100004]}
  - {name: b, shape: {cube: 0.2}, mass: 1, position: [0.15, 0, 0.100004]}
)";
  Scene s = load_scene_string(boxes, "boxes");
  World w(s.model, s.state);
  const std::string e = error_of([&] { w.step(); });
  EXPECT_NE(e.find("bodies 'a' and 'b' overlap by 0.05"), std::string::npos) << e;
  EXPECT_EQ(w.state().step, 0);
  s.state.bodies[2].pose.position.x() = 0.200004;  // 4 um apart: within the envelope, runs
  World apart(s.model, s.state);
  for (int i = 0; i < 20; ++i) apart.step();
  EXPECT_EQ(apart.state().step, 20);
}

// A ball dropped from 0.5 m (lowest point) on the ground, e = 0.8,
// frictionless: impact speed v0 = sqrt(2 g h0); rebounds e^k v0 exactly
// (Poisson, frictionless: p = (1 + e) m v), apex heights e^(2k) h0. The
// first impact at t1 = sqrt(2 h0 / g). Apexes are compared at the step ends
// nearest them: a step of 1 ms misses the apex by at most g (0.5 ms)^2 / 2 =
// 1.2e-6 m, and the envelope leaves the ball up to eps/2 above contact.
TEST(ImpulseStepper, BouncingBallReboundsByTheRestitutionCoefficient) {
  const Scene s = load_scene_string(kBall, "ball");
  World w(s.model, s.state);
  const double h0 = 0.5, e = 0.8;
  std::vector<double> apex;  // heights of the ball's bottom at its apexes
  double prev_vz = 0.0, prev_z = 0.5;
  while (w.state().time < 2.0 - 1e-12) {
    const StepReport& r = w.step();
    EXPECT_FALSE(r.impulse.collision_budget_exhausted);
    const BodyState& b = w.state().bodies[1];
    if (prev_vz > 0.0 && b.linear_velocity.z() <= 0.0) apex.push_back(std::max(prev_z, b.pose.position.z() - 0.05));
    prev_vz = b.linear_velocity.z();
    prev_z = b.pose.position.z() - 0.05;
  }
  ASSERT_GE(apex.size(), 4u);
  for (std::size_t k = 0; k < 4; ++k)
    EXPECT_NEAR(apex[k], std::pow(e, 2.0 * (k + 1)) * h0, 2e-6) << "apex " << k + 1;
}

// Budgets: a tiny collision budget is reached, counted, and the step still ends.
TEST(ImpulseStepper, ExhaustedBudgetsAreCountedNeverAHang) {
  Scene s = load_scene_file(test::scene_path("billiards-break"));
  s.model.options.impulse.max_collisions_per_step = 1;
  s.model.options.impulse.max_events_per_step = 3;
  World w(s.model, s.state);
  int exhausted = 0;
  for (int i = 0; i < 200; ++i) {
    const StepReport& r = w.step();
    exhausted += r.impulse.collision_budget_exhausted || r.impulse.event_budget_exhausted;
    EXPECT_LE(r.impulse.collisions, 1);
    EXPECT_LE(r.impulse.events, 3);
  }
  EXPECT_GT(exhausted, 0);
  EXPECT_NEAR(w.state().time, 0.2, 1e-12);
}

}  // namespace
}  // namespace pegsim
