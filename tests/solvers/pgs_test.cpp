// Projected Gauss-Seidel: plain rows, Stewart-Trinkle blocks, honesty of its reports.
#include "solvers/pgs.hpp"

#include "solvers/lcp_fixtures.hpp"

#include <gtest/gtest.h>

namespace pegsim {
namespace {

using test::lcp_violation;

using test::threshold;

SolverResult solve_pgs(const LcpProblem& p, VecX& z, SolverOptions options = {}) {
  if (options.max_iterations == 0) options.max_iterations = 5000;
  PgsSolver pgs(options);
  if (z.size() != p.size()) z = VecX::Zero(p.size());
  return pgs.solve(p, z);
}

TEST(CappedSimplexProjection, SatisfiesTheProjectionKktConditions) {
  // x = argmin |x - y|^2 over {x >= 0, sum x <= cap} iff, for some s >= 0
  // with s (cap - sum x) = 0:  x_i = y_i - s where x_i > 0, y_i <= s where x_i = 0.
  std::mt19937 rng(4);
  for (int rep = 0; rep < 200; ++rep) {
    const int m = 1 + rep % 9;
    VecX y(m);
    for (int i = 0; i < m; ++i) y(i) = test::uniform(rng, -1.0, 2.0);
    const double cap = rep % 7 == 0 ? 0.0 : test::uniform(rng, 0.0, 3.0);
    VecX x = y;
    project_onto_capped_simplex(x, cap);
    ASSERT_GE(x.minCoeff(), 0.0);
    ASSERT_LE(x.sum(), cap + 1e-12);
    // s from any positive component; with x = 0 and cap = 0 any s >= max y fits
    double s = cap > 0.0 ? 0.0 : std::max(0.0, y.maxCoeff());
    for (int i = 0; i < m; ++i)
      if (x(i) > 0.0) s = y(i) - x(i);
    EXPECT_GE(s, -1e-12);
    if (s > 1e-12) {
      EXPECT_NEAR(x.sum(), cap, 1e-12);
    }
    for (int i = 0; i < m; ++i) {
      if (x(i) > 0.0)
        EXPECT_NEAR(x(i), y(i) - s, 1e-12);
      else
        EXPECT_LE(y(i), s + 1e-12);
    }
  }
}

TEST(Pgs, SolvesRandomPositiveDefiniteLcps) {
  std::mt19937 rng(31);
  for (int n : {5, 12, 40, 80}) {
    const LcpProblem p = test::random_spd_lcp(rng, n);
    VecX z;
    const SolverResult r = solve_pgs(p, z);
    ASSERT_EQ(r.status, SolverStatus::Solved) << r.message;
    EXPECT_LE(lcp_violation(p, z), threshold(p));
    EXPECT_GT(r.iterations, 0);
    EXPECT_TRUE(r.message.empty());
  }
}

TEST(Pgs, OverAndUnderRelaxationConverge) {
  // PSOR (eq. 2.46) converges for symmetric positive definite A and 0 < lambda < 2
  std::mt19937 rng(32);
  const LcpProblem p = test::random_spd_lcp(rng, 30);
  for (double lambda : {0.6, 1.0, 1.4}) {
    SolverOptions options;
    options.relaxation = lambda;
    VecX z;
    const SolverResult r = solve_pgs(p, z, options);
    ASSERT_EQ(r.status, SolverStatus::Solved) << "lambda " << lambda;
    EXPECT_LE(lcp_violation(p, z), threshold(p));
  }
}

TEST(Pgs, ReportsTheIterationLimitHonestly) {
  std::mt19937 rng(33);
  const LcpProblem p = test::random_spd_lcp(rng, 60, 0.01);  // slow to converge
  SolverOptions options;
  options.max_iterations = 2;
  VecX z;
  const SolverResult r = solve_pgs(p, z, options);
  EXPECT_EQ(r.status, SolverStatus::MaxIterations);
  EXPECT_EQ(r.iterations, 2);
  EXPECT_FALSE(r.message.empty());
  SolverResult measured;
  measure_residuals(p, z, measured);  // the reported residuals are those of the returned z
  EXPECT_DOUBLE_EQ(r.complementarity, measured.complementarity);
  EXPECT_DOUBLE_EQ(r.feasibility, measured.feasibility);
}

TEST(Pgs, WarmStartFromTheSolutionConvergesInOneSweep) {
  std::mt19937 rng(34);
  const LcpProblem p = test::random_spd_lcp(rng, 40);
  SolverOptions tight;
  tight.tolerance = 1e-13;
  VecX z;
  ASSERT_EQ(solve_pgs(p, z, tight).status, SolverStatus::Solved);
  const SolverResult r = solve_pgs(p, z);
  EXPECT_EQ(r.status, SolverStatus::Solved);
  EXPECT_EQ(r.iterations, 1);
}

TEST(Pgs, RejectsAZeroDiagonalOnAPlainRow) {
  LcpProblem p;
  p.A.resize(2, 2);
  p.A << 0, 1,
         1, 1;
  p.b = -VecX::Ones(2);
  VecX z;
  const SolverResult r = solve_pgs(p, z);
  EXPECT_EQ(r.status, SolverStatus::Unsupported);
  EXPECT_NE(r.message.find("diagonal"), std::string::npos);
}

TEST(Pgs, SolvesFreeRowsWithoutProjection) {
  // Free rows (eq. 2.28): w_i = 0 with z_i of either sign
  std::mt19937 rng(35);
  LcpProblem p = test::random_spd_lcp(rng, 10);
  p.bound.assign(10, RowBound::NonNegative);
  p.bound[2] = p.bound[7] = RowBound::Free;
  p.b(2) = 3.0;  // pushes z_2 negative
  VecX z;
  const SolverResult r = solve_pgs(p, z);
  ASSERT_EQ(r.status, SolverStatus::Solved) << r.message;
  const VecX w = p.A * z + p.b;
  EXPECT_LT(z(2), 0.0);
  EXPECT_NEAR(w(2), 0.0, threshold(p));
  EXPECT_NEAR(w(7), 0.0, threshold(p));
  for (int i = 0; i < 10; ++i) {
    if (i == 2 || i == 7) continue;
    EXPECT_GE(z(i), -threshold(p));
    EXPECT_GE(w(i), -threshold(p));
    EXPECT_LE(std::abs(std::min(z(i), w(i))), threshold(p));
  }
}

TEST(Pgs, SolvesStewartTrinkleProblems) {
  std::mt19937 rng(36);
  struct Shape { int bodies, contacts, directions; };
  for (const Shape s : {Shape{1, 1, 4}, Shape{2, 3, 4}, Shape{3, 4, 7}, Shape{6, 10, 4}}) {
    for (int rep = 0; rep < 4; ++rep) {
      const test::StewartTrinkleStep st =
          test::random_stewart_trinkle(rng, s.bodies, s.contacts, s.directions);
      VecX z;
      const SolverResult r = solve_pgs(st.lcp, z);
      ASSERT_EQ(r.status, SolverStatus::Solved) << r.message;
      EXPECT_LE(test::stewart_trinkle_violation(st, z), threshold(st.lcp, 1e-8));
    }
  }
}

TEST(Pgs, FrictionlessContactsKeepZeroFriction) {
  // mu = 0: the cone {p_f >= 0, sum p_f <= 0} is {0}; s takes the smallest
  // value with v_f + s >= 0 (eq. 2.21)
  std::mt19937 rng(37);
  const test::StewartTrinkleStep st = test::random_stewart_trinkle(rng, 2, 4, 4, 0.0);
  VecX z;
  const SolverResult r = solve_pgs(st.lcp, z);
  ASSERT_EQ(r.status, SolverStatus::Solved) << r.message;
  EXPECT_EQ(z.segment(st.contacts, st.contacts * st.directions).cwiseAbs().maxCoeff(), 0.0);
  EXPECT_LE(test::stewart_trinkle_violation(st, z), threshold(st.lcp, 1e-8));
}

TEST(Pgs, RejectsSlipRowsWithoutTheStewartTrinkleStructure) {
  std::mt19937 rng(38);
  const test::StewartTrinkleStep st = test::random_stewart_trinkle(rng, 2, 2, 4);
  const int slip = st.lcp.size() - 1;
  const int friction = st.contacts + st.directions;  // first friction row of contact 1
  {
    LcpProblem p = st.lcp;
    p.A(friction, slip) = 2.0;  // E must hold ones
    VecX z;
    EXPECT_EQ(solve_pgs(p, z).status, SolverStatus::Unsupported);
  }
  {
    LcpProblem p = st.lcp;
    p.contact_of[slip] = -1;  // a slip row that names no contact
    VecX z;
    const SolverResult r = solve_pgs(p, z);
    EXPECT_EQ(r.status, SolverStatus::Unsupported);
    EXPECT_FALSE(r.message.empty());
  }
}

}  // namespace
}  // namespace pegsim
