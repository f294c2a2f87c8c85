// The viscous stepper (reference 002, section IV, in the guide's time-stepping
// form V-imp; dynamics/normal_lcp.hpp): the tangential impulse at a touching
// contact is -h mu_v v_t, so a box sliding on a plane on its four corners
// obeys m dv/dt = -4 mu_v v, v(t) = v0 exp(-4 mu_v t / m), stepped explicitly:
// v_k = v0 (1 - h c / m)^k with c = 4 mu_v. The semi-implicit law
// (viscous_integration: implicit) takes the impulse at v+: m (v_k - v_k-1) =
// -h c v_k, v_k = v0 (1 + h c / m)^-k, which never reverses or grows the slip.
// Tolerances: the solve's 1e-9 m/s (SimOptions::solver_tolerance) per step.
#include "sim/normal_lcp_stepper.hpp"
#include "sim/scene_runner.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

namespace pegsim {
namespace {

// The box of SlidingBoxDecaysExponentially, its viscosity and law given.
Scene sliding_box(double mu_v, const char* integration, double v0 = 2.0) {
  return load_scene_string(
      "options: {dimension: 3, h: 0.001, eps: 0.01, model: standard, stepper: viscous, viscous_friction: " +
      std::to_string(mu_v) + ", viscous_integration: " + integration +
      ", solver: ppm}\n"
      "bodies:\n"
      "  - {name: ground, shape: {half_space: {normal: [0, 0, 1], offset: 0}}, static: true}\n"
      "  - {name: box, shape: {box: [0.4, 0.4, 0.2]}, mass: 1, position: [0, 0, 0.1], velocity: [" +
      std::to_string(v0) + ", 0, 0]}\n");
}

TEST(Viscous, SlidingBoxDecaysExponentially) {
  const Scene s = load_scene_string(
      "options: {dimension: 3, h: 0.001, eps: 0.01, model: standard, stepper: viscous, viscous_friction: 0.5,"
      " solver: ppm}\n"
      "bodies:\n"
      "  - {name: ground, shape: {half_space: {normal: [0, 0, 1], offset: 0}}, static: true}\n"
      "  - {name: box, shape: {box: [0.4, 0.4, 0.2]}, mass: 1, position: [0, 0, 0.1], velocity: [2, 0, 0]}\n");
  World w(s.model, s.state);
  const double h = 0.001, m = 1.0, c = 4 * 0.5, v0 = 2.0;
  const double x = h * c / m;
  for (int k = 1; k <= 1000; ++k) {
    const double v_before = w.state().bodies[1].linear_velocity.x();
    const StepReport& r = w.step();
    ASSERT_EQ(r.solver_failures, 0);
    ASSERT_EQ(r.problem_size, 4);  // one variable per corner
    // each corner's tangential impulse is exactly -h mu_v v_t (002 eq. (15) over the step)
    for (const ContactImpulse& imp : r.impulses) EXPECT_NEAR(imp.friction.x(), -h * 0.5 * v_before, 1e-14);
    const double v = w.state().bodies[1].linear_velocity.x();
    // the explicit step's law, to the solve's tolerance (1e-9 m/s)
    ASSERT_NEAR(v, v0 * std::pow(1.0 - x, k), 1e-9) << k;
    // the analytic decay within the discretisation error: (1 - x)^k = exp(-k x) exp(-k x^2 / 2 - ...),
    // a relative error below k x^2
    ASSERT_NEAR(v, v0 * std::exp(-c * k * h / m), v0 * k * x * x) << k;
    EXPECT_NEAR(w.state().bodies[1].pose.position.z(), 0.1, 1e-9);  // no sinking, no lift
    EXPECT_LE(w.state().bodies[1].angular_velocity.norm(), 1e-9);   // the corners' normal impulses balance the torque
  }
}

TEST(Viscous, ImplicitSlidingBoxDecaysGeometrically) {
  const Scene s = sliding_box(0.5, "implicit");
  World w(s.model, s.state);
  const double h = 0.001, m = 1.0, c = 4 * 0.5, v0 = 2.0;
  const double x = h * c / m;
  for (int k = 1; k <= 1000; ++k) {
    const StepReport& r = w.step();
    ASSERT_EQ(r.solver_failures, 0);
    ASSERT_EQ(r.viscous_overshoots, 0);
    const double v = w.state().bodies[1].linear_velocity.x();
    // each corner's tangential impulse is -h mu_v v+, at the velocity after the step
    for (const ContactImpulse& imp : r.impulses) EXPECT_NEAR(imp.friction.x(), -h * 0.5 * v, 1e-14);
    ASSERT_NEAR(v, v0 * std::pow(1.0 + x, -k), 1e-9) << k;
    // (1 + x)^-k = exp(-k x) exp(k x^2 / 2 - ...): the analytic decay within k x^2, as the explicit law
    ASSERT_NEAR(v, v0 * std::exp(-c * k * h / m), v0 * k * x * x) << k;
    EXPECT_NEAR(w.state().bodies[1].pose.position.z(), 0.1, 1e-9);
    EXPECT_LE(w.state().bodies[1].angular_velocity.norm(), 1e-9);
  }
}

// mu_v = 3000 N s/m at h = 0.001 on the 1 kg box: each corner's h mu_v w is
// at least h mu_v / m = 3 > 2. Under the explicit law the slip reverses and
// grows every step (the corners' impulses rock the box as well): counted,
// four contacts the first step, and within 50 steps the box slides back and
// forth at several times its start speed. The semi-implicit law's factor
// 1 / (1 + 4 h mu_v / m) = 1/13 stops it without ever adding energy. Slow
// (1 cm/s) so that the stop hardly tips the box.
TEST(Viscous, StiffViscosityIsUnstableExplicitlyAndCountedStableImplicitly) {
  {
    const Scene s = sliding_box(3000, "explicit", 0.01);
    World w(s.model, s.state);
    EXPECT_EQ(w.step().viscous_overshoots, 4);
    double fastest = 0.0;
    long overshoots = 4;
    for (int k = 1; k < 50; ++k) {
      overshoots += w.step().viscous_overshoots;
      fastest = std::max(fastest, std::abs(w.state().bodies[1].linear_velocity.x()));
    }
    EXPECT_GT(fastest, 3 * 0.01);  // 0.05 m/s by step 50
    EXPECT_GT(overshoots, 50);
  }
  const Scene s = sliding_box(3000, "implicit", 0.01);
  World w(s.model, s.state);
  double e = mechanical_energy(w.model(), w.state());
  for (int k = 0; k < 200; ++k) {
    const StepReport& r = w.step();
    ASSERT_EQ(r.solver_failures, 0);
    ASSERT_EQ(r.viscous_overshoots, 0);
    if (k == 0) {
      EXPECT_NEAR(w.state().bodies[1].linear_velocity.x(), 0.01 / 13, 1e-9);
    }
    const double e_next = mechanical_energy(w.model(), w.state());
    ASSERT_LE(e_next, e + 1e-9) << k;  // damping removes energy; 1e-9 J: the solve's tolerance
    e = e_next;
    ASSERT_GE(w.state().bodies[1].linear_velocity.x(), -1e-9) << k;  // the slip never reverses
  }
  EXPECT_LT(std::abs(w.state().bodies[1].linear_velocity.x()), 1e-9);
}

// The no-slip limit: on no-slip-incline's 60-degree slope (steeper than any
// friction angle), the semi-implicit viscous box creeps down at the speed
// where the four corners' damping carries the weight's slope component,
// v = m g sin 60 / (4 mu_v) (the fixed point of m (v+ - v) = h (m g sin 60 -
// 4 mu_v v+)), so its drift falls as 1 / mu_v towards no-slip's none. The
// explicit law at these mu_v (h mu_v / m = 50 and 5000) throws it off.
TEST(Viscous, ImplicitCreepOnASteepInclineFallsAsOneOverMuV) {
  for (const double mu_v : {1e4, 1e6}) {
    Scene s = load_scene_file(test::scene_path("no-slip-incline"));
    s.model.options.stepper = "viscous";
    s.model.options.drumwright_shell.viscous = mu_v;
    s.model.options.drumwright_shell.viscous_implicit = true;
    World w(s.model, s.state);
    const Vec3 p0 = w.state().bodies[1].pose.position;
    const double h = s.model.options.h, g = 9.81, creep = g * std::sin(M_PI / 3) / (4 * mu_v);
    const int steps = 400;
    for (int k = 0; k < steps; ++k) {
      const StepReport& r = w.step();
      ASSERT_EQ(r.solver_failures, 0);
      ASSERT_EQ(r.contacts.size(), 4u);  // never tips or lifts a corner
    }
    const Vec3 downhill(std::cos(M_PI / 3), 0.0, -std::sin(M_PI / 3));
    const double moved = (w.state().bodies[1].pose.position - p0).dot(downhill);
    // the velocity reaches the fixed point within a step (factor 1 / (1 + 4 h mu_v / m) <= 1/201);
    // 1e-3 relative: that first step and the gravity constant's digits; 400 h 1e-9 m: the solves
    EXPECT_NEAR(moved, creep * steps * h, 1e-3 * creep * steps * h + steps * h * 1e-9) << mu_v;
    EXPECT_LE(w.state().bodies[1].angular_velocity.norm(), 1e-9);
  }
}

}  // namespace
}  // namespace pegsim
