// Lemke's method: solutions, shortcuts, degeneracy, infeasibility, regularisation.
#include "solvers/lemke.hpp"

#include "solvers/lcp_fixtures.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <set>
#include <vector>

namespace pegsim {
namespace {

using test::lcp_violation;

using test::threshold;

SolverResult solve_lemke(const LcpProblem& p, VecX& z, SolverOptions options = {}) {
  LemkeSolver lemke(options);
  if (z.size() != p.size()) z = VecX::Zero(p.size());
  return lemke.solve(p, z);
}

TEST(Lemke, SolvesRandomPositiveDefiniteLcps) {
  std::mt19937 rng(20240601);
  for (int n : {5, 9, 17, 33, 50, 80}) {
    for (int rep = 0; rep < 3; ++rep) {
      const LcpProblem p = test::random_spd_lcp(rng, n);
      VecX z;
      const SolverResult r = solve_lemke(p, z);
      ASSERT_EQ(r.status, SolverStatus::Solved) << "n=" << n << " " << r.message;
      EXPECT_LE(lcp_violation(p, z), threshold(p)) << "n=" << n;
      EXPECT_EQ(r.regularization_level, 0);
      EXPECT_GT(r.iterations, 0);
      EXPECT_LE(r.iterations, LemkeSolver::default_pivot_limit(n));
      EXPECT_GE(r.seconds, 0.0);
      EXPECT_TRUE(r.message.empty());
    }
  }
}

TEST(Lemke, NonNegativeBGivesTheTrivialSolutionWithoutPivoting) {
  std::mt19937 rng(3);
  LcpProblem p = test::random_spd_lcp(rng, 12);
  p.b = p.b.cwiseAbs();
  VecX z = VecX::Ones(12);  // a warm start is ignored: z = 0 is known to solve
  const SolverResult r = solve_lemke(p, z);
  EXPECT_EQ(r.status, SolverStatus::Solved);
  EXPECT_EQ(r.iterations, 0);
  EXPECT_EQ(z, VecX::Zero(12));
}

TEST(Lemke, WarmStartFromTheSolutionNeedsNoPivot) {
  std::mt19937 rng(11);
  const LcpProblem p = test::random_spd_lcp(rng, 60);
  VecX z;
  const SolverResult cold = solve_lemke(p, z);
  ASSERT_EQ(cold.status, SolverStatus::Solved);
  ASSERT_GT(cold.iterations, 0);
  VecX warm = z;
  const SolverResult r = solve_lemke(p, warm);
  EXPECT_EQ(r.status, SolverStatus::Solved);
  EXPECT_EQ(r.iterations, 0);
  EXPECT_LE((warm - z).cwiseAbs().maxCoeff(), 1e-10);
}

TEST(Lemke, WarmStartSolvesStewartTrinkleStepsWithoutPivoting) {
  // Separating contacts that slide have s > 0 with p_n = p_f = 0: the warm
  // start must add the friction row that fixes s to the support's active set.
  std::mt19937 rng(13);
  for (int rep = 0; rep < 8; ++rep) {
    const test::StewartTrinkleStep st = test::random_stewart_trinkle(rng, 3 + rep, 4 + 2 * rep, 4);
    VecX z;
    const SolverResult cold = solve_lemke(st.lcp, z);
    ASSERT_EQ(cold.status, SolverStatus::Solved);
    VecX warm = z;
    const SolverResult r = solve_lemke(st.lcp, warm);
    EXPECT_EQ(r.status, SolverStatus::Solved);
    EXPECT_EQ(r.iterations, 0) << "scene " << rep;
    EXPECT_LE(test::stewart_trinkle_violation(st, warm), threshold(st.lcp));
  }
}

TEST(Lemke, AWrongWarmStartFallsBackToPivoting) {
  std::mt19937 rng(12);
  const LcpProblem p = test::random_spd_lcp(rng, 30);
  VecX z = VecX::Ones(30);  // every row guessed active: infeasible guess
  const SolverResult r = solve_lemke(p, z);
  EXPECT_EQ(r.status, SolverStatus::Solved);
  EXPECT_GT(r.iterations, 0);
  EXPECT_LE(lcp_violation(p, z), threshold(p));
}

// The textbook form of the method with the naive tie rule "lowest row index"
// (in the first pivot and in every ratio test, z0 preferred when tied), on a
// plain tableau. Returns true when a basis repeats (the method cycles).
bool naive_lemke_cycles(const MatX& M, const VecX& q) {
  const int n = static_cast<int>(q.size());
  MatX T = MatX::Zero(n, 2 * n + 2);  // [w | z | z0 | q] with w - M z - 1 z0 = q
  T.leftCols(n).setIdentity();
  T.middleCols(n, n) = -M;
  T.col(2 * n).setConstant(-1.0);
  T.col(2 * n + 1) = q;
  std::vector<int> basis(n);
  for (int i = 0; i < n; ++i) basis[i] = i;
  auto pivot = [&](int r, int e) {
    T.row(r) /= T(r, e);
    for (int i = 0; i < n; ++i)
      if (i != r) T.row(i) -= T(i, e) * T.row(r);
    return std::exchange(basis[r], e);
  };
  int first = 0;
  for (int i = 1; i < n; ++i)
    if (q(i) < q(first)) first = i;
  int leaving = pivot(first, 2 * n);
  std::set<std::vector<int>> seen;
  for (int it = 0; it < 100; ++it) {
    const int entering = leaving < n ? leaving + n : leaving - n;
    std::vector<int> key = basis;
    std::sort(key.begin(), key.end());
    if (!seen.insert(key).second) return true;
    int r = -1;
    for (int i = 0; i < n; ++i) {
      if (T(i, entering) <= 1e-12) continue;
      const double ratio = T(i, 2 * n + 1) / T(i, entering);
      const double best = r < 0 ? 0.0 : T(r, 2 * n + 1) / T(r, entering);
      if (r < 0 || ratio < best - 1e-12 || (ratio <= best + 1e-12 && basis[i] == 2 * n)) r = i;
    }
    if (r < 0) return false;  // ray
    leaving = pivot(r, entering);
    if (leaving == 2 * n) return false;  // solved
  }
  return false;
}

TEST(Lemke, LexicographicRuleSolvesADegenerateProblemThatCyclesOtherwise) {
  // Found by a search over small integer LCPs, checked by hand in exact
  // arithmetic. All q_i tie, and after the first pivot (z0 in, w1 out) the
  // tableau has qbar = (1, 0, 0): every later pivot is degenerate. With
  // "lowest index among ties" the bases go
  //   {z0,z1,w3} -> {z0,z2,w3} -> {z0,z2,w1} -> {z0,z3,w1} -> {z0,z3,w2}
  //   -> {z0,z1,w2} -> {z0,z1,w3} -> ...
  // forever (z0 never reaches a tied row, so preferring it does not help).
  // The lexicographic rule (ties broken on the rows of [qbar | B^-1] / d_i,
  // the perturbation q + (eps, eps^2, eps^3)) never repeats a basis.
  MatX M(3, 3);
  M << 1, 2, -1,
       0, 1, 3,
       2, -1, 0;
  const VecX q = -VecX::Ones(3);
  ASSERT_TRUE(naive_lemke_cycles(M, q));

  LcpProblem p;
  p.A = M;
  p.b = q;
  VecX z;
  const SolverResult r = solve_lemke(p, z);
  ASSERT_EQ(r.status, SolverStatus::Solved) << r.message;
  EXPECT_EQ(r.regularization_level, 0);
  EXPECT_LE(lcp_violation(p, z), 1e-12);
  EXPECT_LE(r.iterations, 10);
}

TEST(Lemke, CertifiesAnInfeasibleRow) {
  // w = -z - 1 < 0 for every z >= 0: the row is its own Farkas certificate
  LcpProblem p;
  p.A = -MatX::Ones(1, 1);
  p.b = -VecX::Ones(1);
  VecX z;
  const SolverResult r = solve_lemke(p, z);
  EXPECT_EQ(r.status, SolverStatus::Infeasible) << r.message;
  EXPECT_FALSE(r.message.empty());
}

TEST(Lemke, CertifiesAnInfeasiblePositiveSemidefiniteLcp) {
  // w1 + w2 = -2 for every z: infeasible although no single row shows it.
  // A is PSD, hence copositive-plus, so Lemke's ray is a certificate y with
  // A'y <= 0, b'y < 0 (y = (1, 1) up to scale).
  LcpProblem p;
  p.A.resize(2, 2);
  p.A << 1, -1,
         -1, 1;
  p.b = -VecX::Ones(2);
  VecX z;
  const SolverResult r = solve_lemke(p, z);
  EXPECT_EQ(r.status, SolverStatus::Infeasible) << r.message;
}

TEST(Lemke, FeasibleButUnsolvableIsARayNotInfeasible) {
  // A = [0 0; 1 0], b = (1, -1): z = (1, 0) is feasible (w = (1, 0)), so no
  // infeasibility certificate exists, but there is no complementary solution:
  // w1 = 1 forces z1 = 0, and then w2 = -1. Lemke ends on a ray; the
  // regularised problems have solutions that violate the original one.
  LcpProblem p;
  p.A.resize(2, 2);
  p.A << 0, 0,
         1, 0;
  p.b.resize(2);
  p.b << 1, -1;
  VecX z;
  const SolverResult r = solve_lemke(p, z);
  EXPECT_EQ(r.status, SolverStatus::RayTermination) << r.message;
  EXPECT_FALSE(r.message.empty());
}

// b = -A c + e with c, e >= 0: z = c is feasible (w = e), and a feasible LCP
// with a PSD matrix has a solution (Cottle-Pang-Stone thm 3.8.6 / Lemke).
LcpProblem feasible_psd_lcp(std::mt19937& rng, const MatX& G) {
  const int n = static_cast<int>(G.rows());
  LcpProblem p;
  p.A = G * G.transpose();
  VecX c(n), e(n);
  for (int i = 0; i < n; ++i) {
    c(i) = std::max(0.0, test::uniform(rng, -1.0, 1.0));
    e(i) = std::max(0.0, test::uniform(rng, -1.0, 1.0));
  }
  p.b = -p.A * c + e;
  return p;
}

TEST(Lemke, SolvesSingularPositiveSemidefiniteLcpsWithDuplicatedRows) {
  // A = G G' with every row of G twice: rank deficient like the normal block
  // of redundant contacts. Plain pivoting or the ladder must deliver a
  // solution of the ORIGINAL problem.
  std::mt19937 rng(5);
  for (int rep = 0; rep < 20; ++rep) {
    const int n = 4 + 2 * (rep % 8);
    MatX G = test::random_matrix(rng, n, 1 + rep % 4);
    for (int i = 0; i < n / 2; ++i) G.row(n / 2 + i) = G.row(i);
    const LcpProblem p = feasible_psd_lcp(rng, G);
    VecX z;
    const SolverResult r = solve_lemke(p, z);
    ASSERT_EQ(r.status, SolverStatus::Solved) << r.message;
    EXPECT_LE(lcp_violation(p, z), threshold(p));
  }
}

TEST(Lemke, SolvesNearlyRedundantProblems) {
  // Rows duplicated up to 1e-10: A has eigenvalues near 1e-20 next to O(1).
  // Plain pivoting meets pivots below its tolerance and loses accuracy; the
  // polish (the final active set solved on the original data, dependent rows
  // dropped) must then deliver the ORIGINAL problem's solution, with the
  // Tikhonov ladder as the last resort. Whatever is not solved must say so,
  // never claim Solved.
  std::mt19937 rng(5);
  int solved = 0;
  const int problems = 300;
  for (int rep = 0; rep < problems; ++rep) {
    const int n = 4 + rep % 20;
    const int k = 3 + rep % 2;
    MatX G = test::random_matrix(rng, n, k);
    for (int i = 0; i < n / 2; ++i)
      G.row(n / 2 + i) = G.row(i) + 1e-10 * test::random_matrix(rng, 1, k);
    const LcpProblem p = feasible_psd_lcp(rng, G);
    VecX z;
    const SolverResult r = solve_lemke(p, z);
    if (r.status == SolverStatus::Solved) {
      ++solved;
      EXPECT_LE(lcp_violation(p, z), threshold(p)) << "problem " << rep;
    } else {
      EXPECT_NE(r.status, SolverStatus::Infeasible) << "problem " << rep << " is feasible";
      EXPECT_FALSE(r.message.empty());
    }
  }
  EXPECT_GE(solved, problems * 99 / 100);
}

TEST(Lemke, SolvesTheSingularAllOnesProblem) {
  // A = [1 1; 1 1] (PSD, singular), b = (-1, -1): every z >= 0 with
  // z1 + z2 = 1 solves.
  LcpProblem p;
  p.A = MatX::Ones(2, 2);
  p.b = -VecX::Ones(2);
  VecX z;
  const SolverResult r = solve_lemke(p, z);
  ASSERT_EQ(r.status, SolverStatus::Solved) << r.message;
  EXPECT_NEAR(z.sum(), 1.0, 1e-12);
  EXPECT_LE(lcp_violation(p, z), threshold(p));
}

TEST(Lemke, ReportsThePivotLimit) {
  std::mt19937 rng(8);
  const LcpProblem p = test::random_spd_lcp(rng, 40);
  SolverOptions options;
  options.max_iterations = 3;
  VecX z;
  const SolverResult r = solve_lemke(p, z, options);
  EXPECT_EQ(r.status, SolverStatus::MaxIterations) << r.message;
  EXPECT_FALSE(r.message.empty());
}

TEST(Lemke, FreeRowsThroughTheSchurComplement) {
  // z_0 free with w_0 = z_0 + z_1 - 1 = 0 and 0 <= z_1 perp w_1 = z_0 + 2 z_1 + 1 >= 0:
  // z_1 = 0 gives z_0 = 1, w_1 = 2 (z_1 > 0 would need z_0 = 1 - z_1 and w_1 = 2 + z_1 = 0).
  LcpProblem p;
  p.A.resize(2, 2);
  p.A << 1, 1, 1, 2;
  p.b = VecX(2);
  p.b << -1, 1;
  p.bound = {RowBound::Free, RowBound::NonNegative};
  VecX z;
  const SolverResult r = solve_lemke(p, z);
  ASSERT_EQ(r.status, SolverStatus::Solved) << r.message;
  EXPECT_NEAR(z(0), 1.0, 1e-12);
  EXPECT_NEAR(z(1), 0.0, 1e-12);
}

TEST(Lemke, SolvesStewartTrinkleContactProblems) {
  std::mt19937 rng(77);
  struct Shape { int bodies, contacts, directions; };
  for (const Shape s : {Shape{1, 1, 4}, Shape{2, 3, 4}, Shape{3, 8, 4}, Shape{2, 6, 7},
                        Shape{4, 12, 8}, Shape{6, 20, 4}}) {
    for (const double mass_decades : {0.0, 0.0, 3.0, 6.0}) {  // up to 1e6 mass ratios
      const test::StewartTrinkleStep st = test::random_stewart_trinkle(
          rng, s.bodies, s.contacts, s.directions, 1.0, mass_decades);
      VecX z;
      const SolverResult r = solve_lemke(st.lcp, z);
      ASSERT_EQ(r.status, SolverStatus::Solved) << s.contacts << " contacts: " << r.message;
      EXPECT_LE(test::stewart_trinkle_violation(st, z), threshold(st.lcp, 1e-8));
    }
  }
}

}  // namespace
}  // namespace pegsim
