// Joints and contacts in one island (scenes/pendulum-strikes-box.yaml), the
// same joint problem solved by independent solvers, momentum of a free
// jointed pair, and bit-identical reruns.
#include "common/test_paths.hpp"

#include "dynamics/formulation.hpp"
#include "geometry/polyhedron.hpp"
#include "io/scene.hpp"
#include "joints/controllers.hpp"
#include "joint_fixture.hpp"
#include "sim/world.hpp"
#include "solvers/lcp.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <cstring>

namespace pegsim {
namespace {

Scene load(const std::string& name) { return load_scene_file(std::string(PEGSIM_SCENES_DIR) + "/" + name + ".yaml"); }

// The bob strikes the box: one island holds the bob, the box and the joint;
// nothing penetrates, the joint stays within Algorithm 1's tolerance, and the
// box is knocked away.
TEST(JointAndContact, PendulumBobStrikesABoxInOneIsland) {
  Scene s = load("pendulum-strikes-box");
  World world(s.model, s.state);
  world.set_measure_penetration(true);
  const double x0 = world.state().bodies[1].pose.position.x();
  bool shared = false;
  while (world.state().time < 1.5 - 1e-9) {
    const StepReport& r = world.step();
    ASSERT_EQ(r.solver_failures, 0) << "t = " << r.time;
    // eps: auto contact distances (thesis eq. 5.1): the overlap is round-off
    EXPECT_LT(r.max_penetration, 1e-6) << "t = " << r.time;
    EXPECT_LE(r.joint_position_error, s.model.options.joints.eps_p) << "t = " << r.time;
    for (const Island& island : world.last_islands())
      if (!island.joints.empty() && island.bodies.size() == 2 && !island.contacts.empty()) shared = true;
  }
  EXPECT_TRUE(shared);
  EXPECT_GT(world.state().bodies[1].pose.position.x(), x0 + 0.05);  // the box was hit
}

// The same island problem (joint rows Free, contact rows complementary)
// solved by path, by pgs at a tight tolerance and, once it takes Free rows, by
// lemke (the standard contact model: pgs declines PEG's slack rows): the velocities M^-1 G z they give agree (z itself need not be unique).
TEST(JointAndContact, SolversAgreeOnAJointProblem) {
  Scene s = load("pendulum-strikes-box");
  s.model.options.model = ContactModelKind::Standard;  // eq. 6.1's blocks, which pgs reads
  // frictionless: A = G' M^-1 G is then positive semidefinite, and two
  // solutions z1, z2 have G (z1 - z2) = 0 ((z1 - z2)' A (z1 - z2) <= 0 for a
  // monotone LCP): the velocities are unique, whatever z (with friction's U
  // and E blocks A is not monotone and the velocities need not be unique)
  for (double& mu : s.model.friction) mu = 0.0;
  World world(s.model, s.state);
  const StepProblem* problem = nullptr;
  std::vector<InverseMass> minv;
  while (world.state().time < 1.5) {
    world.step();
    for (std::size_t i = 0; i < world.last_problems().size(); ++i)
      if (!world.last_islands()[i].joints.empty() && !world.last_islands()[i].contacts.empty())
        problem = &world.last_problems()[i];
    if (problem) break;
  }
  ASSERT_NE(problem, nullptr);
  LcpProblem lcp = problem->lcp;
  if (!lcp.has_matrix()) assemble_matrix(lcp);
  // the scene's inverse masses from the island's (the problem numbers its own
  // bodies, LcpStructure::scene_body); bodies outside the island get none
  minv.assign(s.model.bodies.size(), InverseMass{});
  for (std::size_t k = 0; k < lcp.structure.inverse_mass.size(); ++k) {
    InverseMass& m = minv[lcp.structure.scene_index(static_cast<std::uint32_t>(k))];
    m.linear_mask = Vec3::Ones();
    m.inv_inertia = lcp.structure.inverse_mass[k].bottomRightCorner<3, 3>();
    m.inv_mass = lcp.structure.inverse_mass[k](0, 0);
  }
  auto velocities = [&](const VecX& z) {
    std::vector<Vec6> v(s.model.bodies.size(), Vec6::Zero());
    apply_impulses(*problem, z, minv, v);
    return v;
  };
  SolverOptions tight;
  tight.tolerance = 1e-12;
  tight.max_iterations = 200000;
  VecX z_path = VecX::Zero(lcp.size());
  ASSERT_TRUE(make_solver("path", tight)->solve(lcp, z_path).ok());
  const std::vector<Vec6> reference = velocities(z_path);
  int compared = 0;
  for (const char* name : {"pgs", "lemke"}) {
    VecX z = VecX::Zero(lcp.size());
    const SolverResult r = make_solver(name, tight)->solve(lcp, z);
    if (r.status == SolverStatus::Unsupported) {  // lemke before its Free-row elimination
      std::printf("note: %s declines the problem (%s)\n", name, r.message.c_str());
      continue;
    }
    ASSERT_TRUE(r.ok()) << name << ": " << r.message;
    const std::vector<Vec6> v = velocities(z);
    SolverResult mp, mq;
    measure_residuals(lcp, z, mp);
    measure_residuals(lcp, z_path, mq);
    std::printf("residuals %s %.3g %.3g path %.3g %.3g, n %d\n", name, mp.complementarity, mp.feasibility, mq.complementarity, mq.feasibility, lcp.size());
    // residuals of 1e-12 (scaled by 1 + |b|, b ~ 10 m/s) on a problem whose
    // Delassus eigenvalues are >= ~0.1: velocity differences of ~1e-9 m/s
    for (std::size_t b = 0; b < v.size(); ++b) EXPECT_LT((v[b] - reference[b]).norm(), 1e-7) << name << " body " << b;
    ++compared;
  }
  EXPECT_GE(compared, 1);
}

// A free-floating pair on each joint kind, spinning without gravity (guide
// 1.8 #4): the joint impulses are action-reaction pairs about B's anchor, so
// linear and angular momentum are conserved (the prismatic pair slides to
// s = 0.3 m, where Table 2.1's lever slip would break angular momentum).
TEST(JointMomentum, FreePairsConserveLinearAndAngularMomentum) {
  for (JointKind kind : {JointKind::Fixed, JointKind::Revolute, JointKind::Prismatic, JointKind::Cylindrical,
                         JointKind::Spherical, JointKind::Universal}) {
    Model model;
    State state;
    Pose a, b;
    a.position = Vec3(0, 0, 0);
    b.position = Vec3(0.3, 0.0, 0.1);
    test::two_boxes(Dimension::Spatial, a, b, model, state);
    model.options.gravity = Vec3::Zero();
    model.options.h = 0.01;
    model.options.solver = "path";
    JointSpec spec;
    spec.kind = kind;
    spec.body_a = 0;
    spec.body_b = 1;
    spec.anchor = Vec3(0.15, 0.0, 0.05);
    spec.axis = Vec3(1, 0, 0);  // the slide axis points from A to B
    model.joints.push_back(make_joint(spec, model, state));
    // a spin perpendicular to the axis, and B sliding out along it
    for (BodyState& s : state.bodies) s.angular_velocity = Vec3(0, 0, 1.0);
    state.bodies[0].linear_velocity = Vec3(0, -0.0, 0);
    state.bodies[1].linear_velocity = Vec3(0.03, 0.3, 0);
    auto momentum = [&](const State& st, Vec3& p, Vec3& l) {
      p.setZero();
      l.setZero();
      for (std::size_t i = 0; i < 2; ++i) {
        const BodyState& bs = st.bodies[i];
        const Mat3 R = bs.pose.orientation.toRotationMatrix();
        p += model.bodies[i].mass * bs.linear_velocity;
        l += bs.pose.position.cross(model.bodies[i].mass * bs.linear_velocity) +
             R * model.bodies[i].inertia * R.transpose() * bs.angular_velocity;
      }
    };
    World world(model, state);
    Vec3 p0, l0;
    momentum(world.state(), p0, l0);
    for (int k = 0; k < 1000; ++k) {
      world.step();
      Vec3 p, l;
      momentum(world.state(), p, l);
      // every impulse's wrenches cancel to 1e-16 (JointRows.AreActionReactionPairs);
      // round-off over the steps stays far below these
      ASSERT_LT((p - p0).norm(), 1e-12 * (1.0 + p0.norm())) << to_string(kind) << " step " << k;
      // the explicit gyroscopic term w x J w of the free velocity (eq. 2.30)
      // changes each body's spin momentum by O(h^2) per step; bounded below 1e-3
      ASSERT_LT((l - l0).norm(), 1e-3 * l0.norm()) << to_string(kind) << " step " << k;
    }
  }
}

// The same jointed scene twice: bit-identical states (joint rows, islands and
// warm starts keyed by joint).
TEST(JointDeterminism, RerunsAreBitIdentical) {
  Scene s = load("pendulum-strikes-box");
  World first(s.model, s.state), second(s.model, s.state);
  for (int k = 0; k < 300; ++k) {
    first.step();
    second.step();
  }
  for (std::size_t b = 0; b < s.state.bodies.size(); ++b) {
    const BodyState& x = first.state().bodies[b];
    const BodyState& y = second.state().bodies[b];
    EXPECT_EQ(std::memcmp(x.pose.position.data(), y.pose.position.data(), sizeof(double) * 3), 0);
    EXPECT_EQ(std::memcmp(x.pose.orientation.coeffs().data(), y.pose.orientation.coeffs().data(), sizeof(double) * 4), 0);
    EXPECT_EQ(std::memcmp(x.linear_velocity.data(), y.linear_velocity.data(), sizeof(double) * 3), 0);
    EXPECT_EQ(std::memcmp(x.angular_velocity.data(), y.angular_velocity.data(), sizeof(double) * 3), 0);
  }
}

}  // namespace
}  // namespace pegsim
