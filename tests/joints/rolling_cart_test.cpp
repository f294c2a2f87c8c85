// The thesis's rolling cart (thesis 6.1.2): as printed (scenes/rolling-cart.yaml,
// 20-sided wheels landing on a 5.71 degree slope) and its fine-wheeled variant
// with true cylinders (scenes/rolling-cart-cylinders.yaml): joints and PEG
// contacts in one island.
#include "common/test_paths.hpp"

#include "io/scene.hpp"
#include "joints/controllers.hpp"
#include "sim/world.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <vector>

namespace pegsim {
namespace {

TEST(RollingCart, LandsOnItsWheelsAndRollsDownTheSlope) {
  Scene s = load_scene_file(std::string(PEGSIM_SCENES_DIR) + "/rolling-cart.yaml");
  World world(s.model, s.state);
  world.set_measure_penetration(true);
  const double e0 = mechanical_energy(world.model(), world.state());
  while (world.state().time < 2.0 - 1e-9) {
    const StepReport& r = world.step();
    ASSERT_EQ(r.solver_failures, 0) << "t = " << r.time;
    EXPECT_LT(r.max_penetration, 1e-6) << "t = " << r.time;  // eps: auto (eq. 5.1): no overlap beyond round-off
    for (const Contact& c : r.contacts) {  // only the wheels touch the ground (body 0); the chassis is body 1
      const bool chassis_on_ground = (c.body_a == 0 && c.body_b == 1) || (c.body_a == 1 && c.body_b == 0);
      EXPECT_FALSE(chassis_on_ground) << "t = " << r.time;
    }
    // stabilization alone: the error stays O(omega^2 d h^2 + landing), bounded
    EXPECT_LT(r.joint_position_error, 1e-3) << "t = " << r.time;
    // inelastic contact and joint projections: energy never rises
    EXPECT_LE(mechanical_energy(world.model(), world.state()), e0 + 1e-9) << "t = " << r.time;
  }
  const BodyState& chassis = world.state().bodies[1];
  EXPECT_LT(std::abs(chassis.pose.position.x()), 1e-3);  // no sideways drift (the scene is symmetric in x)
  EXPECT_GT(chassis.pose.position.y(), 0.3);              // it rolled downhill (see the scene's comment)
  // the wheels roll without slipping: |omega| r = |v| along the slope, within
  // 5% (a 20-gon's centre speed varies by 1 - cos(pi / 20) = 1.2% over a
  // roll, and the wheels do not all touch the same face phase)
  const double v = chassis.linear_velocity.norm();
  for (std::size_t j = 0; j < 4; ++j)
    EXPECT_NEAR(std::abs(joint_velocity(world.model(), world.state(), j)) * 0.25, v, 0.05 * v) << "wheel " << j;
}


// The fine-wheeled cart rolls at the rolling-without-slip acceleration.
// Derivation (energy): with the chassis and wheel centres moving at v down the
// slope and each wheel turning at omega = v / r (no slip at its contact line),
//   T = 1/2 m_tot v^2 + sum_wheels 1/2 I_w omega^2 = 1/2 (m_tot + sum I_w / r^2) v^2,
// where m_tot = m_chassis + sum m_wheel and I_w is a wheel's inertia about its
// axle. Gravity does work at the rate m_tot g sin(alpha) v, and the static
// friction at a non-slipping contact and the joint reactions (workless, the
// axles being frictionless) do none, so dT/dt = m_tot g sin(alpha) v gives
//   a = m_tot g sin(alpha) / (m_tot + sum I_w / r^2).
// Here m_tot = 5 kg and I_w = m r^2 / 2 read from the model (pegsim's solid
// cylinder), so a = 5 g sin(alpha) / 7 = 0.6972 m/s^2. mu = 1 is far above
// the tan(alpha) / 3 = 0.033 a solid wheel needs to roll, so there is no slip.
// Tolerance 2% (the bar): the wheels' rim contacts stick exactly
// (complementarity), so the only error is the integrator's O(h) one, far
// inside it (measured: 0.69724 m/s^2 from the momentum after 1 s, within 1e-6
// of the formula; the energy falls by 0.1% in that second).
TEST(RollingCart, CylinderWheelsRollAtTheRollingWithoutSlipAcceleration) {
  Scene s = load_scene_file(std::string(PEGSIM_SCENES_DIR) + "/rolling-cart-cylinders.yaml");
  const Model& model = s.model;
  const Vec3 n = Vec3(0.0, 0.1, 1.0).normalized();  // the ground's normal
  const double sin_alpha = n.y();
  const Vec3 down = Vec3(0.0, n.z(), -n.y());        // down the slope
  double m_tot = 0.0, inertia_over_r2 = 0.0;
  const double r = 0.25;
  for (std::size_t b = 1; b < model.bodies.size(); ++b) {
    m_tot += model.bodies[b].mass;
    if (b >= 2) inertia_over_r2 += model.bodies[b].inertia(2, 2) / (r * r);  // a cylinder's axis is its body z
  }
  const double g = -model.options.gravity.z();
  const double expected = m_tot * g * sin_alpha / (m_tot + inertia_over_r2);
  ASSERT_NEAR(expected, 0.6972, 1e-4);  // the scene is the one derived above

  World world(s.model, s.state);
  world.set_measure_penetration(true);
  // least-squares slope of the chassis's speed down the slope against t over 1 s
  double st = 0.0, sv = 0.0, stt = 0.0, stv = 0.0;
  int count = 0;
  while (world.state().time < 1.0 - 1e-9) {
    const StepReport& rep = world.step();
    ASSERT_EQ(rep.solver_failures, 0) << "t = " << rep.time;
    EXPECT_LT(rep.max_penetration, 1e-6) << "t = " << rep.time;
    const double t = world.state().time;
    const double v = world.state().bodies[1].linear_velocity.dot(down);
    st += t; sv += v; stt += t * t; stv += t * v;
    ++count;
  }
  const double a = (count * stv - st * sv) / (count * stt - st * st);
  EXPECT_NEAR(a, expected, 0.02 * expected) << "measured " << a << ", rolling without slip " << expected;
  // no slip: each wheel's |omega| r equals the cart's speed within 1% (a
  // cylinder's centre speed does not vary over a turn, unlike a polygon's)
  const double v = world.state().bodies[1].linear_velocity.norm();
  for (std::size_t j = 0; j < 4; ++j)
    EXPECT_NEAR(std::abs(joint_velocity(world.model(), world.state(), j)) * r, v, 0.01 * v) << "wheel " << j;
  EXPECT_LT(std::abs(world.state().bodies[1].pose.position.x()), 1e-6);  // symmetric in x: no sideways drift
}

}  // namespace
}  // namespace pegsim
