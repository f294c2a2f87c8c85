// A read from the structure (solvers/structured_matrix.hpp) against the dense
// A formed independently (structured_fixtures.hpp: G' M^-1 G as one dense
// product), and Lemke's warm start on the structure (lemke.hpp,
// solve_on_structure) against the tolerance measured on that dense A.
//
// Tolerances: an entry of A is a sum of at most two six-term dot products plus
// C; the structure sums them as assemble_matrix does (equal bits, checked),
// the fixture's dense product G' M^-1 G adds the same terms in other orders,
// so they differ by a few units in the last place of the largest term:
// 1e-14 of max |A| is well above that (2.2e-16 per addition, tens of terms)
// and far below any entry that matters. Solutions are certified by the
// solver's own acceptance threshold, tolerance (1 + |b|_inf), re-measured on
// the dense A.
#include "solvers/lemke.hpp"
#include "solvers/lemke_active_set.hpp"
#include "solvers/structured_matrix.hpp"

#include "solvers/lcp_fixtures.hpp"
#include "solvers/structured_fixtures.hpp"

#include <gtest/gtest.h>

#include <limits>

namespace pegsim {
namespace {

using solver_detail::StructuredMatrix;

constexpr double kTolerance = 1e-9;  // the simulator's (SimOptions::solver_tolerance)

LcpProblem without_matrix(LcpProblem p) {
  p.A.resize(0, 0);
  return p;
}

// Trials 12 to 23 add rows that measure beyond their own column (PEG's R - G,
// LcpStructure::measures): A = R' M^-1 G + C is no longer symmetric in its
// body part, and rows without a Jacobian have entries beyond C.
TEST(StructuredMatrix, ReadsTheEntriesColumnsAndProductsOfTheDenseMatrix) {
  std::mt19937 rng(7);
  for (int trial = 0; trial < 24; ++trial) {
    const int bodies = 2 + trial % 4, contacts = 3 + 2 * (trial % 12), directions = 2 + 2 * (trial % 3);
    test::StewartTrinkleStep st = test::structured_step(rng, bodies, contacts, directions);
    if (trial >= 12) test::add_measures(rng, st);
    const LcpProblem& dense = st.lcp;
    const LcpProblem structured = without_matrix(dense);
    ASSERT_TRUE(StructuredMatrix::describes(structured));
    StructuredMatrix A;
    A.assign(structured);
    const int n = dense.size();
    const double scale = dense.A.cwiseAbs().maxCoeff();
    const double tol = 1e-14 * scale;
    for (int i = 0; i < n; ++i) {
      EXPECT_NEAR(A.diagonal(i), dense.A(i, i), tol) << "trial " << trial << " row " << i;
      for (int j = 0; j < n; ++j) ASSERT_NEAR(A(i, j), dense.A(i, j), tol) << "trial " << trial << " (" << i << ", " << j << ")";
    }
    // the same sums as the assembled A (and the formulation's fill): equal bits
    LcpProblem assembled = structured;
    assemble_matrix(assembled);
    for (int i = 0; i < n; ++i)
      for (int j = 0; j < n; ++j) ASSERT_EQ(A(i, j), assembled.A(i, j)) << "trial " << trial << " (" << i << ", " << j << ")";
    // a principal block, as the sweeps gather it: the same entries
    const int rows[] = {n - 1, 0, n / 2, 1, n / 3};
    std::vector<double> block(25);
    A.block(rows, 5, block.data());
    for (int c = 0; c < 5; ++c)
      for (int r = 0; r < 5; ++r) ASSERT_EQ(block[static_cast<std::size_t>(c * 5 + r)], A(rows[r], rows[c])) << "trial " << trial;
    // columns, one at a time and several at once (summed per body first)
    std::uniform_real_distribution<double> u(-1.0, 1.0);
    VecX z(n);
    for (int i = 0; i < n; ++i) z(i) = u(rng);
    VecX w = VecX::Zero(n);
    for (int j = 0; j < n; j += 3) A.add_column(j, z(j), w);
    std::vector<int> cols;
    std::vector<double> s;
    for (int j = 1; j < n; j += 3) cols.push_back(j), s.push_back(z(j));
    A.add_columns(cols.data(), s.data(), static_cast<int>(cols.size()), w);
    for (int j = 2; j < n; j += 3) A.add_column(j, z(j), w);
    const VecX expected = dense.A * z;
    const double ptol = 1e-14 * scale * z.cwiseAbs().sum();
    EXPECT_LE((w - expected).cwiseAbs().maxCoeff(), ptol) << "trial " << trial;
    VecX product;
    A.product(z, product);
    EXPECT_LE((product - (expected + dense.b)).cwiseAbs().maxCoeff(), ptol) << "trial " << trial;
    // the equilibration of the dense A (slip rows: their coupling entries only)
    VecX D;
    A.equilibration(D);
    const VecX D_dense = lemke_detail::equilibration(dense.A);
    for (int i = 0; i < n; ++i) EXPECT_NEAR(D(i), D_dense(i), 1e-12 * D_dense(i)) << "trial " << trial << " row " << i;
    // and, from the same entries, the assembled A's bit for bit (a row's
    // largest |A_ij| D_j does not depend on the order it is found in)
    const VecX D_assembled = lemke_detail::equilibration(assembled.A);
    for (int i = 0; i < n; ++i) ASSERT_EQ(D(i), D_assembled(i)) << "trial " << trial << " row " << i;
  }
}

TEST(StructuredMatrix, DoesNotDescribeProblemsItCannotRead) {
  std::mt19937 rng(3);
  const test::StewartTrinkleStep st = test::structured_step(rng, 3, 4, 4);
  LcpProblem p = without_matrix(st.lcp);
  ASSERT_TRUE(StructuredMatrix::describes(p));
  LcpProblem dense_only = p;
  dense_only.structure.dense_only = true;  // joint-space terms the structure lacks
  EXPECT_FALSE(StructuredMatrix::describes(dense_only));
  LcpProblem nan_mass = p;
  nan_mass.structure.inverse_mass[1](2, 2) = std::numeric_limits<double>::quiet_NaN();
  EXPECT_FALSE(StructuredMatrix::describes(nan_mass));
  LcpProblem inf_row = p;
  inf_row.structure.rows[0].ja(0) = std::numeric_limits<double>::infinity();
  EXPECT_FALSE(StructuredMatrix::describes(inf_row));
  LcpProblem outside = p;
  outside.structure.coupling.push_back({p.size(), 0, 1.0});
  EXPECT_FALSE(StructuredMatrix::describes(outside));
  LcpProblem short_rows = p;
  short_rows.structure.rows.pop_back();
  EXPECT_FALSE(StructuredMatrix::describes(short_rows));
}

// Lemke's solution of a step, then the same step (b moved by a resting
// body's rounding-size noise) warm-started from it without A: the warm start
// on the structure solves it, certified on the dense A.
TEST(LemkeOnStructure, AWarmStartedStepIsSolvedWithoutTheMatrix) {
  std::mt19937 rng(11);
  std::uniform_real_distribution<double> noise(-1e-13, 1e-13);
  int solved_on_structure = 0;
  for (int trial = 0; trial < 20; ++trial) {
    test::StewartTrinkleStep st = test::structured_step(rng, 2 + trial % 4, 4 + trial, 4);
    LemkeSolver lemke({});
    VecX z = VecX::Zero(st.lcp.size());
    if (!lemke.solve(st.lcp, z).ok()) continue;  // a ray: nothing to warm-start from
    LcpProblem next = st.lcp;
    for (int i = 0; i < next.size(); ++i) next.b(i) += noise(rng);
    const LcpProblem structured = without_matrix(next);
    VecX warm = z;
    SolverResult r;
    if (!lemke.solve_on_structure(structured, warm, r)) {
      EXPECT_EQ(warm, z) << "trial " << trial << ": a miss leaves the warm start as it was";
      continue;
    }
    ++solved_on_structure;
    ASSERT_TRUE(r.ok()) << "trial " << trial;
    SolverResult m;
    measure_residuals(next, warm, m);
    EXPECT_LE(std::max(m.complementarity, m.feasibility), test::threshold(next, kTolerance)) << "trial " << trial;
    EXPECT_GE(warm.minCoeff(), 0.0);
  }
  // each support of a solution stays one after noise 1e-13 against a
  // threshold of 1e-9: every warm start that a solution exists for succeeds
  EXPECT_GE(solved_on_structure, 15);
}

// solve() takes a structure-only problem from any start: the warm start on
// the structure when it succeeds, else A assembled and pivoted on.
TEST(LemkeOnStructure, SolveAssemblesTheMatrixWhenTheWarmStartMisses) {
  std::mt19937 rng(5);
  for (int trial = 0; trial < 10; ++trial) {
    const test::StewartTrinkleStep st = test::structured_step(rng, 3, 6 + trial, 4);
    const LcpProblem structured = without_matrix(st.lcp);
    LemkeSolver on_dense({}), on_structure({});
    VecX zd = VecX::Zero(st.lcp.size()), zs = zd;
    const SolverResult rd = on_dense.solve(st.lcp, zd);
    // a wrong warm start: unit impulses on every friction row
    for (int i = 0; i < structured.size(); ++i)
      if (structured.role[static_cast<std::size_t>(i)] == RowRole::Friction) zs(i) = 1.0;
    const SolverResult rs = on_structure.solve(structured, zs);
    EXPECT_EQ(rd.ok(), rs.ok()) << "trial " << trial << ": " << rd.message << " / " << rs.message;
    if (!rs.ok()) continue;
    SolverResult m;
    measure_residuals(st.lcp, zs, m);
    EXPECT_LE(std::max(m.complementarity, m.feasibility), test::threshold(st.lcp, kTolerance)) << "trial " << trial;
  }
}

}  // namespace
}  // namespace pegsim
