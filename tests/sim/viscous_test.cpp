// The viscous stepper (reference 002, section IV, in the guide's time-stepping
// form V-imp; dynamics/normal_lcp.hpp): the tangential impulse at a touching
// contact is -h mu_v v_t, so a box sliding on a plane on its four corners
// obeys m dv/dt = -4 mu_v v, v(t) = v0 exp(-4 mu_v t / m), stepped explicitly:
// v_k = v0 (1 - h c / m)^k with c = 4 mu_v.
#include "sim/normal_lcp_stepper.hpp"
#include "sim/scene_runner.hpp"

#include <gtest/gtest.h>

#include <cmath>

namespace pegsim {
namespace {

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

}  // namespace
}  // namespace pegsim
