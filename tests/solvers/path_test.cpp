// What is particular to "path" (path.hpp): the Newton method does the work on
// ordinary problems, Lemke is the fall back and the message says when it was
// used, Free rows reach Lemke through the Schur complement, and nothing is
// claimed Solved that is not. Thresholds are the solver's own
// (newton_fixtures.hpp: tolerance (1 + |b|_inf)).
#include "solvers/path.hpp"

#include "solvers/feasibility_lp.hpp"
#include "solvers/lcp_file.hpp"
#include "solvers/lcp_fixtures.hpp"
#include "solvers/newton_fixtures.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace pegsim {
namespace {

using test::residual_of;
using test::solver_threshold;

SolverResult solve_path(const LcpProblem& p, VecX& z, SolverOptions options = {}) {
  PathSolver path(options);
  if (z.size() != p.size()) z = VecX::Zero(p.size());
  return path.solve(p, z);
}

bool used_lemke(const SolverResult& r) { return r.message.find("Lemke fall back used") != std::string::npos; }

// A 3x3 problem (found by a seeded random search, data with three digits)
// where the Fischer-Burmeister Newton method stalls at a stationary point of
// its merit and Lemke's method solves it: z = (1.01378, 0.600222, 0).
LcpProblem newton_stalls() {
  LcpProblem p;
  p.A.resize(3, 3);
  p.b.resize(3);
  p.A << -0.645, -0.515, 0.613,  //
      0.339, -0.316, 0.102,      //
      0.379, 0.619, -0.419;
  p.b << 0.963, -0.154, 0.4;
  return p;
}

TEST(Path, NewtonAloneSolvesOrdinaryProblems) {
  // positive definite, Stewart-Trinkle and the captured stack3d steps: no
  // Lemke (an empty message says so), and the iterations are Newton's
  std::vector<LcpProblem> problems;
  std::mt19937 rng(41);
  for (int n = 10; n <= 70; n += 20) problems.push_back(test::random_spd_lcp(rng, n));
  for (int rep = 0; rep < 12; ++rep)
    problems.push_back(test::random_stewart_trinkle(rng, 2 + rep % 4, 1 + rep % 7, 4 + 2 * (rep % 3)).lcp);
  problems.push_back(test::load_lcp_file(test::data_path("stack3d_step818.lcp")));
  for (std::size_t k = 0; k < problems.size(); ++k) {
    VecX z;
    const SolverResult r = solve_path(problems[k], z);
    ASSERT_EQ(r.status, SolverStatus::Solved) << "problem " << k << ": " << r.message;
    EXPECT_TRUE(r.message.empty()) << "problem " << k << ": " << r.message;
    EXPECT_EQ(r.regularization_level, 0);
    EXPECT_LE(r.iterations, PathSolver::kCrashSteps + PathSolver::kDefaultMaxIterations);
  }
}

TEST(Path, TheCrashSolvesAWarmStartWithTheRightActiveSet) {
  // last step's impulses, 10% off but on the same support: the crash's
  // active-set step lands on the solution
  std::mt19937 rng(43);
  for (int rep = 0; rep < 6; ++rep) {
    const LcpProblem p = test::random_spd_lcp(rng, 20 + 10 * rep);
    VecX z;
    ASSERT_EQ(solve_path(p, z).status, SolverStatus::Solved);
    VecX warm = 1.1 * z;
    const SolverResult r = solve_path(p, warm);
    ASSERT_EQ(r.status, SolverStatus::Solved) << r.message;
    EXPECT_LE(r.iterations, 2) << "problem " << rep;  // one crash step, at most one Newton iteration
    EXPECT_LE((warm - z).cwiseAbs().maxCoeff(), 1e-9 * (1.0 + z.cwiseAbs().maxCoeff()));
  }
}

TEST(Path, LemkeTakesOverWhenNewtonStalls) {
  const LcpProblem p = newton_stalls();
  VecX zf = VecX::Zero(3);
  EXPECT_NE(make_solver("fischer-newton", {})->solve(p, zf).status, SolverStatus::Solved);
  VecX z;
  const SolverResult r = solve_path(p, z);
  ASSERT_EQ(r.status, SolverStatus::Solved) << r.message;
  EXPECT_TRUE(used_lemke(r)) << r.message;
  EXPECT_NE(r.message.find("Newton stalled"), std::string::npos) << r.message;
  EXPECT_LE(test::lcp_violation(p, z), solver_threshold(p));
  EXPECT_NEAR(z(0), 1.01378, 1e-4);
  EXPECT_NEAR(z(1), 0.600222, 1e-4);
  EXPECT_EQ(z(2), 0.0);
}

TEST(Path, FreeRowsReachLemkeThroughTheSchurComplement) {
  // newton_stalls() as the Schur complement of an MLCP with one Free row:
  // A_FF = 1, A_FN = u', A_NN = A + u u', b_F = 0, so the reduced LCP is
  // newton_stalls() itself, and z_F = -u'z_N.
  const LcpProblem lcp = newton_stalls();
  const Vec3 u(0.3, -0.2, 0.1);
  LcpProblem m;
  m.A.resize(4, 4);
  m.A(0, 0) = 1.0;
  m.A.block(0, 1, 1, 3) = u.transpose();
  m.A.block(1, 0, 3, 1) = u;
  m.A.block(1, 1, 3, 3) = lcp.A + u * u.transpose();
  m.b.resize(4);
  m.b << 0.0, lcp.b;
  m.bound = {RowBound::Free, RowBound::NonNegative, RowBound::NonNegative, RowBound::NonNegative};
  VecX z;
  const SolverResult r = solve_path(m, z);
  ASSERT_EQ(r.status, SolverStatus::Solved) << r.message;
  EXPECT_NE(r.message.find("Schur complement"), std::string::npos) << r.message;
  EXPECT_LE(test::mlcp_violation(m, z), solver_threshold(m));
  EXPECT_NEAR(z(0), -u.dot(z.tail(3)), 1e-12);

  // the same with the Free row doubled (a redundant joint): A_FF singular,
  // one of the two is dropped (z = 0) and the other carries the impulse
  LcpProblem d;
  d.A = MatX::Zero(5, 5);
  d.A.block(1, 1, 4, 4) = m.A;
  d.A.row(0) = d.A.row(1);
  d.A.col(0) = d.A.col(1);
  d.b.resize(5);
  d.b << 0.0, m.b;
  d.bound = {RowBound::Free, RowBound::Free, RowBound::NonNegative, RowBound::NonNegative, RowBound::NonNegative};
  VecX zd;
  const SolverResult rd = solve_path(d, zd);
  ASSERT_EQ(rd.status, SolverStatus::Solved) << rd.message;
  EXPECT_NE(rd.message.find("1 dependent Free rows dropped"), std::string::npos) << rd.message;
  EXPECT_LE(test::mlcp_violation(d, zd), solver_threshold(d));
  EXPECT_NEAR(zd(0) + zd(1), z(0), 1e-9);
}

TEST(Path, IterationLimitAppliesToNewtonAndToLemke) {
  // SolverOptions::max_iterations caps each phase: Newton iterations, then
  // Lemke's pivots (path.hpp); a problem that needs more is not Solved
  const LcpProblem p = newton_stalls();
  SolverOptions options;
  options.max_iterations = 1;
  VecX z;
  const SolverResult r = solve_path(p, z, options);
  EXPECT_NE(r.status, SolverStatus::Solved);
  EXPECT_NE(r.message.find("iteration limit after 1 iterations"), std::string::npos) << r.message;
  EXPECT_GT(residual_of(r), solver_threshold(p));
}

TEST(Path, InfeasibleProblemsAreNeverClaimedSolved) {
  // w = -z - 1 < 0 for every z >= 0: Lemke's row certificate makes it Infeasible
  LcpProblem p;
  p.A = -MatX::Identity(3, 3);
  p.b = VecX::Constant(3, -1.0);
  VecX z;
  SolverResult r = solve_path(p, z);
  EXPECT_EQ(r.status, SolverStatus::Infeasible) << r.message;
  EXPECT_TRUE(used_lemke(r)) << r.message;
  EXPECT_EQ(r.message.find("restart"), std::string::npos) << r.message;  // a certificate ends the search
  EXPECT_GT(residual_of(r), solver_threshold(p));

  // the captured 2D stack step that a feasibility LP proves infeasible
  const LcpProblem q = test::load_lcp_file(test::data_path("stack2d_step92.lcp"));
  const test::FeasibilityLp lp = test::solve_feasibility_lp(q.A, q.b);
  ASSERT_GT(lp.t, 1e-8);
  VecX zq;
  r = solve_path(q, zq);
  EXPECT_NE(r.status, SolverStatus::Solved) << r.message;
  EXPECT_GT(residual_of(r), solver_threshold(q));
  EXPECT_TRUE(zq.allFinite());
  SolverResult check;
  measure_residuals(q, zq, check);
  EXPECT_DOUBLE_EQ(check.complementarity, r.complementarity);
}

}  // namespace
}  // namespace pegsim
