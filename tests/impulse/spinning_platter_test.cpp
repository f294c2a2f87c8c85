// spinning-platter (scenes/spinning-platter.yaml; Mirtich & Canny 6): a ball
// rolling on a kinematic platter turning at Omega, under both steppers. The
// analysis (shared/notes/mirtich-canny.md 2.2, docs/experiments.md):
//   - rolling without slip, the ball circles at Omega' = Omega I / (I + m a^2)
//     (2/7 Omega solid, 2/5 Omega thin shell), the radius constant;
//   - a stepper that advances the rolling by explicit Euler steps of length T
//     (the LCP: T = h, the sticking row seeing the platter's surface velocity
//     at the step's start; the impulse stepper: T = the hop period, each
//     landing's sticking impulse) grows the radius at ln(1 + (Omega' T)^2) / (2T).
// The checks measure both figures (analysis/orbit.hpp: least-squares slopes
// over three orbits). Tolerances: the frequency within 1% (the Euler step's
// phase error is third order in Omega' T < 0.03; 1% is the guide's check and
// would catch a wrong inertia or a missed surface velocity, which change it by
// 40% or make it 0); the growth rate within 25% (the guide's: the hop period
// varies from hop to hop, and a radius wobble of an orbit not quite centred
// projects onto the fit's slope).
#include "analysis/orbit.hpp"
#include "sim/scene_runner.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <numbers>

namespace pegsim {
namespace {

constexpr double kOmega = 100.0 / 3.0 * 2.0 * std::numbers::pi / 60.0;  // 33 1/3 rpm
constexpr double kSeconds = 19.0;  // three orbits at 2/7 Omega

struct PlatterRun {
  OrbitFit fit{Vec3::Zero()};
  double orbit_rate = 0.0;  // the rolling analysis' Omega'
  long collisions = 0, failures = 0, jams = 0;
  double deepest = 0.0;
  bool budgets_held = true;
};

// The shipped scene with stepper, h and eps set; `shell` swaps the solid
// ball's inertia for a thin shell's (2/3 m a^2).
PlatterRun run_platter(const std::string& stepper, double h, double eps, bool shell = false) {
  Scene s = load_scene_file(test::scene_path("spinning-platter"));
  s.model.options.stepper = stepper;
  s.model.options.h = h;
  s.model.options.impulse.collision_tolerance = eps;
  const std::uint32_t ball = 1;
  BodyModel& b = s.model.bodies[ball];
  const double a = 0.02;
  if (shell) b.inertia = Mat3::Identity() * (2.0 / 3.0 * b.mass * a * a);
  PlatterRun run;
  run.orbit_rate = rolling_orbit_rate(kOmega, b.mass, a, b.inertia(0, 0));
  World w = test::measuring_world(std::move(s.model), std::move(s.state));
  run.fit.add(0.0, w.state().bodies[ball].pose.position);
  while (w.state().time < kSeconds - 1e-9) {
    const StepReport& r = w.step();
    run.collisions += r.impulse.collisions;
    run.jams += r.impulse.jams;
    run.failures += r.solver_failures;
    run.budgets_held = run.budgets_held && !r.impulse.collision_budget_exhausted && !r.impulse.event_budget_exhausted;
    run.deepest = std::max(run.deepest, r.max_penetration);
    run.fit.add(w.state().time, w.state().bodies[ball].pose.position);
  }
  return run;
}

// The LCP stepper (PEG, Lemke): the ball circles at 2/7 Omega (2/5 for the
// shell), and its radius grows at the explicit-Euler rate for T = h, halving
// with h (first order). The step is that Euler map exactly (the orbit is
// centred on the axis, so the radius grows by the same factor every step):
// measured equal to 1e-9 relative, checked to 1% (the 25% of the guide is
// for the impulse stepper's irregular hops). Overlap: the sphere-on-cap
// contact is exact (no rotation error on a flat face); 1e-9 m is the solver
// tolerance's scale.
TEST(SpinningPlatter, TimeSteppingOrbitsAtTwoSeventhsOfThePlatterAndGrowsAtItsEulerRate) {
  double rate[2];
  const double hs[2] = {0.005, 0.0025};
  for (int i = 0; i < 2; ++i) {
    const PlatterRun run = run_platter("time-stepping", hs[i], 1e-4);
    EXPECT_EQ(run.failures, 0);
    EXPECT_LT(run.deepest, 1e-9);
    EXPECT_NEAR(run.orbit_rate, 2.0 / 7.0 * kOmega, 1e-12);
    EXPECT_NEAR(run.fit.angular_frequency(), run.orbit_rate, 0.01 * run.orbit_rate) << "h " << hs[i];
    const double expected = euler_orbit_growth_rate(run.orbit_rate, hs[i]);
    rate[i] = run.fit.radius_growth_rate();
    EXPECT_NEAR(rate[i], expected, 0.01 * expected) << "h " << hs[i];
    EXPECT_NEAR(run.fit.first_radius(), 0.05, 1e-9);
  }
  EXPECT_NEAR(rate[1] / rate[0], 0.5, 0.01);
}

TEST(SpinningPlatter, ThinShellOrbitsAtTwoFifthsOfThePlatter) {
  const PlatterRun run = run_platter("time-stepping", 0.005, 1e-4, true);
  EXPECT_EQ(run.failures, 0);
  EXPECT_NEAR(run.orbit_rate, 0.4 * kOmega, 1e-12);
  EXPECT_NEAR(run.fit.angular_frequency(), run.orbit_rate, 0.01 * run.orbit_rate);
}

// The impulse stepper: resting on the platter is micro-collisions. A landing
// at v_mu = sqrt(2 g eps) or slower leaves at v_mu (a hop of 2 v_mu / g); one
// faster than v_mu leaves at e times its speed, so hops alternate between
// 2 v_mu / g and about (1 + e) v_mu / g: the mean hop lies between. Each
// landing sticks (friction needs Omega' |v| m = 5e-3 N of mu m g = 0.49 N), an
// explicit-Euler step of length T of the rolling. Collisions happen across a
// gap: the pair is caught at eps / 2 (the bounds' stopping distance) and the
// impulse acts at the midpoint of the two closest points
// (impulse/collision_response.cpp), a + eps / 4 below the ball's centre,
// so the rolling's lever is a + eps / 4 and the orbit rate
// Omega I / (I + m (a + eps/4)^2): 0.18% below 2/7 Omega at eps = 1e-4, 1.8%
// at 1e-3 (measured 0.16% and 1.79%). Checked within 0.5%, which tells the
// two apart at 1e-3. The radius grows at the Euler rate for the measured mean
// hop period (run time / collisions; the alternating hops' spread adds to
// it, within the 25%), so 10 times the envelope grows it about sqrt(10)
// times faster: the paper's "circles of gradually increasing radius" are, in
// this model, this artefact.
TEST(SpinningPlatter, ImpulseStepperOrbitsAtTwoSeventhsAndGrowsAtTheHopsEulerRate) {
  double rate[2];
  const double eps[2] = {1e-4, 1e-3};
  const double e = 0.3, g = 9.81;
  for (int i = 0; i < 2; ++i) {
    const PlatterRun run = run_platter("impulse", 0.01, eps[i]);
    EXPECT_TRUE(run.budgets_held);
    EXPECT_EQ(run.jams, 0);
    EXPECT_EQ(run.deepest, 0.0) << "the ball never overlaps the platter";
    const double lever = 0.02 + eps[i] / 4.0, mass = 0.1, inertia = 0.4 * mass * 0.02 * 0.02;
    const double orbit_rate = rolling_orbit_rate(kOmega, mass, lever, inertia);
    EXPECT_NEAR(run.fit.angular_frequency(), orbit_rate, 0.005 * orbit_rate) << "eps " << eps[i];
    const double v_mu = std::sqrt(2.0 * g * eps[i]);
    const double mean_hop = kSeconds / static_cast<double>(run.collisions);
    EXPECT_GT(mean_hop, (1.0 + e) * v_mu / g) << "eps " << eps[i];
    EXPECT_LT(mean_hop, 2.0 * v_mu / g) << "eps " << eps[i];
    const double expected = euler_orbit_growth_rate(orbit_rate, mean_hop);
    rate[i] = run.fit.radius_growth_rate();
    EXPECT_NEAR(rate[i], expected, 0.25 * expected) << "eps " << eps[i];
  }
  EXPECT_NEAR(rate[1] / rate[0], std::sqrt(10.0), 0.25 * std::sqrt(10.0));
}

}  // namespace
}  // namespace pegsim
