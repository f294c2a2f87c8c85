// The viscous model at the acceleration level under RK4 (reference 002
// section IV, the guide's V-acc; sim/viscous_rk4_stepper.hpp): checks against
// closed forms where the model has one, and against an independent code path.
// Tolerances: each stage's LCP is solved to 1e-9 (SimOptions::
// solver_tolerance, m/s^2 here), which moves a velocity by at most h 1e-9 a
// step; the closed forms below are met to rounding otherwise.
#include "articulated/tree.hpp"
#include "sim/scene_runner.hpp"
#include "sim/tree_stepping.hpp"
#include "sim/viscous_rk4_stepper.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <stdexcept>
#include <string>

namespace pegsim {
namespace {

Scene sliding_box(const std::string& stepper) {
  return load_scene_string("options: {dimension: 3, h: 0.001, eps: 0.01, model: standard, stepper: " + stepper +
                           ", viscous_friction: 0.5, solver: ppm}\n"
                           "bodies:\n"
                           "  - {name: ground, shape: {half_space: {normal: [0, 0, 1], offset: 0}}, static: true}\n"
                           "  - {name: box, shape: {box: [0.4, 0.4, 0.2]}, mass: 1, position: [0, 0, 0.1], "
                           "velocity: [2, 0, 0]}\n");
}

// A box sliding on its four corners: m dv/dt = -4 mu_v v, so v(t) = v0
// exp(-c t / m) and x(t) = v0 m / c (1 - exp(-c t / m)), c = 4 mu_v. RK4 on
// this linear system multiplies (x, v) by its fourth-order Taylor matrix each
// step, so after k steps the error is k (h c / m)^5 / 120 relative: 3e-13 here
// (h c / m = 0.002, k = 1000), rounding. The impulse form V-imp (the viscous
// stepper) is first order: v0 (1 - h c / m)^k, off by k (h c / m)^2 / 2 = 2e-3
// relative. The normal forces hold the box flat (no lift, no sinking, no turn:
// they balance the friction's moment about the centre of mass).
TEST(ViscousRk4, SlidingBoxDecaysAtFourthOrder) {
  const Scene s = sliding_box("viscous-rk4");
  World w(s.model, s.state);
  const double m = 1.0, c = 4 * 0.5, v0 = 2.0;
  for (int k = 1; k <= 1000; ++k) {
    const StepReport& r = w.step();
    ASSERT_EQ(r.solver_failures, 0);
    const double t = w.state().time, decay = std::exp(-c * t / m);
    const BodyState& b = w.state().bodies[1];
    ASSERT_NEAR(b.linear_velocity.x(), v0 * decay, 1e-11) << k;
    ASSERT_NEAR(b.pose.position.x(), v0 * m / c * (1.0 - decay), 1e-11) << k;
    ASSERT_NEAR(b.pose.position.z(), 0.1, 1e-12) << k;
    ASSERT_LE(b.angular_velocity.norm(), 1e-11) << k;
    // the step's tangential impulse per corner is stage 1's viscous force over h, -h mu_v v at the step's start
    for (const ContactImpulse& imp : r.impulses) EXPECT_LT(imp.friction.x(), 0.0);
  }
  // the same box under V-imp: the first-order error the header names, 2e-3 relative after 1 s
  const Scene vimp = sliding_box("viscous");
  World u(vimp.model, vimp.state);
  for (int k = 0; k < 1000; ++k) u.step();
  const double exact = v0 * std::exp(-c * 1.0 / m);
  EXPECT_NEAR(u.state().bodies[1].linear_velocity.x() / exact - 1.0, -1000 * 0.002 * 0.002 / 2, 1e-4);
}

// A ball rolling without slip (v = 1 m/s, w = 10 rad/s, r = 0.1 m): its
// contact point does not slide, so no viscous force acts and it rolls on at
// constant speed with its centre at height r. The row's velocity product is
// what keeps it there: the material point of the ball at the contact
// accelerates towards the centre by |w|^2 r = 10 m/s^2, above gravity, while
// the gap (centre height - r) does not accelerate at all
// (sim/gap_acceleration.hpp takes the core point); read at the surface point
// the LCP would let the ball sink at 10 m/s^2 into the ground. Run twice: as a
// loose body, as a one-link tree with a floating base (the link's bias
// acceleration through the tree's kinematics) and as a wheel on a floating
// axle (below): the three code paths agree.
Scene rolling_ball_scene() {
  return load_scene_string(
      "options: {dimension: 3, h: 0.001, eps: 0.01, model: standard, stepper: viscous-rk4, viscous_friction: 5, "
      "solver: lemke}\n"
      "bodies:\n"
      "  - {name: ground, shape: {half_space: {normal: [0, 0, 1], offset: 0}}, static: true}\n");
}

// Tolerances: the loose ball's velocity is constant in the world frame, which
// the stages reproduce to rounding (1e-12). The tree's is a body-frame twist,
// which turns at w against the ball's frame (v' = -w x v): RK4 turns it by an
// angle off by (w h)^5 / 120 = 8e-13 rad a step, and the pose it integrates
// leaves the centre off its height by about 1e-12 m, which the next step's
// impacts take back at gap / h = 1e-9 m/s: 5e-9 in velocity and impulse (m = 1
// kg), 1e-9 m in position over the 1000 steps.
Vec3 expect_rolls_on(World& w, std::uint32_t ball, double tolerance, double mass = 1.0) {
  for (int k = 1; k <= 1000; ++k) {
    const StepReport& r = w.step();
    EXPECT_EQ(r.solver_failures, 0) << k << ": " << r.solver.message;
    EXPECT_EQ(r.contacts.size(), 1u);
    // no impact: the step's normal impulse is m g h (m: all that rides on the ball) from the stage-1 force alone
    if (!r.impulses.empty()) {
      EXPECT_NEAR(r.impulses[0].normal, mass * 9.81 * 0.001, 5.0 * tolerance) << k;
    }
    const BodyState& b = w.state().bodies[ball];
    EXPECT_NEAR(b.pose.position.z(), 0.1, tolerance) << k;
    EXPECT_NEAR((b.linear_velocity - Vec3(1, 0, 0)).norm(), 0.0, 5.0 * tolerance) << k;
    EXPECT_NEAR((b.angular_velocity - Vec3(0, 10, 0)).norm(), 0.0, 5.0 * tolerance) << k;
  }
  EXPECT_NEAR(w.state().bodies[ball].pose.position.x(), 1.0, tolerance);
  return w.state().bodies[ball].pose.position;
}

TEST(ViscousRk4, RollingBallStaysOnTheGroundAsALooseBodyAndAsATree) {
  Scene loose = rolling_ball_scene();
  BodyModel ball;
  ball.name = "ball";
  ball.shape = make_sphere(0.1);
  ball.mass = 1.0;
  ball.inertia = Mat3::Identity() * 0.4 * 0.01;
  loose.model.bodies.push_back(ball);
  BodyState bs;
  bs.pose.position = Vec3(0, 0, 0.1);
  bs.linear_velocity = Vec3(1, 0, 0);
  bs.angular_velocity = Vec3(0, 10, 0);
  loose.state.bodies.push_back(bs);
  World a(loose.model, loose.state);
  const Vec3 loose_end = expect_rolls_on(a, 1, 1e-12 / 5.0);

  Scene tree = rolling_ball_scene();
  articulated::ArticulatedTree t;
  articulated::Link link;
  link.name = "ball";
  link.joint = articulated::JointKind::Floating;
  link.mass = 1.0;
  link.inertia = Mat3::Identity() * 0.4 * 0.01;
  t.add_link(link);
  VecX q = t.neutral_configuration();
  q.head<3>() = Vec3(0, 0, 0.1);
  VecX v(6);
  v << 0, 10, 0, 1, 0, 0;  // [w; v_O] in the link's frame (Featherstone's order), the world's here
  const int index = add_tree(tree.model, tree.state, "ball", t, {make_sphere(0.1)}, q, v);
  World b(tree.model, tree.state);
  const Vec3 tree_end = expect_rolls_on(b, tree.model.trees[static_cast<std::size_t>(index)].link_body[0], 1e-9);
  EXPECT_LT((tree_end - loose_end).norm(), 1e-9);

  // A wheel: a floating axle (1 kg, no collision) carrying the ball on a
  // revolute joint about its y axis, the axle translating at 1 m/s and the
  // joint turning at 10 rad/s. The ball's bias acceleration now comes down
  // the chain, a_1 = 1_X_0 a_0 + v_1 x S_1 qd_1 (sim/gap_acceleration.cpp):
  // the same rolling, the ball's centre at the same place as the loose ball's.
  Scene wheel = rolling_ball_scene();
  articulated::ArticulatedTree w;
  articulated::Link axle;
  axle.name = "axle";
  axle.joint = articulated::JointKind::Floating;
  axle.mass = 1.0;
  axle.inertia = Mat3::Identity() * 1e-3;
  w.add_link(axle);
  articulated::Link disc = link;
  disc.name = "wheel";
  disc.parent = 0;
  disc.joint = articulated::JointKind::Revolute;
  disc.axis = Vec3::UnitY();
  w.add_link(disc);
  VecX qw = w.neutral_configuration();
  qw.head<3>() = Vec3(0, 0, 0.1);
  VecX vw(7);
  vw << 0, 0, 0, 1, 0, 0, 10;  // the axle's [w; v_O], then the joint rate
  const int wi = add_tree(wheel.model, wheel.state, "wheel", w, {make_sphere(0.01), make_sphere(0.1)}, qw, vw,
                          MaterialId{}, {0, 1});
  World c(wheel.model, wheel.state);
  const Vec3 wheel_end =
      expect_rolls_on(c, wheel.model.trees[static_cast<std::size_t>(wi)].link_body[1], 1e-9, 2.0);
  EXPECT_LT((wheel_end - loose_end).norm(), 1e-9);
}

// A body spinning at a constant w = (3, 0, 4) rad/s (a sphere's inertia: no
// gyroscopic torque, no gravity, no contact) turns by exp(t w / 2) exactly.
// Plain RK4 on q' = 1/2 (0, w) q multiplies q by the fourth-order Taylor
// polynomial of exp(h W / 2) each step, an angle off by (|w| h / 2)^5 / 60 a
// step: 1.6e-8 rad at h = 0.01 over 1 s. The stepper normalizes each stage's
// quaternion (its poses find contacts), which keeps the order and changes the
// constant: 6.1e-9 rad measured; halving h divides the error by 16 (16.00
// measured). A pose moved by the weighted angular velocity alone (the
// stepper's earlier second-order update) is off by about 2 (|w| h / 2)^3 / 3 a
// step, 1e-3 rad here, and halving h divides that by 4. Run as a loose body and
// as a one-link tree with a floating base (articulated::configuration_rate):
// the two turn alike.
double spin_error(double h, bool as_tree) {
  Scene s = load_scene_string("options: {dimension: 3, h: " + std::to_string(h) +
                              ", gravity: [0, 0, 0], model: standard, stepper: viscous-rk4, solver: ppm}\n"
                              "bodies:\n"
                              "  - {name: ground, shape: {half_space: {normal: [0, 0, 1], offset: 0}}, "
                              "static: true}\n");
  const Vec3 w(3, 0, 4);
  const Quat start(Eigen::AngleAxisd(0.3, Vec3(1, 2, 2).normalized()));
  std::uint32_t body = 0;
  if (as_tree) {
    articulated::ArticulatedTree t;
    articulated::Link link;
    link.name = "top";
    link.joint = articulated::JointKind::Floating;
    link.mass = 1.0;
    link.inertia = Mat3::Identity() * 0.004;
    t.add_link(link);
    VecX q = t.neutral_configuration();
    q.head<3>() = Vec3(0, 0, 1);
    q.segment<4>(3) << start.w(), start.x(), start.y(), start.z();
    VecX v(6);
    v << start.conjugate() * w, Vec3::Zero();  // [w; v_O] in the link's frame
    const int index = add_tree(s.model, s.state, "top", t, {make_sphere(0.1)}, q, v);
    body = s.model.trees[static_cast<std::size_t>(index)].link_body[0];
  } else {
    BodyModel top;
    top.name = "top";
    top.shape = make_sphere(0.1);
    top.mass = 1.0;
    top.inertia = Mat3::Identity() * 0.004;
    s.model.bodies.push_back(top);
    BodyState bs;
    bs.pose.position = Vec3(0, 0, 1);
    bs.pose.orientation = start;
    bs.angular_velocity = w;
    s.state.bodies.push_back(bs);
    body = 1;
  }
  World world(s.model, s.state);
  const int steps = static_cast<int>(std::lround(1.0 / h));
  for (int k = 0; k < steps; ++k) world.step();
  const Quat exact = Quat(Eigen::AngleAxisd(w.norm() * steps * h, w.normalized())) * start;
  return world.state().bodies[body].pose.orientation.angularDistance(exact);
}

TEST(ViscousRk4, SpinningBodyTurnsAtFourthOrder) {
  for (const bool tree : {false, true}) {
    const double coarse = spin_error(0.01, tree), fine = spin_error(0.005, tree);
    const double predicted = 100 * std::pow(5.0 * 0.01 / 2, 5) / 60;  // k (|w| h / 2)^5 / 60
    EXPECT_LT(coarse, 2 * predicted) << (tree ? "tree" : "loose body");
    EXPECT_GT(coarse / fine, 12.0) << (tree ? "tree" : "loose body");  // 16 at fourth order
  }
}

// A box dropped flat from 5 cm lands inelastically (002's impact model,
// frictionless): the impacts' LCP stops it so that it lands at a step's end,
// the landing rows hold that approach over the step, and from then on the
// acceleration-level rows hold it at rest: no overlap beyond rounding.
TEST(ViscousRk4, DroppedBoxLandsInelasticallyAndRests) {
  Scene s = sliding_box("viscous-rk4");
  s.state.bodies[1].pose.position.z() = 0.15;
  s.state.bodies[1].linear_velocity.setZero();
  World w = test::measuring_world(s.model, s.state);
  const test::RunStats run = test::run_until(w, 0.5);
  EXPECT_EQ(run.failures, 0);
  EXPECT_LT(run.max_penetration, 1e-9);
  EXPECT_NEAR(w.state().bodies[1].pose.position.z(), 0.1, 1e-9);
  EXPECT_LT(w.state().bodies[1].linear_velocity.norm(), 1e-9);  // inelastic: no bounce
}

TEST(ViscousRk4, RefusesWhatItDoesNotModel) {
  Scene s = sliding_box("viscous-rk4");
  s.model.options.drumwright_shell.viscous_implicit = true;
  ViscousRk4Stepper stepper;
  try {
    stepper.configure(s.model);
    FAIL() << "expected an error";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("viscous_integration: explicit"), std::string::npos) << e.what();
  }
  s.model.options.drumwright_shell.viscous_implicit = false;
  s.model.options.contact_drift_correction = true;
  EXPECT_THROW(stepper.configure(s.model), std::invalid_argument);
  s.model.options.contact_drift_correction = false;
  s.model.options.model = ContactModelKind::Peg;  // one row per active piece (contact/active_piece.hpp)
  EXPECT_NO_THROW(stepper.configure(s.model));
}

}  // namespace
}  // namespace pegsim
