// The energy bound on a step's impulses (sim/impulse_energy.hpp, issue 17):
// it leaves a well-posed solve alone, its scale is the largest that meets it,
// and the standard model's trapped stack no longer launches boxes with it.
// (Random pour seed 903, whose certified solve launched two hulls by 131,600
// J, was the other case; PEG's P9 closed it: pour_budget_test.cpp.)
#include "impulse/ballistic_flight.hpp"
#include "io/random_pour.hpp"
#include "io/scene.hpp"
#include "sim/impulse_energy.hpp"
#include "sim/scene_runner.hpp"
#include "sim/world.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>

namespace pegsim {
namespace {

double kinetic_energy(const World& w) {  // of the dynamic bodies
  double t = 0.0;
  for (std::size_t i = 0; i < w.model().bodies.size(); ++i)
    if (!w.model().bodies[i].is_static) t += kinetic_energy(w.model().bodies[i], w.state().bodies[i]);
  return t;
}

// A unit cube set 1 mm into the ground: the one step's solve pushes it out at
// delta/h (eq. 6.1's psi/h), with kinetic energy 1/2 m (delta/h)^2 exactly,
// the most a penetration of delta may give. That is within the bound (one
// contact's E is exact; four corners get more room), so nothing is scaled.
// `options`: the scene's options beyond dimension, h and friction.
void expect_push_out_left_alone(const std::string& options) {
  const double delta = 1e-3, h = 0.005;
  Scene s = load_scene_string("options: {dimension: 3, h: 0.005, friction: 0.5" + options + R"(}
bodies:
  - {name: ground, static: true, shape: {box: [4, 4, 1]}, position: [0, 0, -0.5]}
  - {name: cube, density: 1000, shape: {box: [1, 1, 1]}, position: [0, 0, 0.499]}
)", "cube.yaml");
  World w(std::move(s.model), std::move(s.state));
  const StepReport& r = w.step();
  ASSERT_EQ(r.solver_failures, 0);
  EXPECT_EQ(r.impulses_scaled, 0);
  const double m = w.model().bodies[1].mass;
  // pushed out at delta/h (the residual tolerance 1e-9 m/s is the error)
  EXPECT_NEAR(w.state().bodies[1].linear_velocity.z(), delta / h, 1e-8);
  EXPECT_NEAR(kinetic_energy(w), 0.5 * m * (delta / h) * (delta / h), 1e-6);
}

TEST(EnergyBound, ASolveThatOnlyPushesOutPenetrationIsLeftAlone) { expect_push_out_left_alone(""); }

// The no-slip stepper's form (sim/normal_lcp_stepper.hpp): the normal LCP
// (51)-(55) pushes the cube out the same way (at a solution dT <= G).
TEST(EnergyBound, NoSlipPushOutIsLeftAlone) { expect_push_out_left_alone(", stepper: no-slip, model: standard"); }

// The closed form of energy_bounded_scale: s a + 1/2 s^2 c = s T + min(G, E)
// at the returned s < 1, and any larger s exceeds it (the impulses are scaled
// no more than needed). Values from an island of random pour seed 903.
TEST(EnergyBound, ScaleIsTheLargestThatMeetsTheBound) {
  ImpulseWork w;
  w.free_work = -176.14;
  w.quadratic = 263531.0;
  w.target_work = 0.0;
  w.gap_work = 296225.0;
  w.gap_energy = 1.17716;
  const double s = energy_bounded_scale(w);
  ASSERT_GT(s, 0.0);
  ASSERT_LT(s, 1.0);
  auto excess = [&](double t) {
    return t * w.free_work + 0.5 * t * t * w.quadratic - (t * w.target_work + std::min(w.gap_work, w.gap_energy));
  };
  EXPECT_NEAR(excess(s), 0.0, 1e-9 * w.quadratic);
  EXPECT_GT(excess(s * (1.0 + 1e-6)), 0.0);
  // within the bound: unscaled; a kinematic body's work (T) counts as allowed
  ImpulseWork pushed = w;
  pushed.target_work = 200000.0;
  EXPECT_EQ(energy_bounded_scale(pushed), 1.0);
}

// The largest rise of the mechanical energy above its start over `steps`
// steps of `scene` (infinity if the run went non-finite), with the bound on
// or off, and the islands it scaled.
double max_energy_rise(Scene scene, long steps, bool bound, int& scaled) {
  scene.model.options.energy_bound = bound;
  World world(std::move(scene.model), std::move(scene.state));
  const double e0 = mechanical_energy(world.model(), world.state());
  double rise = 0.0;
  scaled = 0;
  try {
    for (long k = 0; k < steps; ++k) {
      scaled += world.step().impulses_scaled;
      rise = std::max(rise, mechanical_energy(world.model(), world.state()) - e0);
    }
  } catch (const std::exception&) {  // World::step refuses a non-finite state
    return std::numeric_limits<double>::infinity();
  }
  return rise;
}

// A shipped scene over its own duration.
double max_energy_rise(const std::string& scene_name, bool bound, int& scaled) {
  Scene scene = load_scene_file(test::scene_path(scene_name));
  const long steps = std::lround(scene.model.options.duration / scene.model.options.h);
  return max_energy_rise(std::move(scene), steps, bound, scaled);
}

// box-stack-2d, the standard model's trapped stack (thesis 4.1): its trapped
// corners ask for separations both ways, and some solutions (certified or a
// failed solve's best point) launch a 1 kg box by hundreds of joules. The
// energy the step may add is what its penetrations ask for (psi/h of a few
// millimetres: tens of joules at most over the run); with the bound the
// launching islands are scaled and counted.
TEST(EnergyBound, TrappedStackDoesNotLaunchBoxes) {
  int scaled = 0;
  EXPECT_LT(max_energy_rise("box-stack-2d", true, scaled), 100.0);
  EXPECT_GE(scaled, 1);
  // without it, the launches (1020 J measured)
  EXPECT_GT(max_energy_rise("box-stack-2d", false, scaled), 100.0);
}

// Random pour seed 12 (io/random_pour.hpp) under the no-slip stepper, whose
// contact model is the standard one: its traps (thesis 4.1) ask for
// separations both ways, and at step 58 a certified solve, amplified by the
// no-slip rows, launched hulls of a few kilograms: +1230 J over the pour's
// start (its 300 steps went on to 1e31 J). With the bound each island adds
// at most what its penetrations ask for: +79 J at that step. The first 59
// steps are run (the unbounded run's next step is an island of 2659
// contacts).
double no_slip_pour_rise(bool bound, int& scaled) {
  RandomPourOptions options;
  Scene scene = random_pour_scene(options, 12);
  scene.model.options.stepper = "no-slip";
  scene.model.options.model = ContactModelKind::Standard;
  return max_energy_rise(std::move(scene), 59, bound, scaled);
}

TEST(EnergyBound, NoSlipPourDoesNotLaunchHulls) {
  int scaled = 0;
  EXPECT_LT(no_slip_pour_rise(true, scaled), 500.0);
  EXPECT_GE(scaled, 1);
  EXPECT_GT(no_slip_pour_rise(false, scaled), 1000.0);  // the launch, without it
}

TEST(EnergyBound, SceneOptionTurnsItOff) {
  const std::string yaml = "options: {energy_bound: false}\nbodies:\n  - {name: b, static: true, shape: {box: [1, 1, 1]}}\n";
  EXPECT_FALSE(load_scene_string(yaml, "off.yaml").model.options.energy_bound);
  EXPECT_TRUE(load_scene_string("bodies:\n  - {name: b, static: true, shape: {box: [1, 1, 1]}}\n", "on.yaml").model.options.energy_bound);
  try {
    load_scene_string("options: {energy_bound: maybe}\nbodies: []\n", "bad.yaml");
    ADD_FAILURE() << "no error";
  } catch (const std::exception& e) {
    EXPECT_NE(std::string(e.what()).find("bad.yaml:1"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("energy_bound"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace pegsim
