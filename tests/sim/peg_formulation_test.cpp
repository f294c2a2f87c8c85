// Time stepping with PEG (thesis 4.7, eqs. 4.41-4.51, src/dynamics/peg_rows.cpp):
// the LCP's layout and its factored form, and what its solutions mean,
// checked from the bodies' new velocities rather than from the LCP's rows:
//   every I- and X-constraint: max_k (psi_k/h + G_k' nu) >= 0   (eq. 4.1)
//   a force on a sub-contact: only when that maximum is zero, and for every
//   primary but the first only when its own gap is that zero maximum (4.13).
#include "dynamics/formulation_detail.hpp"
#include "scene_runner.hpp"
#include "io/scene.hpp"
#include "sim/world.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

namespace pegsim {
namespace {

// A unit square falls on a static one's corner: its lower-left vertex is
// 1 mm left of and 2 cm above the corner, so it is applicable and feasible
// against both edges there (thesis Fig. 4.3; two primaries, a d slack row).
// And a block slides over a corner with friction (Fig. 5.2).
const char* kCorner = R"(
options: {dimension: 2, h: 0.01, eps: 0.1, model: peg, solver: lemke, gravity: [0, -9.81]}
bodies:
  - {name: base, shape: {rectangle: [1, 1]}, static: true}
  - {name: top, shape: {rectangle: [1, 1]}, mass: 1, position: [0.999, 1.02], velocity: [0, -1]}
)";
const char* kSlide = R"(
options: {dimension: 2, h: 0.01, eps: 0.1, model: peg, solver: lemke, friction: 0.3, gravity: [0, -9.81]}
bodies:
  - {name: block, shape: {rectangle: [2, 1]}, static: true}
  - {name: slider, shape: {rectangle: [1, 0.5]}, mass: 1, position: [0.45, 0.75], velocity: [2, 0]}
)";

// nu* of eq. 2.30 for the state a step starts from
std::vector<Vec6> free_velocity(const Model& model, const State& state) {
  std::vector<Vec6> nu;
  for (std::size_t b = 0; b < model.bodies.size(); ++b) {
    const BodyModel& body = model.bodies[b];
    Vec6 v = velocity_of(state.bodies[b]);
    if (!body.is_static)
      v += world_inverse_mass(body, state.bodies[b], model.options.dimension)
               .apply(external_impulse(body, state.bodies[b], model.options.gravity, model.options.h,
                                       model.options.dimension, model.options.gyroscopic));
    nu.push_back(v);
  }
  return nu;
}

// A = R' M^-1 G + C holds for the factored form (solvers may use either;
// R = G + LcpStructure::measures). A step Lemke solved on the structure has no
// A: it is assembled here, the formulation's own bits
// (structure_only_test.cpp), against this brute sum.
void expect_structure_matches(LcpProblem lcp) {
  if (!lcp.has_matrix()) assemble_matrix(lcp);
  const LcpStructure& st = lcp.structure;
  const int n = lcp.size();
  MatX A = MatX::Zero(n, n);
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j) {
      const JacobianRow& rj = st.rows[j];
      double v = 0.0;
      for (const JacobianRow* ri : {&st.rows[i], st.measure(i)}) {  // R_i = G_i + (R - G)_i
        if (ri == nullptr) continue;
        for (const auto& [bi, ji] : {std::pair{ri->body_a, ri->ja}, std::pair{ri->body_b, ri->jb}})
          for (const auto& [bj, jj] : {std::pair{rj.body_a, rj.ja}, std::pair{rj.body_b, rj.jb}})
            if (bi != kNoBody && bi == bj) v += ji.dot(st.inverse_mass[bj] * jj);
      }
      A(i, j) = v;
    }
  for (const LcpStructure::Entry& e : st.coupling) A(e.row, e.col) += e.value;
  EXPECT_LT((A - lcp.A).cwiseAbs().maxCoeff(), 1e-12 * (1.0 + lcp.A.cwiseAbs().maxCoeff()));
}

// Steps `world` and checks the PEG semantics of the step's solution.
void step_and_check(World& world, int step) {
  SCOPED_TRACE("step " + std::to_string(step));
  const State before = world.state();
  const std::vector<Vec6> nu_star = free_velocity(world.model(), before);
  const StepReport& report = world.step();
  ASSERT_EQ(report.solver_failures, 0) << report.solver.message;
  const ConstraintSet& set = world.last_constraints();
  const StepProblem& problem = world.last_problem();
  if (set.contacts.empty()) return;
  const LcpProblem& lcp = problem.lcp;
  expect_structure_matches(lcp);

  // layout: [p_n | p_f | s | c, d]; slack rows push nothing
  int slacks = 0;
  for (const ContactConstraint& k : set.constraints)
    if (k.kind != ConstraintKind::U) slacks += static_cast<int>(k.contacts.size()) - 1 + k.primaries - 1;
  int seen = 0;
  for (int v = 0; v < lcp.size(); ++v) {
    if (lcp.role[v] != RowRole::PegSlack) continue;
    ++seen;
    EXPECT_GE(v, lcp.size() - slacks);
    EXPECT_EQ(lcp.structure.rows[v].body_a, kNoBody);
    EXPECT_EQ(lcp.structure.rows[v].body_b, kNoBody);
    EXPECT_EQ(lcp.contact_of[v], -1);
  }
  EXPECT_EQ(seen, slacks);

  // the problem's b is G' nu* plus gap terms: a U row's is G' nu* + psi/h
  for (const ContactConstraint& k : set.constraints) {
    if (k.kind != ConstraintKind::U) continue;
    const Contact& c = set.contacts[k.contacts[0]].contact;
    const JacobianRow g = formulation_detail::contact_row(c, c.normal, world.model(), before);
    EXPECT_NEAR(lcp.b(problem.normal_var[k.contacts[0]]),
                formulation_detail::row_velocity(g, nu_star) + c.gap / world.model().options.h, 1e-9);
  }

  // Solve the step's problem again (Lemke, no warm start) and apply its
  // impulses (slack rows push nothing) to get nu^{l+1} of that solution.
  VecX z = VecX::Zero(lcp.size());
  const SolverResult solved = make_solver("lemke", SolverOptions{})->solve(lcp, z);
  ASSERT_TRUE(solved.ok()) << solved.message;
  std::vector<InverseMass> minv;
  for (std::size_t b = 0; b < before.bodies.size(); ++b)
    minv.push_back(world_inverse_mass(world.model().bodies[b], before.bodies[b], Dimension::Planar));
  std::vector<Vec6> nu_new = nu_star;
  apply_impulses(problem, z, minv, nu_new);
  const double h = world.model().options.h;
  auto rho = [&](int c) {
    const Contact& k = set.contacts[c].contact;
    const JacobianRow g = formulation_detail::contact_row(k, k.normal, world.model(), before);
    return k.gap / h + formulation_detail::row_velocity(g, nu_new);
  };
  // force variables: p_n in constraint order, U: 1, I: m (on its first m sub-contacts), X: 1
  const double tol = 1e-7;
  int v = 0;
  for (const ContactConstraint& k : set.constraints) {
    double max_rho = -1e300;
    for (int c : k.contacts) max_rho = std::max(max_rho, rho(c));
    EXPECT_GT(max_rho, -tol);  // eq. 4.1 (U: psi/h + G' nu >= 0)
    const int forces = k.kind == ConstraintKind::I ? k.primaries : 1;
    for (int j = 0; j < forces; ++j, ++v) {
      ASSERT_EQ(lcp.role[v], RowRole::Normal);
      if (k.kind != ConstraintKind::X) {  // pushes along its sub-contact's normal (G_nI of eq. 4.41)
        const Contact& c = set.contacts[k.contacts[j]].contact;
        const JacobianRow g = formulation_detail::contact_row(c, c.normal, world.model(), before);
        EXPECT_EQ(lcp.structure.rows[v].ja, g.ja);
        EXPECT_EQ(lcp.structure.rows[v].jb, g.jb);
      }
      if (z(v) <= 1e-9) continue;
      EXPECT_LT(max_rho, tol) << "a force while the constraint is slack";
      if (k.kind == ConstraintKind::I && j > 0) {
        EXPECT_GT(rho(k.contacts[j]), -tol) << "eq. 4.13: only the sub-contact at the zero maximum pushes";
      }
    }
  }
  EXPECT_TRUE(v == lcp.size() || lcp.role[v] != RowRole::Normal);
}

TEST(PegFormulation, CornerCollisionTwoPrimaries) {
  Scene s = load_scene_string(kCorner, "corner");
  World world(std::move(s.model), std::move(s.state));
  bool had_two_primaries = false;
  for (int i = 0; i < 20; ++i) {
    step_and_check(world, i);
    for (const ContactConstraint& k : world.last_constraints().constraints) had_two_primaries |= k.primaries == 2;
  }
  EXPECT_TRUE(had_two_primaries);
  // it lands on the corner by 1 mm of its base, its centre far to the right: it tips off clockwise
  EXPECT_LT(planar_angle(world.state().bodies[1].pose), -0.01);
}

TEST(PegFormulation, SlidingOverACornerWithFriction) {
  Scene s = load_scene_string(kSlide, "slide");
  World world(std::move(s.model), std::move(s.state));
  for (int i = 0; i < 15; ++i) step_and_check(world, i);
  // friction (mu = 0.3) slows it: dv = -mu g t while it slides
  const double t = 15 * 0.01;
  EXPECT_NEAR(world.state().bodies[1].linear_velocity.x(), 2.0 - 0.3 * 9.81 * t, 1e-6);
}

// PEG with joints (the 2D gripper of grasp-2d, solved by path from the dense
// A): the joint rows come after PEG's, and PEG's rows that measure other
// sub-contacts share bodies with them (the joints' part of those terms is
// taken back out through C, joints/joint_problem.cpp). The formulation's dense
// A against the brute sum R' M^-1 G + C, and against the A assembled from the
// structure, bit for bit (they were not: a pair of joint rows summed the other
// way round).
TEST(PegFormulation, WithJointsTheDenseMatrixIsTheStructuresBitForBit) {
  World world = test::load_world("grasp-2d");
  int checked = 0;
  for (int i = 0; i < 2000; ++i) {
    world.step();
    const LcpProblem& lcp = world.last_problem().lcp;
    const std::vector<int>& joint = world.last_problem().var_joint;
    const bool joints = std::any_of(joint.begin(), joint.end(), [](int j) { return j >= 0; });
    if (lcp.structure.measures.empty() || !joints || !lcp.has_matrix()) continue;
    SCOPED_TRACE("step " + std::to_string(i));
    ++checked;
    expect_structure_matches(lcp);
    LcpProblem assembled = lcp;
    assembled.A.resize(0, 0);
    assemble_matrix(assembled);
    ASSERT_TRUE(assembled.A == lcp.A) << (assembled.A - lcp.A).cwiseAbs().maxCoeff();
  }
  EXPECT_GE(checked, 5);  // 7 steps of the run: the fingers on the polygon with I- or X-constraints
}

}  // namespace
}  // namespace pegsim
