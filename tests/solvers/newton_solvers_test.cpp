// What every Newton solver ("path", "fischer-newton", "minmap-newton") owes
// the LcpSolver interface (lcp.hpp): warm starts, options, reports instead of
// exceptions, no NaN, determinism. Thresholds are the solvers' own
// (newton_fixtures.hpp: tolerance (1 + |b|_inf)).
#include "solvers/lcp.hpp"

#include "solvers/lcp_fixtures.hpp"
#include "solvers/newton_fixtures.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <string>

namespace pegsim {
namespace {

using test::residual_of;
using test::solver_threshold;

class NewtonSolver : public ::testing::TestWithParam<std::string> {
 protected:
  SolverResult solve(const LcpProblem& p, VecX& z, SolverOptions options = {}) {
    const std::unique_ptr<LcpSolver> solver = make_solver(GetParam(), options);
    EXPECT_NE(solver, nullptr);
    EXPECT_EQ(solver->name(), GetParam());
    return solver->solve(p, z);
  }
};

TEST_P(NewtonSolver, IsRegistered) {
  const std::vector<std::string> names = solver_names();
  EXPECT_NE(std::find(names.begin(), names.end(), GetParam()), names.end());
}

TEST_P(NewtonSolver, EmptyProblemIsSolved) {
  LcpProblem p;
  p.A = MatX(0, 0);
  p.b = VecX(0);
  VecX z(3);
  const SolverResult r = solve(p, z);
  EXPECT_EQ(r.status, SolverStatus::Solved);
  EXPECT_EQ(z.size(), 0);
}

TEST_P(NewtonSolver, MalformedProblemsAreReportedNotThrown) {
  std::mt19937 rng(1);
  LcpProblem p = test::random_spd_lcp(rng, 6);
  p.A.conservativeResize(6, 5);
  VecX z = VecX::Zero(6);
  EXPECT_EQ(solve(p, z).status, SolverStatus::Unsupported);

  LcpProblem q = test::random_spd_lcp(rng, 6);
  q.A(2, 3) = std::numeric_limits<double>::quiet_NaN();
  z = VecX::Zero(6);
  const SolverResult r = solve(q, z);
  EXPECT_EQ(r.status, SolverStatus::NumericalFailure);
  EXPECT_FALSE(r.message.empty());

  LcpProblem u = test::random_spd_lcp(rng, 6);
  u.b(0) = std::numeric_limits<double>::infinity();
  z = VecX::Zero(6);
  EXPECT_EQ(solve(u, z).status, SolverStatus::NumericalFailure);
}

TEST_P(NewtonSolver, NonNegativeBGivesTheTrivialSolutionWithoutIterating) {
  std::mt19937 rng(3);
  LcpProblem p = test::random_spd_lcp(rng, 12);
  p.b = p.b.cwiseAbs();
  VecX z = VecX::Zero(12);
  const SolverResult r = solve(p, z);
  EXPECT_EQ(r.status, SolverStatus::Solved);
  EXPECT_EQ(r.iterations, 0);
  EXPECT_EQ(z, VecX::Zero(12));
}

TEST_P(NewtonSolver, WarmStartAtTheSolutionNeedsNoIteration) {
  std::mt19937 rng(13);
  for (int rep = 0; rep < 6; ++rep) {
    const test::StewartTrinkleStep st = test::random_stewart_trinkle(rng, 3 + rep, 4 + 2 * rep, 4);
    VecX z = VecX::Zero(st.lcp.size());
    const SolverResult cold = solve(st.lcp, z);
    ASSERT_EQ(cold.status, SolverStatus::Solved) << cold.message;
    VecX warm = z;
    const SolverResult r = solve(st.lcp, warm);
    EXPECT_EQ(r.status, SolverStatus::Solved);
    // the warm start is kept when within the target (nonsmooth_newton.hpp),
    // otherwise one iteration takes it there
    EXPECT_LE(r.iterations, 1) << "scene " << rep;
    EXPECT_LE((warm - z).cwiseAbs().maxCoeff(), 1e-9 * (1.0 + z.cwiseAbs().maxCoeff())) << "scene " << rep;
  }
}

TEST_P(NewtonSolver, UnusableWarmStartsAreReplacedByZero) {
  std::mt19937 rng(17);
  const LcpProblem p = test::random_spd_lcp(rng, 20);
  for (VecX z : {VecX(VecX::Constant(7, 1.0)), VecX(VecX::Constant(20, std::numeric_limits<double>::quiet_NaN())),
                 VecX(VecX::Constant(20, 1e12))}) {
    const SolverResult r = solve(p, z);
    EXPECT_EQ(r.status, SolverStatus::Solved) << r.message;
    ASSERT_EQ(z.size(), 20);
    EXPECT_LE(test::lcp_violation(p, z), solver_threshold(p));
  }
}

TEST_P(NewtonSolver, ToleranceIsHonoured) {
  // a looser tolerance is met with no more iterations, and its residual is
  // within that tolerance's threshold
  std::mt19937 rng(19);
  const test::StewartTrinkleStep st = test::random_stewart_trinkle(rng, 4, 7, 6);
  SolverOptions tight, loose;
  loose.tolerance = 1e-4;
  VecX z1 = VecX::Zero(st.lcp.size()), z2 = z1;
  const SolverResult r1 = solve(st.lcp, z1, tight);
  const SolverResult r2 = solve(st.lcp, z2, loose);
  ASSERT_EQ(r1.status, SolverStatus::Solved) << r1.message;
  ASSERT_EQ(r2.status, SolverStatus::Solved) << r2.message;
  EXPECT_LE(residual_of(r1), test::threshold(st.lcp, tight.tolerance));
  EXPECT_LE(residual_of(r2), test::threshold(st.lcp, loose.tolerance));
  EXPECT_LE(r2.iterations, r1.iterations);
}

TEST_P(NewtonSolver, SameProblemSameBits) {
  std::mt19937 rng(23);
  const test::StewartTrinkleStep st = test::random_stewart_trinkle(rng, 5, 9, 8, 1.0, 2.0);
  VecX z1 = VecX::Zero(st.lcp.size()), z2 = z1;
  const SolverResult r1 = solve(st.lcp, z1);
  const SolverResult r2 = solve(st.lcp, z2);
  EXPECT_EQ(r1.status, r2.status);
  EXPECT_EQ(r1.iterations, r2.iterations);
  EXPECT_EQ(r1.message, r2.message);
  for (int i = 0; i < z1.size(); ++i) EXPECT_EQ(z1(i), z2(i)) << i;  // bitwise, not approximately
}

TEST_P(NewtonSolver, FreeRowsOnlyAreALinearSystem) {
  std::mt19937 rng(29);
  LcpProblem p = test::random_spd_lcp(rng, 15);
  p.bound.assign(15, RowBound::Free);
  VecX z = VecX::Zero(15);
  const SolverResult r = solve(p, z);
  ASSERT_EQ(r.status, SolverStatus::Solved) << r.message;
  const VecX exact = p.A.partialPivLu().solve(-p.b);
  EXPECT_LE((z - exact).cwiseAbs().maxCoeff(), 1e-9 * (1.0 + exact.cwiseAbs().maxCoeff()));
  EXPECT_LE(r.iterations, 2);  // one Newton step solves a linear system
}

TEST_P(NewtonSolver, SingularAndInfeasibleProblemsGiveNoNaN) {
  // Problems without a solution, with singular Jacobians everywhere: the
  // solver must say so, report the residual and return a finite z.
  std::vector<LcpProblem> problems;
  {
    LcpProblem p;  // A = 0, b < 0: w = b < 0 whatever z
    p.A = MatX::Zero(4, 4);
    p.b = VecX::Constant(4, -1.0);
    problems.push_back(p);
  }
  {
    LcpProblem p;  // A = -I, b = -1: w = -z - 1 < 0 for z >= 0
    p.A = -MatX::Identity(3, 3);
    p.b = VecX::Constant(3, -1.0);
    problems.push_back(p);
  }
  {
    LcpProblem p;  // Free rows that contradict each other: z1 + z2 = -1 and z1 + z2 = 1
    p.A = MatX::Ones(2, 2);
    p.b = VecX(2);
    p.b << 1.0, -1.0;
    p.bound.assign(2, RowBound::Free);
    problems.push_back(p);
  }
  {
    LcpProblem p;  // a zero row with b_i < 0 inside an otherwise good problem
    std::mt19937 rng(31);
    p = test::random_spd_lcp(rng, 8);
    p.A.row(5).setZero();
    p.b(5) = -0.5;
    problems.push_back(p);
  }
  for (std::size_t k = 0; k < problems.size(); ++k) {
    const LcpProblem& p = problems[k];
    VecX z = VecX::Zero(p.size());
    const SolverResult r = solve(p, z);
    EXPECT_NE(r.status, SolverStatus::Solved) << "problem " << k;
    EXPECT_FALSE(r.message.empty()) << "problem " << k;
    EXPECT_TRUE(z.allFinite()) << "problem " << k;
    EXPECT_TRUE(std::isfinite(residual_of(r))) << "problem " << k;
    EXPECT_GT(residual_of(r), solver_threshold(p)) << "problem " << k;
    SolverResult check;
    measure_residuals(p, z, check);  // the reported residuals are those of the returned z
    EXPECT_DOUBLE_EQ(check.complementarity, r.complementarity) << "problem " << k;
    EXPECT_DOUBLE_EQ(check.feasibility, r.feasibility) << "problem " << k;
  }
}

TEST_P(NewtonSolver, NonCopositiveProblemWhereLemkeEndsOnARay) {
  // not copositive (newton_fixtures.hpp): Lemke's method ends on a secondary
  // ray, yet z = (2.5998, 1.17113, 0, 0) solves it, and the Newton methods find it
  const LcpProblem p = test::non_copositive_4x4();
  VecX zl = VecX::Zero(4);
  EXPECT_EQ(make_solver("lemke", {})->solve(p, zl).status, SolverStatus::RayTermination);
  VecX z = VecX::Zero(4);
  const SolverResult r = solve(p, z);
  ASSERT_EQ(r.status, SolverStatus::Solved) << r.message;
  EXPECT_LE(test::lcp_violation(p, z), solver_threshold(p));
  EXPECT_NEAR(z(0), 2.5998, 1e-3);
  EXPECT_NEAR(z(1), 1.17113, 1e-3);
}

INSTANTIATE_TEST_SUITE_P(Solvers, NewtonSolver, ::testing::ValuesIn(test::kNewtonSolvers),
                         test::solver_param_name);

// The iteration limit is SolverOptions::max_iterations Newton iterations;
// path then falls back (path_test.cpp), the others stop there.
TEST(NewtonSolverLimits, MaxIterationsStopsFischerAndMinMapNewton) {
  std::mt19937 rng(37);
  const test::StewartTrinkleStep st = test::random_stewart_trinkle(rng, 5, 9, 8);
  for (const char* name : {"fischer-newton", "minmap-newton"}) {
    SolverOptions options;
    options.max_iterations = 1;
    VecX z = VecX::Zero(st.lcp.size());
    const SolverResult r = make_solver(name, options)->solve(st.lcp, z);
    EXPECT_EQ(r.status, SolverStatus::MaxIterations) << name << ": " << r.message;
    EXPECT_EQ(r.iterations, 1) << name;
    EXPECT_GT(residual_of(r), solver_threshold(st.lcp)) << name;
    EXPECT_NE(r.message.find("iteration limit"), std::string::npos) << r.message;
  }
}

}  // namespace
}  // namespace pegsim
