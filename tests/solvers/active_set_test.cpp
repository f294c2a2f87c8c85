// The active-set solver (active_set.hpp) on structure-only problems: it agrees
// with Lemke, it never claims Solved outside the tolerance, it escalates when
// its budget does not reach the solution, and it solves simple problems from
// a cold start. The captured problems and the box-stack run with the chain
// [active-set, lemke] are in tests/sim/active_set_chain_test.cpp (they need
// the io and sim stages).
//
// Tolerances: the certificate is the solver's own acceptance threshold,
// SolverOptions::tolerance * (1 + |b|_inf), re-measured here on the dense A
// that the solver never reads (the sum G'M^-1G z in another order differs by
// round-off, 1e-12 relative, far below it).
#include "solvers/active_set.hpp"
#include "solvers/lemke.hpp"

#include "solvers/lcp_fixtures.hpp"
#include "solvers/structured_fixtures.hpp"

#include <gtest/gtest.h>

namespace pegsim {
namespace {

constexpr double kTolerance = 1e-9;  // the simulator's (SimOptions::solver_tolerance)

SolverOptions options(int max_systems = 0) {
  SolverOptions o;
  o.tolerance = kTolerance;
  o.max_iterations = max_systems;
  return o;
}

// The problem as the formulation hands it to a structure-only chain head: no A.
LcpProblem without_matrix(LcpProblem p) {
  p.A.resize(0, 0);
  return p;
}

// Solved means the residuals on the dense matrix are within the threshold.
void expect_certified(const LcpProblem& dense, const VecX& z, const SolverResult& r, const std::string& what) {
  if (!r.ok()) return;
  ASSERT_EQ(z.size(), dense.size()) << what;
  SolverResult m;
  measure_residuals(dense, z, m);
  EXPECT_LE(m.complementarity, test::threshold(dense, kTolerance)) << what;
  EXPECT_LE(m.feasibility, test::threshold(dense, kTolerance)) << what;
  EXPECT_GE(z.minCoeff(), 0.0) << what;
}

TEST(ActiveSet, IsRegisteredAndWorksOnTheStructure) {
  const auto solver = make_solver("active-set", options());
  ASSERT_NE(solver, nullptr);
  EXPECT_FALSE(solver->needs_matrix());
  // a dense-only problem has nothing for it to work on: the chain goes on
  std::mt19937 rng(1);
  const LcpProblem p = test::random_spd_lcp(rng, 6);
  VecX z = VecX::Zero(6);
  EXPECT_EQ(solver->solve(p, z).status, SolverStatus::Unsupported);
}

TEST(ActiveSet, WarmStartedFromLemkesSolutionItIsSolvedWithOneSystem) {
  // The previous step's contact set is the right one: one factorization
  // (plus refinement) certifies it. Random eq. 6.1 steps with friction,
  // sticking and sliding contacts, and redundant ones (more contact rows than
  // the bodies have dofs).
  std::mt19937 rng(7);
  int solved = 0, total = 0;
  for (int rep = 0; rep < 40; ++rep) {
    const int bodies = 1 + rep % 4;
    const test::StewartTrinkleStep st = test::structured_step(rng, bodies, 1 + (rep * 5) % (3 * bodies), 3 + rep % 5);
    VecX zl = VecX::Zero(st.lcp.size());
    if (!LemkeSolver(options()).solve(st.lcp, zl).ok()) continue;
    ++total;
    VecX z = zl;
    ActiveSetSolver solver(options());
    const SolverResult r = solver.solve(without_matrix(st.lcp), z);
    const std::string what = "rep " + std::to_string(rep);
    expect_certified(st.lcp, z, r, what);
    if (r.ok()) {
      ++solved;
      EXPECT_LE(r.iterations, 2) << what;
      EXPECT_LE(test::stewart_trinkle_violation(st, z), test::threshold(st.lcp, kTolerance)) << what;
    }
  }
  ASSERT_GE(total, 30);
  EXPECT_GE(solved, total - 2);  // a degenerate support may need Lemke
}

TEST(ActiveSet, FromAColdStartItNeverClaimsAnUncertifiedPoint) {
  // Friction makes A neither symmetric nor a P-matrix: block pivoting may cycle
  // or run out of systems. Whatever it returns, Solved is certified, and the
  // chain [active-set, lemke] solves every problem Lemke solves.
  std::mt19937 rng(11);
  int solved = 0;
  for (int rep = 0; rep < 40; ++rep) {
    const int bodies = 1 + rep % 4;
    const test::StewartTrinkleStep st = test::structured_step(rng, bodies, 1 + (rep * 3) % (2 * bodies), 4);
    VecX z = VecX::Zero(st.lcp.size());
    const SolverResult r = ActiveSetSolver(options()).solve(without_matrix(st.lcp), z);
    expect_certified(st.lcp, z, r, "rep " + std::to_string(rep));
    solved += r.ok();
    if (r.ok()) continue;
    EXPECT_NE(r.status, SolverStatus::Solved);
    EXPECT_FALSE(r.message.empty());
    VecX zl = z;  // the chain: Lemke from the active set's best point
    LcpProblem dense = st.lcp;
    const SolverResult rl = LemkeSolver(options()).solve(dense, zl);
    VecX zc = VecX::Zero(st.lcp.size());
    EXPECT_EQ(rl.ok(), LemkeSolver(options()).solve(dense, zc).ok()) << "rep " << rep;
  }
  EXPECT_GE(solved, 20);
}

TEST(ActiveSet, FrictionlessIndependentContactsGiveLemkesImpulses) {
  // Normal rows only, fewer contacts than dofs and random directions: A_nn is
  // positive definite, the LCP has one solution, and two certified points lie
  // within the Mathias-Pang distance of their residuals.
  std::mt19937 rng(3);
  for (int rep = 0; rep < 30; ++rep) {
    const int bodies = 1 + rep % 3;
    const int contacts = 1 + rep % (5 * bodies);
    test::StewartTrinkleStep st = test::structured_step(rng, bodies, contacts, 1);
    LcpProblem p;
    p.A = st.lcp.A.topLeftCorner(contacts, contacts);
    p.b = st.lcp.b.head(contacts);
    p.role.assign(contacts, RowRole::Normal);
    p.contact_of.assign(contacts, -1);
    p.structure.rows.assign(st.lcp.structure.rows.begin(), st.lcp.structure.rows.begin() + contacts);
    p.structure.inverse_mass = st.lcp.structure.inverse_mass;
    VecX zl = VecX::Zero(contacts), z = VecX::Zero(contacts);
    ASSERT_TRUE(LemkeSolver(options()).solve(p, zl).ok()) << rep;
    const SolverResult r = ActiveSetSolver(options()).solve(without_matrix(p), z);
    const std::string what = "rep " + std::to_string(rep);
    ASSERT_EQ(r.status, SolverStatus::Solved) << what << ": " << r.message;
    expect_certified(p, z, r, what);
    const double residuals = test::lcp_violation(p, z) + test::lcp_violation(p, zl);
    EXPECT_LE((z - zl).norm(), test::spd_solution_distance_bound(p.A, residuals) + 1e-12) << what;
  }
}

TEST(ActiveSet, AWrongWarmStartBeyondItsBudgetEscalates) {
  // The warm start claims every row active (a stale contact set); with one
  // linear system allowed the pivots cannot reach the solution: the solver
  // must say so (MaxIterations, the best point in z) instead of claiming it.
  std::mt19937 rng(5);
  int escalated = 0;
  for (int rep = 0; rep < 10; ++rep) {
    const test::StewartTrinkleStep st = test::structured_step(rng, 3, 8, 4);
    VecX z = VecX::Ones(st.lcp.size());
    const SolverResult r = ActiveSetSolver(options(1)).solve(without_matrix(st.lcp), z);
    expect_certified(st.lcp, z, r, "rep " + std::to_string(rep));
    if (r.ok()) continue;
    ++escalated;
    EXPECT_EQ(r.status, SolverStatus::MaxIterations) << r.message;
    EXPECT_EQ(r.iterations, 1);
    EXPECT_EQ(z.size(), st.lcp.size());
    EXPECT_TRUE(z.allFinite());
    EXPECT_GE(z.minCoeff(), 0.0);
  }
  EXPECT_GE(escalated, 8);
}

TEST(ActiveSet, ColdStartSolvesABoxOnTheGround) {
  // One unit cube falling onto the ground on its four bottom corners, with
  // friction (mu 0.5, four directions): the corners' rows are redundant (4
  // rows, 3 dofs), which the regularized, refined system must get through.
  test::StewartTrinkleStep st;
  st.bodies = 1;
  st.contacts = 4;
  st.directions = 4;
  st.Minv = MatX::Identity(6, 6);
  st.Minv.bottomRightCorner(3, 3) *= 6.0;  // a 1 kg unit cube: I = 1/6
  st.Gn = MatX::Zero(6, 4);
  st.Gf = MatX::Zero(6, 16);
  st.mu = VecX::Constant(4, 0.5);
  st.gap_rate = VecX::Zero(4);
  st.nu_free = VecX::Zero(6);
  st.nu_free(2) = -0.05;  // falling at 5 cm/s, a little sideways
  st.nu_free(0) = 0.01;
  const Vec3 n = Vec3::UnitZ();
  const Vec3 dirs[4] = {Vec3::UnitX(), Vec3::UnitY(), -Vec3::UnitX(), -Vec3::UnitY()};
  for (int c = 0; c < 4; ++c) {
    const Vec3 r(c % 2 ? 0.5 : -0.5, c / 2 ? 0.5 : -0.5, -0.5);
    st.Gn.col(c) << n, r.cross(n);
    for (int k = 0; k < 4; ++k) st.Gf.col(4 * c + k) << dirs[k], r.cross(dirs[k]);
  }
  // the fixture's layout (lcp_fixtures.hpp), its A and its structure
  std::mt19937 rng(1);
  test::StewartTrinkleStep full = test::random_stewart_trinkle(rng, 1, 4, 4);
  full.Minv = st.Minv, full.Gn = st.Gn, full.Gf = st.Gf, full.mu = st.mu, full.gap_rate = st.gap_rate,
  full.nu_free = st.nu_free;
  MatX G(6, 20);
  G << full.Gn, full.Gf;
  full.lcp.A.topLeftCorner(20, 20) = G.transpose() * full.Minv * G;
  full.lcp.b.setZero();
  full.lcp.b.head(20) = G.transpose() * full.nu_free;
  for (int c = 0; c < 4; ++c) full.lcp.A(20 + c, c) = 0.5;
  full.lcp.structure = test::structure_of(full);
  VecX z = VecX::Zero(full.lcp.size());
  const SolverResult r = ActiveSetSolver(options()).solve(without_matrix(full.lcp), z);
  ASSERT_EQ(r.status, SolverStatus::Solved) << r.message;
  expect_certified(full.lcp, z, r, "box");
  // the corners push (1 kg at 5 cm/s), and the eq. 6.1 conditions hold on the physics
  EXPECT_GT(z.head(4).sum(), 0.04);
  EXPECT_LE(test::stewart_trinkle_violation(full, z), test::threshold(full.lcp, kTolerance));
}

}  // namespace
}  // namespace pegsim
