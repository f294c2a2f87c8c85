// The computed-torque controller (sim/computed_torque.hpp) on the shipped
// 7-DOF arm (data/robots/arm7.urdf): the shoulder yaw and pitch follow
// sin(t)/4 and sin(2t)/4, the other joints hold 0, under gravity.
//
// The bound: with the exact model the step gives v+ = v + h (qdd_d + kp e +
// kd e') per joint, a discretization of e'' + kd e' + kp e = 0 driven only by
// the step's own error: q+ = q + h v+ lags the exact flow by ~h/2 |qdd| per
// step, which the loop turns into an offset of order h |q_d'''| / kd... kp:
// with h = 1e-3, |q_d'''| <= 2 (8/4 for sin(2t)/4), kp = 100, kd = 20 the
// measured error is 9.6e-5 rad (it halves with h); the test allows 2e-4
// rad, and checks the feedforward matters: the same gains through
// M(q) without qdd_d and C (gravity held by the P term alone) are off by far more.
#include "common/test_paths.hpp"

#include "articulated/dynamics.hpp"
#include "io/urdf.hpp"
#include "sim/computed_torque.hpp"
#include "sim/tree_stepping.hpp"
#include "sim/world.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>

namespace pegsim {
namespace {

const std::string kArm7 = std::string(PEGSIM_SCENES_DIR) + "/../data/robots/arm7.urdf";

DesiredMotion desired(double t, int nv) {
  DesiredMotion d;
  d.q = VecX::Zero(nv);
  d.qd = VecX::Zero(nv);
  d.qdd = VecX::Zero(nv);
  set_sinusoid(d, 0, 0, 0.25, 1.0, t);
  set_sinusoid(d, 1, 1, 0.25, 2.0, t);
  return d;
}

double track(bool feedforward) {
  UrdfRobot robot = load_urdf_file(kArm7);
  EXPECT_EQ(robot.tree.nv(), 7);
  Model model;
  State state;
  model.add_material("default");
  model.options.h = 1e-3;
  const int nv = robot.tree.nv();
  const DesiredMotion start = desired(0.0, nv);
  add_tree(model, state, "arm", std::move(robot.tree), robot.shapes, start.q, start.qd, MaterialId{}, robot.collides);
  World world(std::move(model), std::move(state));
  const double kp = 100.0, kd = 20.0;
  ComputedTorqueController ct(world.model(), 0, kp, kd, [nv](double t) { return desired(t, nv); });
  // the comparison: the same gains through M(q), without the feedforward
  // qdd_d and the bias forces C (a plain PD is unstable here under explicit
  // steps: kd h / I of the flange's roll is 50)
  struct Pd final : JointController {
    double kp, kd;
    int nv;
    void before_step(const Model& m, State& s) override {
      const DesiredMotion d = desired(s.time, nv);
      const VecX a = kp * (d.q - s.trees[0].q) + kd * (d.qd - s.trees[0].v);
      s.trees[0].tau += articulated::mass_matrix(m.trees[0].tree, s.trees[0].q) * a;
    }
  } pd;
  pd.kp = kp;
  pd.kd = kd;
  pd.nv = nv;
  world.add_controller(feedforward ? static_cast<JointController*>(&ct) : &pd);
  double worst = 0.0;
  for (int k = 0; k < 5000; ++k) {
    world.step();
    const DesiredMotion d = desired(world.state().time, nv);
    worst = std::max(worst, (world.state().trees[0].q - d.q).cwiseAbs().maxCoeff());
  }
  return worst;
}

TEST(ComputedTorque, SevenDofArmTracksShoulderSines) {
  const double ct = track(true), pd = track(false);
  std::printf("7-DOF arm, 5 s at h = 1e-3: computed torque max tracking error %.3g rad, without feedforward %.3g rad\n", ct, pd);
  EXPECT_LT(ct, 2e-4);
  EXPECT_GT(pd, 100 * ct);
}

}  // namespace
}  // namespace pegsim
