// Kinematic trees in the time-stepping stepper (sim/tree_stepping.hpp):
// contact in joint space with the ground and loose boxes, under PEG and the
// standard model, with joint damping and a PD controller on a tree joint.
#include "sim/world.hpp"
#include "tree_fixture.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <stdexcept>
#include <string>

namespace pegsim {
namespace {

using test::add_box;
using test::ground_scene;

// A one-link tree with a floating joint is a rigid body: its joint-space
// inertia is the body's and J = [R 0; 0 R] (centre of mass at the link
// origin), so J M^-1 J' is the body's world inverse mass and each row of A
// equals the loose body's. The two steps differ only in the coordinates of
// the velocity: the loose body steps [v; omega] in the world frame, the
// floating joint in the body frame, where the linear part carries the bias
// omega x v (RNEA) and the position moves by h R v (R at the step's start).
// Per step they differ by O(h^2 |omega| |v|), so:
//   - without rotation (a box dropped flat, sliding to rest on the ground,
//     omega = 0 throughout up to round-off) the two agree to round-off;
//   - spinning in free flight they agree to O(h): the difference halves with h.
struct Twins {
  World world;
  std::uint32_t loose, link;
};

Twins make_twins(double h, const Vec3& v0, const Vec3& w0, const Quat& orientation, ContactModelKind kind,
                 const std::string& stepper = "time-stepping") {
  Model model;
  State state;
  ground_scene(0.4, 0.0, model, state);
  model.options.h = h;
  model.options.model = kind;
  model.options.stepper = stepper;
  const Vec3 size(0.2, 0.3, 0.4);
  Pose pose;
  pose.position = Vec3(-1.0, 0.0, 0.25);
  pose.orientation = orientation;
  const std::uint32_t loose = add_box(model, state, "loose", size, 1.5, pose);
  state.bodies[loose].linear_velocity = v0;
  state.bodies[loose].angular_velocity = w0;
  articulated::ArticulatedTree tree;
  articulated::Link l;
  l.name = "box";
  l.joint = articulated::JointKind::Floating;
  l.mass = 1.5;
  l.inertia = test::box_inertia(1.5, size);
  tree.add_link(l);
  const Mat3 R = pose.orientation.toRotationMatrix();
  VecX q(7), v(6);
  q << pose.position + Vec3(2.0, 0.0, 0.0), pose.orientation.w(), pose.orientation.x(), pose.orientation.y(),
      pose.orientation.z();
  v << R.transpose() * w0, R.transpose() * v0;
  add_tree(model, state, "floating", std::move(tree), {Shape(make_box(size))}, q, v);
  const std::uint32_t link = model.trees[0].link_body[0];
  return Twins{World(std::move(model), std::move(state)), loose, link};
}

double twin_difference(const Twins& t) {
  const BodyState& a = t.world.state().bodies[t.loose];
  const BodyState& b = t.world.state().bodies[t.link];
  return std::max({(b.pose.position - a.pose.position - Vec3(2.0, 0.0, 0.0)).norm(),
                   (b.linear_velocity - a.linear_velocity).norm(), (b.angular_velocity - a.angular_velocity).norm(),
                   (b.pose.orientation.toRotationMatrix() - a.pose.orientation.toRotationMatrix()).norm()});
}

// Tolerance 1e-9: both do the same arithmetic up to the rotation of the
// velocity into and out of the body frame (~1e-16 per step), over 400 steps
// of landing and sliding (PEG, the standard model).
void flat_box_matches_loose_box(ContactModelKind kind) {
  Twins t = make_twins(0.005, Vec3(1.2, 0.4, 0.0), Vec3::Zero(), Quat::Identity(), kind);
  double worst = 0.0;
  int contacts = 0;
  for (int k = 0; k < 400; ++k) {
    contacts += t.world.step().contacts_found;
    worst = std::max(worst, twin_difference(t));
  }
  const BodyState& b = t.world.state().bodies[t.link];
  std::printf("max discrepancy floating tree vs loose body, sliding (%s): %.3g over 400 steps, %d contacts, slid to x %.4f\n",
              kind == ContactModelKind::Peg ? "peg" : "standard", worst, contacts, b.pose.position.x());
  EXPECT_GT(contacts, 400);                       // it landed and slid
  EXPECT_LT(b.linear_velocity.norm(), 1e-6);      // to rest
  EXPECT_GT(b.pose.position.x(), 1.2);            // after sliding
  EXPECT_LT(worst, 1e-9);
}

TEST(TreeContact, FloatingLinkFollowsLooseBodyPeg) { flat_box_matches_loose_box(ContactModelKind::Peg); }
TEST(TreeContact, FloatingLinkFollowsLooseBodyStandard) { flat_box_matches_loose_box(ContactModelKind::Standard); }

// The same twins under the Drumwright-Shell steppers, whose contact space
// takes the link through its Jacobian and the tree's M^-1 (dynamics/
// contact_space.hpp): dropped flat while sliding (viscous: frictionless, the
// default mu_v = 0) or while spinning about the vertical (no-slip: the
// touching rows stop the spin in one step; the convex model: friction slows
// it, explicit Euler in joint space; the stopping impulses act about z
// only, so nothing tips and the link's body-frame coordinates turn about a
// principal axis, exactly as the loose box's world frame), the floating link
// and the loose box agree to round-off over the landing and the rest after
// in position and velocity. (Their orientations differ while spinning: the
// two orientation updates differ by O((h omega)^3) a step, 8e-6 rad over the
// 0.09 s of spinning fall here, whatever the contact.)
double landing_difference(const std::string& stepper, const Vec3& v0, const Vec3& w0, double h, double seconds) {
  Twins t = make_twins(h, v0, w0, Quat::Identity(), ContactModelKind::Standard, stepper);
  int contacts = 0;
  double worst = 0.0;
  const int steps = static_cast<int>(std::lround(seconds / h));
  for (int k = 0; k < steps; ++k) {
    contacts += t.world.step().contacts_found;
    const BodyState& a = t.world.state().bodies[t.loose];
    const BodyState& b = t.world.state().bodies[t.link];
    worst = std::max({worst, (b.pose.position - a.pose.position - Vec3(2.0, 0.0, 0.0)).norm(),
                      (b.linear_velocity - a.linear_velocity).norm(), (b.angular_velocity - a.angular_velocity).norm()});
  }
  EXPECT_GT(contacts, 0);  // it landed
  return worst;
}

TEST(TreeContact, FloatingLinkFollowsLooseBodyNoSlip) {
  const double d = landing_difference("no-slip", Vec3::Zero(), Vec3(0.0, 0.0, 3.0), 0.005, 0.5);
  std::printf("floating tree vs loose body (no-slip), landing spinning: %.3g\n", d);
  EXPECT_LT(d, 1e-12);
}
TEST(TreeContact, FloatingLinkFollowsLooseBodyConvexImpulse) {
  const double d = landing_difference("convex-impulse", Vec3::Zero(), Vec3(0.0, 0.0, 3.0), 0.005, 0.5);
  std::printf("floating tree vs loose body (convex-impulse), landing spinning: %.3g\n", d);
  // not round-off here: the log barrier stops at a duality-gap bound of 1e-12
  // on phase 2's objective, quadratic in the velocities (solvers/log_barrier.hpp),
  // so two solves of one problem in different arithmetic may end up to
  // sqrt(2e-12) = 1.4e-6 m/s apart (measured 1.9e-8)
  EXPECT_LT(d, 1.4e-6);
}
TEST(TreeContact, FloatingLinkFollowsLooseBodyViscous) {
  const double d = landing_difference("viscous", Vec3(1.2, 0.4, 0.0), Vec3::Zero(), 0.005, 0.5);
  std::printf("floating tree vs loose body (viscous), landing sliding: %.3g\n", d);
  EXPECT_LT(d, 1e-12);
}

TEST(TreeContact, SpinningFloatingLinkConvergesToLooseBody) {
  double diff[2];
  const double hs[2] = {0.002, 0.001};
  for (int i = 0; i < 2; ++i) {
    Twins t = make_twins(hs[i], Vec3(0.3, -0.2, 3.0), Vec3(4.0, 7.0, -5.0),
                         Quat(Eigen::AngleAxisd(0.3, Vec3(1, 2, 0.5).normalized())), ContactModelKind::Peg);
    const int steps = static_cast<int>(std::lround(0.2 / hs[i]));  // 0.2 s of free flight (it rises 0.4 m)
    for (int k = 0; k < steps; ++k) EXPECT_EQ(t.world.step().contacts_found, 0);
    diff[i] = twin_difference(t);
  }
  std::printf("spinning floating tree vs loose body after 0.2 s: %.3g at h = 0.002, %.3g at h = 0.001 (ratio %.3f)\n",
              diff[0], diff[1], diff[1] / diff[0]);
  EXPECT_LT(diff[0], 0.05);
  EXPECT_NEAR(diff[1] / diff[0], 0.5, 0.1);  // first order
}

// A hinged 3-link chain falls onto the ground and comes to rest on it: the
// links never sink deeper than the solver's velocity residual allows
// (Stewart-Trinkle's psi/h term pulls any gap error back within a step), and
// the chain ends at rest.
TEST(TreeContact, ChainFallsOntoGroundAndRests) {
  Model model;
  State state;
  ground_scene(0.5, 0.0, model, state);
  model.options.h = 0.002;
  // the links' tips hit the ground at ~3 m/s, 6 mm per step: the contact
  // distance of thesis eq. 5.1 (per body, from its speed) finds them a step ahead
  model.options.eps_auto = true;
  test::Chain chain;
  chain.pivot = Vec3(0.0, 0.0, 0.3);
  test::add_tree_chain(chain, model, state);
  World world(std::move(model), std::move(state));
  world.set_measure_penetration(true);
  double deepest = 0.0;
  int failures = 0;
  for (int k = 0; k < 1500; ++k) {
    const StepReport& r = world.step();
    deepest = std::max(deepest, r.max_penetration);
    failures += r.solver_failures;
    if (r.solver_failures) std::printf("step %d: %s\n", k, r.solver.message.c_str());
  }
  const TreeState& ts = world.state().trees[0];
  std::printf("chain on ground: deepest penetration %.3g m, final |v| %.3g, solver failures %d\n", deepest,
              ts.v.norm(), failures);
  EXPECT_EQ(failures, 0);
  EXPECT_LT(deepest, 1e-6);
  EXPECT_LT(ts.v.norm(), 1e-6);
  // every link above the ground's top (z = 0) within the penetration bound
  for (std::uint32_t b : world.model().trees[0].link_body) EXPECT_GT(world.state().bodies[b].pose.position.z(), 0.05 - 1e-6);
}

// A PD controller (Model::controllers with tree set) holds a single link
// against gravity. A positive q about +y turns the link's +x towards -z, so
// gravity's torque about the hinge is +m g l_c cos q and the equilibrium is
// kp (q_d - q) + m g l_c cos q = 0. Implicit joint damping only slows it down.
TEST(TreeContact, PdControllerHoldsLinkAtStaticEquilibrium) {
  Model model;
  State state;
  ground_scene(0.5, -5.0, model, state);
  model.options.h = 0.005;
  test::Chain chain;
  chain.links = 1;
  test::add_tree_chain(chain, model, state);
  model.trees[0].tree = [&] {  // the same link with damping
    articulated::ArticulatedTree t;
    articulated::Link l = model.trees[0].tree.link(0);
    l.damping = 0.5;
    t.add_link(l);
    return t;
  }();
  PdControllerSpec pd;
  pd.tree = 0;
  pd.joint = 0;
  pd.kp = 200.0;
  pd.kd = 5.0;
  pd.target.value = -0.2;
  model.controllers.push_back(pd);
  World world(std::move(model), std::move(state));
  for (int k = 0; k < 2000; ++k) world.step();
  const double q = world.state().trees[0].q(0);
  const double lc = chain.length / 2, g = 9.81;
  const double residual = 200.0 * (-0.2 - q) + chain.mass * g * lc * std::cos(q);
  std::printf("PD equilibrium: q = %.6f, torque balance residual %.3g N m\n", q, residual);
  EXPECT_LT(std::abs(residual), 1e-6);
  EXPECT_LT(std::abs(world.state().trees[0].v(0)), 1e-8);
}

// A hinged link released horizontal swings down (q grows) into its upper
// limit 0.5 rad and stays there: the limit row (sim/tree_stepping.hpp) is a
// unilateral constraint like a contact, so q never passes 0.5 by more than
// the solver's velocity residual times h, the link comes to rest at the limit,
// and the limit's impulse per step balances gravity's torque there,
// p = h m g l_c cos(0.5) (the static reaction). `stepper`: the time-stepping
// stepper, or a Drumwright-Shell one (the limit a frictionless row of its
// normal LCP, dynamics/contact_space.hpp).
World hinged_link_with_limit(const std::string& stepper) {
  Model model;
  State state;
  ground_scene(0.5, -5.0, model, state);
  model.options.h = 0.005;
  model.options.stepper = stepper;
  if (stepper != "time-stepping") model.options.model = ContactModelKind::Standard;
  test::Chain chain;
  chain.links = 1;
  test::add_tree_chain(chain, model, state);
  model.trees[0].tree = [&] {
    articulated::ArticulatedTree t;
    articulated::Link l = model.trees[0].tree.link(0);
    l.lower = -0.5;
    l.upper = 0.5;
    t.add_link(l);
    return t;
  }();
  return World(std::move(model), std::move(state));
}

void expect_limit_holds(const std::string& stepper) {
  World world = hinged_link_with_limit(stepper);
  double highest = 0.0;
  for (int k = 0; k < 1000; ++k) {
    world.step();
    highest = std::max(highest, world.state().trees[0].q(0));
  }
  const TreeState& ts = world.state().trees[0];
  std::printf("joint limit 0.5 rad (%s): highest q %.9f, final q %.9f, final qdot %.3g\n", stepper.c_str(), highest,
              ts.q(0), ts.v(0));
  EXPECT_LT(highest, 0.5 + 1e-9);
  EXPECT_NEAR(ts.q(0), 0.5, 1e-9);
  EXPECT_LT(std::abs(ts.v(0)), 1e-9);
}

TEST(TreeContact, JointLimitStopsLinkAndHoldsIt) { expect_limit_holds("time-stepping"); }
TEST(TreeContact, JointLimitHoldsUnderTheNoSlipStepper) { expect_limit_holds("no-slip"); }
TEST(TreeContact, JointLimitHoldsUnderTheViscousStepper) { expect_limit_holds("viscous"); }

// Under the convex model a joint limit joins the contact set once the joint
// is at or past it and approaching (sim/convex_impulse_stepper.hpp): with no
// position-level term, the link swinging into its limit passes it by at most
// the step's travel h |qdot| on arrival (qdot <= sqrt(2 g l_c sin 0.5) / l_c
// terms: about 2.5 rad/s here, so 0.0125 rad at h = 0.005), then stays there:
// inelastic (e = 0), the limit's impulse stops it and holds it against gravity.
TEST(TreeContact, JointLimitHoldsUnderTheConvexModel) {
  World world = hinged_link_with_limit("convex-impulse");
  double highest = 0.0, at_1s = 0.0, rate_at_1s = 0.0;
  for (int k = 0; k < 1000; ++k) {
    world.step();
    highest = std::max(highest, world.state().trees[0].q(0));
    if (k == 199) at_1s = world.state().trees[0].q(0), rate_at_1s = world.state().trees[0].v(0);
  }
  const TreeState& ts = world.state().trees[0];
  std::printf("joint limit 0.5 rad (convex-impulse): highest q %.9f, q at 1 s %.9f, final q %.9f, final qdot %.3g\n",
              highest, at_1s, ts.q(0), ts.v(0));
  EXPECT_GT(highest, 0.5 - 1e-9);         // it reached the limit
  EXPECT_LT(highest, 0.5 + 0.0125);       // past it by at most one step's travel
  EXPECT_NEAR(ts.q(0), at_1s, 1e-9);      // and held there, no creep through the limit
  // the state's rate is v_{k+1} = v+ + h a = h a (v+ = 0 at the limit): the same every step
  EXPECT_NEAR(ts.v(0), rate_at_1s, 1e-9);
  EXPECT_GT(ts.v(0), 0.0);  // gravity pulls it into the limit
}

// The Drumwright-Shell steppers do not model joint friction: a tree with it
// is refused, the tree and the link named.
TEST(TreeContact, NoSlipStepperRefusesJointFriction) {
  Model model;
  State state;
  ground_scene(0.5, -5.0, model, state);
  model.options.stepper = "no-slip";
  model.options.model = ContactModelKind::Standard;
  test::Chain chain;
  chain.links = 1;
  test::add_tree_chain(chain, model, state);
  articulated::ArticulatedTree t;
  articulated::Link l = model.trees[0].tree.link(0);
  l.friction = 1.0;
  t.add_link(l);
  model.trees[0].tree = t;
  try {
    World world(std::move(model), std::move(state));
    FAIL() << "no error";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("joint friction"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find(l.name), std::string::npos) << e.what();
  }
}

// Coulomb joint friction F on a hinged link released horizontal, where
// gravity's torque is m g l_c = 1.962 N m: F = 2.5 N m holds it still (static
// friction); F = 1 N m lets it go with the torque reduced by F, so the first
// step's rate is h (m g l_c - F) / (I_c + m l_c^2) (semi-implicit Euler at q = 0).
TEST(TreeContact, JointFrictionHoldsOrSlowsLink) {
  for (const double F : {2.5, 1.0}) {
    Model model;
    State state;
    ground_scene(0.5, -5.0, model, state);
    model.options.h = 0.005;
    test::Chain chain;
    chain.links = 1;
    test::add_tree_chain(chain, model, state);
    articulated::ArticulatedTree t;
    articulated::Link l = model.trees[0].tree.link(0);
    l.friction = F;
    t.add_link(l);
    model.trees[0].tree = t;
    World world(std::move(model), std::move(state));
    world.step();
    const double lc = chain.length / 2, torque = chain.mass * 9.81 * lc;
    const double inertia = chain.mass * (chain.length * chain.length + 0.01) / 12.0 + chain.mass * lc * lc;
    const double expected = F > torque ? 0.0 : 0.005 * (torque - F) / inertia;
    const double first = world.state().trees[0].v(0);
    EXPECT_NEAR(first, expected, 1e-9) << "F = " << F;
    for (int k = 0; k < 200; ++k) world.step();
    if (F > torque) EXPECT_LT(std::abs(world.state().trees[0].q(0)), 1e-9);
    else EXPECT_GT(world.state().trees[0].q(0), 0.1);
    std::printf("joint friction %.1f N m: first-step rate %.9f (expected %.9f), q after 1 s %.6f\n", F, first, expected, world.state().trees[0].q(0));
  }
}

}  // namespace
}  // namespace pegsim
