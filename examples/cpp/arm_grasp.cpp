// The Drumwright-Shell grasp (scenes/arm7-grasp-ball.yaml): the 7-DOF arm with
// its two-jaw gripper holds a ball while the shoulder's yaw and pitch follow
// sin(t)/4 and sin(2t)/4, driven as in the paper by inverse dynamics: the scene's
// PD controllers on the arm's seven joints are dropped and a
// ComputedTorqueController (sim/computed_torque.hpp, tau = M (qdd_d + kp e +
// kd e') + C) drives all nine joints (the fingers' desired motion: stay put; the
// scene's finger PD adds the squeeze).
// Checks: both jaws touch the ball every step, it drifts less than 1 mm in the
// pad, and the shoulder tracks within 2e-3 rad (the ball is not in the arm's
// model: examples/python/arm_grasp.py gives the figures).
// Usage: example_arm_grasp [SCENES_FOLDER]   (default: scenes, from the repository root)
#include "example.hpp"

#include "io/scene.hpp"
#include "sim/computed_torque.hpp"
#include "sim/world.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

int main(int argc, char** argv) {
  using namespace example;
  const std::string folder = argc > 1 ? argv[1] : "scenes";
  Scene scene = load_scene_file(folder + "/arm7-grasp-ball.yaml");
  const articulated::ArticulatedTree& arm = scene.model.trees.at(0).tree;
  std::erase_if(scene.model.controllers, [&arm](const PdControllerSpec& c) {
    return c.tree == 0 && arm.link(c.joint).joint_name.find("finger") == std::string::npos;
  });
  World world(std::move(scene.model), std::move(scene.state));
  auto body = [&world](const std::string& name) {
    const auto& bodies = world.model().bodies;
    return static_cast<std::uint32_t>(
        std::find_if(bodies.begin(), bodies.end(), [&](const BodyModel& b) { return b.name == name; }) - bodies.begin());
  };
  const std::uint32_t ball = body("ball"), pad = body("arm/left_pad");
  const VecX fingers = world.state().trees[0].q.tail(2);
  auto desired = [fingers](double t) {
    DesiredMotion d;
    d.q = VecX::Zero(9);
    d.qd = VecX::Zero(9);
    d.qdd = VecX::Zero(9);
    set_sinusoid(d, 0, 0, 0.25, 1.0, t);
    set_sinusoid(d, 1, 1, 0.25, 2.0, t);
    d.q.tail(2) = fingers;
    return d;
  };
  ComputedTorqueController controller(world.model(), 0, 100.0, 20.0, desired);
  world.add_controller(&controller);
  auto ball_in_pad = [&] { return world.state().bodies[pad].pose.to_body(world.state().bodies[ball].pose.position); };
  const Vec3 start = ball_in_pad();
  double drift = 0.0, tracking = 0.0;
  int let_go = 0;
  const long steps = std::lround(run_time(10.0, 1.0) / world.model().options.h);
  for (long k = 0; k < steps; ++k) {
    let_go += world.step().contacts_found != 2;
    drift = std::max(drift, (ball_in_pad() - start).norm());
    const DesiredMotion d = desired(world.state().time);
    tracking = std::max(tracking, (world.state().trees[0].q.head(2) - d.q.head(2)).cwiseAbs().maxCoeff());
  }
  std::printf("%s and %s: %ld steps, ball drift in the pad %.3e m, shoulder tracking error %.2e rad, "
              "steps without both jaws touching %d\n",
              world.model().bodies[ball].name.c_str(), world.model().bodies[pad].name.c_str(), steps, drift, tracking,
              let_go);
  const bool ok = let_go == 0 && drift < 1e-3 && tracking < 2e-3;
  std::printf("%s\n", ok ? "the grasp held" : "THE GRASP FAILED");
  return ok ? 0 : 1;
}
