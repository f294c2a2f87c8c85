// A closed loop: the four-bar of scenes/four-bar.yaml has 20 joint rows of
// rank 17 (3 redundant; guide 1.8 #6). Every step solves, Algorithm 1 holds
// the errors (its Delassus matrix is singular: joint_correction.cpp's ridge),
// the parallelogram keeps its shape, and energy never rises.
#include "common/test_paths.hpp"

#include "io/scene.hpp"
#include "sim/world.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

namespace pegsim {
namespace {

TEST(FourBar, RedundantLoopSolvesEveryStepWithBoundedError) {
  Scene s = load_scene_file(std::string(PEGSIM_SCENES_DIR) + "/four-bar.yaml");
  World world(s.model, s.state);
  const double e0 = mechanical_energy(world.model(), world.state());
  double farthest = 0.0;
  for (int k = 0; k < 600; ++k) {
    const StepReport& r = world.step();
    ASSERT_EQ(r.solver_failures, 0) << "step " << k;
    EXPECT_LE(r.joint_position_error, s.model.options.joints.eps_p) << "step " << k;
    EXPECT_LE(r.joint_velocity_error, s.model.options.joints.eps_v) << "step " << k;
    // projections only remove kinetic energy (see planar_test.cpp)
    EXPECT_LE(mechanical_energy(world.model(), world.state()), e0 + 1e-9) << "step " << k;
    farthest = std::max(farthest, (world.state().bodies[1].pose.position - s.state.bodies[1].pose.position).norm());
  }
  // a parallelogram: the coupler stays parallel to the ground link (x), its
  // orientation a rotation about y only, within the joint tolerance
  const Quat& q = world.state().bodies[1].pose.orientation;
  EXPECT_LT((q.toRotationMatrix().col(0) - Vec3::UnitX()).norm(), 1e-4);
  // and the linkage swung (the coupler's centre moves on a 0.3 m circle)
  EXPECT_GT(farthest, 0.1);
}

}  // namespace
}  // namespace pegsim
