// A box lifted by a parallel-jaw gripper and held still (scenes/grasp-hold.yaml,
// issue 12): under PEG the static friction at the finger contacts is exact
// complementarity (zero tangential velocity inside the cone, thesis eq. 2.21),
// so after settling the box does not creep in the fingers.
#include "common/test_paths.hpp"

#include "io/scene.hpp"
#include "sim/world.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

namespace pegsim {
namespace {

constexpr std::size_t kCube = 1, kFingerLeft = 3, kFingerRight = 4;

Scene grasp_hold() {
  Scene s = load_scene_file(std::string(PEGSIM_SCENES_DIR) + "/grasp-hold.yaml");
  EXPECT_EQ(s.model.bodies[kCube].name, "cube");
  EXPECT_EQ(s.model.bodies[kFingerLeft].name, "finger_left");
  EXPECT_EQ(s.model.bodies[kFingerRight].name, "finger_right");
  return s;
}

// the cube's centre in a finger's frame
Vec3 in_finger(const State& state, std::size_t finger) {
  return state.bodies[finger].pose.to_body(state.bodies[kCube].pose.position);
}

// Over [from, 2 s]: the largest distance the cube's centre moves in each
// finger's frame, the cube's final height, solver failures, deepest overlap.
struct Hold {
  double drift_left = 0.0, drift_right = 0.0, cube_height = 0.0;
  int solver_failures = 0;
  double max_penetration = 0.0;
};

Hold run_hold(Scene& s, double from) {
  World world(s.model, s.state);
  world.set_measure_penetration(true);
  Hold out;
  Vec3 left0 = Vec3::Zero(), right0 = Vec3::Zero();
  bool started = false;
  while (world.state().time < 2.0 - 1e-9) {
    const StepReport& r = world.step();
    out.solver_failures += r.solver_failures;
    out.max_penetration = std::max(out.max_penetration, r.max_penetration);
    if (world.state().time < from - 1e-9) continue;
    const Vec3 left = in_finger(world.state(), kFingerLeft), right = in_finger(world.state(), kFingerRight);
    if (!started) {
      left0 = left;
      right0 = right;
      started = true;
    }
    out.drift_left = std::max(out.drift_left, (left - left0).norm());
    out.drift_right = std::max(out.drift_right, (right - right0).norm());
  }
  out.cube_height = world.state().bodies[kCube].pose.position.z();
  return out;
}

// The jaws close at t = 0.05 s, the lift ramps from 0.4 s to 1 s and the PD
// (damping ratio kd / (2 sqrt(kp m)) = 0.88, time constant about 2 m / kd =
// 0.03 s) has settled to 1e-7 m/s by 1.5 s; the window [1.5, 2] s then checks
// the bar, drift below 1e-6 m. What PEG gives is round-off (5e-16 m
// measured): the bar is the issue's, not a tuned one.
TEST(GraspHold, LiftedBoxDoesNotCreepInTheFingers) {
  Scene s = grasp_hold();
  const Hold h = run_hold(s, 1.5);
  EXPECT_EQ(h.solver_failures, 0);
  EXPECT_LT(h.max_penetration, 1e-6);  // eps: auto (eq. 5.1): no overlap beyond round-off
  // lifted: the palm's target rose 0.1 m; it sags by m g / kp = 1.6 * 9.81 / 2000
  // = 7.8 mm, so the cube's centre is near 0.05 + 0.1 - 0.0078 = 0.142 m, clear
  // of the ground (its bottom 0.092 m up)
  EXPECT_GT(h.cube_height, 0.14);
  EXPECT_LT(h.drift_left, 1e-6);
  EXPECT_LT(h.drift_right, 1e-6);
}

// Stronger than the issue asks: the cube does not move in the fingers during
// the lift either (from t = 0.2 s, jaws closed, through the 0.4-1 s ramp and its
// accelerations): the friction needed, m (g + a) / 2 per finger, stays inside
// the cone, and sticking is exact (6.5e-14 m measured).
TEST(GraspHold, BoxDoesNotSlipInTheFingersDuringTheLift) {
  Scene s = grasp_hold();
  const Hold h = run_hold(s, 0.2);
  EXPECT_LT(h.drift_left, 1e-6);
  EXPECT_LT(h.drift_right, 1e-6);
}

// The check can fail: with mu = 0.04 the fingers carry at most 2 mu F = 0.8 N,
// less than the cube's weight (1.96 N): the cube stays on the ground while the
// fingers slide up along it, and the same measure from t = 0.2 s exceeds 1 mm.
TEST(GraspHold, TooLittleFrictionLetsTheBoxSlip) {
  Scene s = grasp_hold();
  s.model.set_friction(MaterialId{0}, MaterialId{0}, 0.04);
  const Hold h = run_hold(s, 0.2);
  EXPECT_GT(h.drift_left, 1e-3);
  EXPECT_GT(h.drift_right, 1e-3);
}

}  // namespace
}  // namespace pegsim
