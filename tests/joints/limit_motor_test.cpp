// Joint limits, motors, Coulomb friction and damping (joints/joint_problem.hpp)
// against closed forms: scenes/hinge-limit.yaml and scenes/joint-motor.yaml.
#include "common/test_paths.hpp"

#include "io/scene.hpp"
#include "joints/controllers.hpp"
#include "joints/joint_frames.hpp"
#include "sim/world.hpp"
#include "solvers/lcp.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <numbers>

namespace pegsim {
namespace {

Scene load(const std::string& name) { return load_scene_file(std::string(PEGSIM_SCENES_DIR) + "/" + name + ".yaml"); }

// The bar falls to its upper limit and stops there: the angle never passes
// the limit (the limit row's linearized angle theta + h thetadot <= upper is
// an upper bound of the quaternion update's angle, 2 atan(h w / 2) < h w, so
// only round-off may pass it), and it comes to rest on it.
TEST(JointLimit, StopsTheBarAtTheLimitWithoutPassingIt) {
  Scene s = load("hinge-limit");
  World world(s.model, s.state);
  const double upper = s.model.joints[0].limit.upper;
  double highest = -1.0;
  for (int k = 0; k < 400; ++k) {
    const StepReport& r = world.step();
    ASSERT_EQ(r.solver_failures, 0);
    highest = std::max(highest, joint_position(world.model(), world.state(), 0));
    ASSERT_LE(joint_position(world.model(), world.state(), 0), upper + 1e-9) << "step " << k;
  }
  EXPECT_GT(highest, upper - 1e-6);  // it got there
  // at rest on the limit after 2 s (the limit row is inelastic, eq. 2.27)
  EXPECT_NEAR(joint_position(world.model(), world.state(), 0), upper, 1e-6);
  EXPECT_LT(std::abs(joint_velocity(world.model(), world.state(), 0)), 1e-6);
}

// The solvers that take a motor's and a joint friction's bounded rows (p+,
// p-, sigma: joints/joint_problem.hpp): the scene's own (path), lemke through
// its Free-row elimination, and the sweeping ones through their bounded
// blocks (pgs.hpp, find_contacts). Each answers the closed forms below.
const char* const kBoundedRowSolvers[] = {"", "lemke", "pgs", "psor", "projected-jacobi"};

// The motor spins the plate up with the bounded torque, tau_max / I_z per
// second, then holds the target rate. Per step, I_z |dw| / h is the motor's
// torque: never above the bound (to the solver's tolerance, 1e-9 relative).
TEST(JointMotor, ReachesItsVelocityWithTheTorqueNeverAboveTheBound) {
  for (const char* solver : kBoundedRowSolvers) {
  SCOPED_TRACE(std::string("solver ") + (*solver ? solver : "(the scene's)"));
  Scene s = load("joint-motor");
  if (*solver) s.model.options.solver = solver;
  World world(s.model, s.state);
  const double h = s.model.options.h, tau = s.model.joints[0].motor.max_force;
  const double target = s.model.joints[0].motor.velocity;
  const double iz = s.model.bodies[0].inertia(2, 2);
  const double t_reach = target * iz / tau;
  double w = 0.0;
  for (int k = 0; k < 200; ++k) {
    ASSERT_EQ(world.step().solver_failures, 0) << "step " << k;
    const double next = joint_velocity(world.model(), world.state(), 0);
    const double torque = iz * (next - w) / h;
    EXPECT_LE(std::abs(torque), tau * (1.0 + 1e-9)) << "step " << k;
    // while short of the target, the motor gives all it has
    if (world.state().time < t_reach - h) {
      EXPECT_NEAR(torque, tau, 1e-9 * tau) << "step " << k;
    }
    w = next;
  }
  EXPECT_NEAR(w, target, 1e-9 * target);
  }
}

// The sweeping solvers find a motor's bounded block (p+, p-, sigma) in the
// structure's C and in a dense A alike: on the first step from rest the motor
// gives all it has, |p+ - p-| = F h, and both engines agree on z.
TEST(JointMotor, PgsFindsTheBoundedBlockInTheStructureAndInADenseMatrix) {
  Scene s = load("joint-motor");
  s.model.options.solver = "pgs";
  World world(s.model, s.state);
  ASSERT_EQ(world.step().solver_failures, 0);
  LcpProblem structured = world.last_problems().at(0).lcp;
  if (!structured.has_matrix()) assemble_matrix(structured);
  LcpProblem dense = structured;
  dense.structure = LcpStructure{};
  // the block: the row without a Jacobian (sigma) and the two rows its column couples
  int sigma = -1;
  for (int i = 0; i < structured.size(); ++i)
    if (structured.structure.rows[i].body_a == kNoBody && structured.structure.rows[i].body_b == kNoBody) sigma = i;
  ASSERT_GE(sigma, 0);
  std::vector<int> members;
  for (const LcpStructure::Entry& e : structured.structure.coupling)
    if (e.col == sigma) members.push_back(e.row);
  ASSERT_EQ(members.size(), 2u);
  const double bound = s.model.joints[0].motor.max_force * s.model.options.h;
  SolverOptions tight;
  tight.tolerance = 1e-12;
  VecX z_structured = VecX::Zero(structured.size()), z_dense = VecX::Zero(dense.size());
  const SolverResult a = make_solver("pgs", tight)->solve(structured, z_structured);
  const SolverResult b = make_solver("pgs", tight)->solve(dense, z_dense);
  ASSERT_TRUE(a.ok()) << a.message;
  ASSERT_TRUE(b.ok()) << b.message;
  for (const VecX* z : {&z_structured, &z_dense})
    EXPECT_NEAR(std::abs((*z)(members[0]) - (*z)(members[1])), bound, 1e-9 * bound);
  EXPECT_LT((z_structured - z_dense).cwiseAbs().maxCoeff(), 1e-9);  // impulses of 1e-3 N s, residuals 1e-12
}

// An angle joint's coordinate is unwrapped (State::joint_angles): the motor
// scene's plate, spun at 2 rad/s for 5 s, turns 1.6 times, and its angle
// grows by 2 atan(h w / 2) every step (the normalized first-order quaternion
// update's exact turn about the fixed axis: the sum agrees to rounding),
// never jumping by 2 pi.
TEST(JointAngle, CountsTheTurnsOfASpinningPlate) {
  Scene s = load("joint-motor");
  World world(s.model, s.state);
  const double h = s.model.options.h;
  double q = joint_position(world.model(), world.state(), 0), turned = 0.0;
  EXPECT_EQ(q, 0.0);
  for (int k = 0; k < 1000; ++k) {
    ASSERT_EQ(world.step().solver_failures, 0);
    const double next = joint_position(world.model(), world.state(), 0);
    turned += 2.0 * std::atan(0.5 * h * joint_velocity(world.model(), world.state(), 0));
    ASSERT_LT(std::abs(next - q), 0.02) << "step " << k;  // 2 rad/s x 5 ms, no 2 pi jump
    q = next;
  }
  EXPECT_GT(q, 2.0 * std::numbers::pi);
  EXPECT_NEAR(q, turned, 1e-9);
}

// Limits beyond pi: the motor drives the plate past pi into an upper limit
// of 4 rad, where it stops (the limit row reads the unwrapped angle; wrapped,
// the angle would jump to -2.28 at pi and the limit row would pull it back).
TEST(JointLimit, HoldsALimitBeyondPi) {
  Scene s = load("joint-motor");
  s.model.joints[0].limit.enabled = true;
  s.model.joints[0].limit.lower = -0.5;
  s.model.joints[0].limit.upper = 4.0;
  World world(s.model, s.state);
  double highest = 0.0;
  for (int k = 0; k < 600; ++k) {
    ASSERT_EQ(world.step().solver_failures, 0) << "step " << k;
    const double q = joint_position(world.model(), world.state(), 0);
    highest = std::max(highest, q);
    ASSERT_LE(q, 4.0 + 1e-9) << "step " << k;
  }
  EXPECT_GT(highest, 4.0 - 1e-6);
  EXPECT_NEAR(joint_position(world.model(), world.state(), 0), 4.0, 1e-6);  // held there against the motor
}

// A limited joint starts on the branch of its limits: the plate turned by
// 3.5 rad about the hinge before the world is built measures -2.78 (in
// (-pi, pi]), but with limits [3, 4] its angle is 3.5, and it stays at rest
// (read as -2.78, the limit rows would throw it 5.8 rad in a step).
TEST(JointAngle, ALimitedJointStartsOnTheBranchOfItsLimits) {
  Scene s = load("joint-motor");
  s.model.joints[0].motor.enabled = false;
  s.model.joints[0].limit.enabled = true;
  s.model.joints[0].limit.lower = 3.0;
  s.model.joints[0].limit.upper = 4.0;
  s.model.options.gravity = Vec3::Zero();
  s.state.bodies[0].pose.orientation = Quat(Eigen::AngleAxisd(3.5, Vec3::UnitZ())) * s.state.bodies[0].pose.orientation;
  World world(s.model, s.state);
  EXPECT_NEAR(joint_position(world.model(), world.state(), 0), 3.5, 1e-12);
  for (int k = 0; k < 100; ++k) ASSERT_EQ(world.step().solver_failures, 0);
  EXPECT_NEAR(joint_position(world.model(), world.state(), 0), 3.5, 1e-9);
  EXPECT_LT(world.state().bodies[0].angular_velocity.norm(), 1e-9);
}

// Coulomb joint friction: the horizontal bar's gravity torque m g L / 2 about
// the hinge is held when the friction bound exceeds it, and otherwise the bar
// starts to turn with (m g L / 2 - F) / I_pivot (the first step's rate, exact
// for a start from rest: the step solves the pivot dynamics).
TEST(JointFriction, HoldsBelowTheBoundAndSlipsWithTheBoundAbove) {
  for (const char* solver : kBoundedRowSolvers)
  for (double friction : {3.0, 1.0}) {
    SCOPED_TRACE(std::string("solver ") + (*solver ? solver : "(the scene's)") + ", friction " + std::to_string(friction));
    Scene s = load("hinge-limit");
    if (*solver) s.model.options.solver = solver;
    s.model.joints[0].limit.enabled = false;
    s.model.joints[0].friction = friction;
    const BodyModel& bar = s.model.bodies[0];
    const double half = 0.25, g = 9.81, h = s.model.options.h;
    const double gravity_torque = bar.mass * g * half;
    const double pivot_inertia = bar.inertia(1, 1) + bar.mass * half * half;
    World world(s.model, s.state);
    ASSERT_EQ(world.step().solver_failures, 0);
    const double w1 = joint_velocity(world.model(), world.state(), 0);
    if (friction > gravity_torque) {
      EXPECT_NEAR(w1, 0.0, 1e-9);
      for (int k = 0; k < 200; ++k) ASSERT_EQ(world.step().solver_failures, 0) << "step " << k;
      EXPECT_NEAR(joint_position(world.model(), world.state(), 0), 0.0, 1e-8);
    } else {
      EXPECT_NEAR(w1, h * (gravity_torque - friction) / pivot_inertia, 1e-9);
    }
  }
}

// Implicit damping: w_{n+1} (I + c h) = I w_n, so w_n = w_0 / (1 + c h / I)^n
// exactly, for any c h / I (no step-size limit, unlike an explicit torque).
TEST(JointDamping, DecaysGeometricallyAndUnconditionally) {
  for (double c : {0.05, 50.0}) {
    Scene s = load("joint-motor");
    s.model.joints[0].motor.enabled = false;
    s.model.joints[0].damping = c;
    s.state.bodies[0].angular_velocity = Vec3(0, 0, 3.0);
    const double iz = s.model.bodies[0].inertia(2, 2), h = s.model.options.h;
    World world(s.model, s.state);
    for (int k = 0; k < 100; ++k) world.step();
    const double expected = 3.0 / std::pow(1.0 + c * h / iz, 100);
    EXPECT_NEAR(joint_velocity(world.model(), world.state(), 0), expected, 1e-9 * 3.0) << "c = " << c;
  }
}

// A PD controller on the motor scene's hinge (motor off) drives the angle to
// a constant target; its torque limit bounds the spin-up like a motor's.
TEST(PdController, DrivesTheAngleToItsTargetWithinTheTorqueLimit) {
  Scene s = load("joint-motor");
  s.model.joints[0].motor.enabled = false;
  PdControllerSpec pd;
  pd.joint = 0;
  pd.kp = 2.0;
  pd.kd = 0.5;
  pd.target.value = 1.0;
  pd.torque_limit = 0.3;
  s.model.controllers.push_back(pd);
  const double iz = s.model.bodies[0].inertia(2, 2), h = s.model.options.h;
  World world(s.model, s.state);
  double w = 0.0;
  for (int k = 0; k < 2000; ++k) {
    world.step();
    const double next = joint_velocity(world.model(), world.state(), 0);
    EXPECT_LE(std::abs(iz * (next - w) / h), 0.3 * (1.0 + 1e-9));
    w = next;
  }
  EXPECT_NEAR(joint_position(world.model(), world.state(), 0), 1.0, 1e-6);
}

}  // namespace
}  // namespace pegsim

namespace pegsim {
namespace {

// A C++ JointController (World::add_controller) sees the state at each step's
// start: holding the horizontal bar with the torque m g L / 2 about the hinge
// keeps it still (the torque is exactly gravity's moment about the pivot).
class HoldHorizontal final : public JointController {
 public:
  void before_step(const Model& model, State& state) override {
    ++calls;
    seen_step = state.step;
    apply_joint_effort(model, 0, -model.bodies[0].mass * 9.81 * 0.25, state);
  }
  int calls = 0;
  long seen_step = -1;
};

TEST(JointController, RunsBeforeEachStepOnTheStateAtItsStart) {
  Scene s = load("hinge-limit");
  World world(s.model, s.state);
  HoldHorizontal hold;
  world.add_controller(&hold);
  for (int k = 0; k < 300; ++k) {
    world.step();
    EXPECT_EQ(hold.seen_step, k);  // the state before step k
  }
  EXPECT_EQ(hold.calls, 300);
  EXPECT_LT(std::abs(joint_position(world.model(), world.state(), 0)), 1e-9);
  EXPECT_LT(std::abs(joint_velocity(world.model(), world.state(), 0)), 1e-9);
}

}  // namespace
}  // namespace pegsim

namespace pegsim {
namespace {

// A box held by a fixed joint to the world, anchored off its centre (guide
// 1.8 #5): it does not move (drift <= 1e-9 m over 1000 steps: the rows are
// exact gradients and psi_b / h pulls back whatever a step's residual left),
// and the joint's reaction on it balances gravity, m g up and gravity's moment
// about the anchor, to 1e-9 relative.
TEST(JointReaction, FixedJointHoldsABoxAgainstGravity) {
  Scene s = load("joint-motor");
  s.model.joints.clear();
  JointSpec spec;
  spec.kind = JointKind::Fixed;
  spec.body_a = kWorldBody;
  spec.body_b = 0;
  const Vec3 u = s.state.bodies[0].pose.position;
  spec.anchor = u + Vec3(0.1, 0.0, 0.05);
  s.model.joints.push_back(make_joint(spec, s.model, s.state));
  const double m = s.model.bodies[0].mass, g = 9.81;
  World world(s.model, s.state);
  for (int k = 0; k < 1000; ++k) {
    const StepReport& r = world.step();
    ASSERT_EQ(r.joint_wrenches.size(), 1u);
    const Vec3 force = r.joint_wrenches[0].head<3>(), torque = r.joint_wrenches[0].tail<3>();
    EXPECT_LT((force - Vec3(0, 0, m * g)).norm(), 1e-9 * m * g) << "step " << k;
    // gravity's moment about the anchor is (u - P) x (0, 0, -m g) = (0, -0.1 m g, 0): the joint balances it
    EXPECT_LT((torque - Vec3(0, 0.1 * m * g, 0)).norm(), 1e-9 * m * g) << "step " << k;
  }
  EXPECT_LT((world.state().bodies[0].pose.position - u).norm(), 1e-9);
}

}  // namespace
}  // namespace pegsim
