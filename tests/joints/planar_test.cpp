// Planar joints (scenes/pendulum-2d.yaml): a revolute pendulum and a slider on
// an inclined rail, each with closed-form checks.
#include "common/test_paths.hpp"

#include "io/scene.hpp"
#include "joints/controllers.hpp"
#include "sim/world.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <numbers>

namespace pegsim {
namespace {

TEST(PlanarJoints, PendulumAndInclinedSlider) {
  Scene s = load_scene_file(std::string(PEGSIM_SCENES_DIR) + "/pendulum-2d.yaml");
  World world(s.model, s.state);
  const double h = s.model.options.h, g = 9.81;
  const double e0 = mechanical_energy(world.model(), world.state());
  for (int k = 1; k <= 1500; ++k) {
    const StepReport& r = world.step();
    ASSERT_EQ(r.solver_failures, 0);
    // Algorithm 1 holds both joints within its tolerance
    EXPECT_LE(r.joint_position_error, s.model.options.joints.eps_p);
    EXPECT_LE(r.joint_velocity_error, s.model.options.joints.eps_v);
    // the frictionless slider: a constant acceleration g sin(30 deg) down its
    // rail, which the semi-implicit Euler step integrates exactly in the rate
    // (the prismatic rows are exact gradients: no error to correct)
    EXPECT_NEAR(joint_velocity(world.model(), world.state(), 1), -g * 0.5 * h * k, 1e-9 * (1.0 + g * h * k));
    EXPECT_NEAR(planar_angle(world.state().bodies[1].pose), 0.0, 1e-12);  // its angle is locked
    // energy never above its initial value: the step's constrained velocity
    // update and Algorithm 1's velocity loop are M-orthogonal projections,
    // which only remove kinetic energy, and here their loss outweighs
    // semi-implicit Euler's O(omega h) energy oscillation
    EXPECT_LE(mechanical_energy(world.model(), world.state()), e0 + 1e-9) << "step " << k;
  }
}

}  // namespace
}  // namespace pegsim
