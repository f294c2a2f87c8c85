// The thesis's rolling cart as printed (scenes/rolling-cart.yaml, thesis
// 6.1.2): joints and PEG contacts in one island, four wheels on revolute
// joints landing on a 5.71 degree slope.
#include "io/scene.hpp"
#include "joints/controllers.hpp"
#include "sim/world.hpp"

#include <gtest/gtest.h>

#include <cmath>

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

}  // namespace
}  // namespace pegsim
