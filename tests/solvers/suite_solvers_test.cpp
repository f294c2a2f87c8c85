// What each solver added with the suite promises on its own (solver_suite_test
// compares them all): psor is pgs's code, projected Jacobi is eq. 2.47, ppm
// keeps at most rank(A) impulses, the interior point method and dvc3d-qp
// handle Free rows, and none of them claims a non-monotone problem it cannot
// solve.
#include "solvers/lcp.hpp"

#include "solvers/newton_fixtures.hpp"
#include "solvers/problem_families.hpp"

#include <gtest/gtest.h>

#include <string>

namespace pegsim {
namespace {

using test::solver_threshold;

SolverResult run(const std::string& name, const LcpProblem& p, VecX& z, SolverOptions options = {}) {
  if (z.size() != p.size()) z = VecX::Zero(p.size());
  return make_solver(name, options)->solve(p, z);
}

TEST(Psor, AtLambdaOneRepeatsPgsIteratesBitForBit) {
  // the same sweeps (pgs.cpp): after k sweeps, the same z to the last bit,
  // on a plain SPD problem and on a Stewart-Trinkle step (friction blocks)
  std::mt19937 rng(8001);
  const LcpProblem spd = test::random_spd_lcp(rng, 30);
  const test::StewartTrinkleStep st = test::random_stewart_trinkle(rng, 3, 5, 4);
  for (const LcpProblem* p : {&spd, &st.lcp}) {
    for (int k : {1, 2, 5, 9, 40}) {
      SolverOptions options;
      options.max_iterations = k;
      VecX z_pgs, z_psor;
      const SolverResult a = run("pgs", *p, z_pgs, options);
      const SolverResult b = run("psor", *p, z_psor, options);
      EXPECT_EQ(a.iterations, b.iterations) << k;
      EXPECT_EQ(a.status, b.status) << k;
      for (int i = 0; i < p->size(); ++i) EXPECT_EQ(z_pgs(i), z_psor(i)) << "sweeps " << k << " row " << i;
    }
  }
}

TEST(Psor, PgsIgnoresTheRelaxationAndPsorUsesIt) {
  std::mt19937 rng(8002);
  const LcpProblem p = test::random_spd_lcp(rng, 25);
  SolverOptions options;
  options.relaxation = 1.3;
  options.max_iterations = 3;
  VecX z_pgs, z_psor, z_gs;
  run("pgs", p, z_pgs, options);
  run("psor", p, z_psor, options);
  options.relaxation = 1.0;
  run("psor", p, z_gs, options);
  EXPECT_EQ(z_pgs, z_gs);   // pgs is lambda = 1 whatever the options say
  EXPECT_NE(z_pgs, z_psor);  // psor took lambda = 1.3
  options.max_iterations = 0;
  options.relaxation = 1.3;
  VecX z;
  ASSERT_TRUE(run("psor", p, z, options).ok());
  EXPECT_LE(test::lcp_violation(p, z), solver_threshold(p));
}

// A strictly diagonally dominant LCP: |A_ii| > sum_j |A_ij|, for which the
// Jacobi iteration matrix has norm < 1 and eq. 2.47 contracts for lambda in (0, 1].
LcpProblem diagonally_dominant(std::mt19937& rng, int n) {
  LcpProblem p;
  p.A = test::random_matrix(rng, n, n);
  for (int i = 0; i < n; ++i) p.A(i, i) = p.A.row(i).cwiseAbs().sum() + test::uniform(rng, 0.5, 1.5);
  p.b.resize(n);
  for (int i = 0; i < n; ++i) p.b(i) = test::uniform(rng, -1.0, 1.0);
  return p;
}

TEST(ProjectedJacobi, ConvergesOnADiagonallyDominantProblem) {
  std::mt19937 rng(8003);
  const LcpProblem p = diagonally_dominant(rng, 40);
  for (double lambda : {0.5, 0.8, 1.0}) {
    SolverOptions options;
    options.relaxation = lambda;
    VecX z;
    const SolverResult r = run("projected-jacobi", p, z, options);
    ASSERT_EQ(r.status, SolverStatus::Solved) << "lambda " << lambda << ": " << r.message;
    EXPECT_LE(test::lcp_violation(p, z), solver_threshold(p));
  }
}

TEST(ProjectedJacobi, FollowsEquationTwoFortySeven) {
  // three iterations against eq. 2.47 written out here, every row from the
  // previous iterate; 1e-14: the two orders of the products round differently
  std::mt19937 rng(8004);
  const LcpProblem p = diagonally_dominant(rng, 12);
  SolverOptions options;
  options.relaxation = 0.7;
  options.max_iterations = 3;
  VecX z;
  run("projected-jacobi", p, z, options);
  VecX x = VecX::Zero(12);
  for (int k = 0; k < 3; ++k) {
    VecX next(12);
    for (int i = 0; i < 12; ++i) {
      double sum = p.b(i);
      for (int j = 0; j < 12; ++j)
        if (j != i) sum += p.A(i, j) * x(j);
      next(i) = std::max(0.0, x(i) + 0.7 * (-sum / p.A(i, i) - x(i)));
    }
    x = next;
  }
  EXPECT_LE((z - x).cwiseAbs().maxCoeff(), 1e-14 * (1.0 + x.cwiseAbs().maxCoeff()));
}

TEST(Ppm, KeepsAtMostRankManyImpulses) {
  // Drumwright & Shell's Theorem 1 (reference 002): a PSD contact LCP has a
  // solution with at most rank(A) non-zero z, and ppm's working set never
  // holds dependent rows, so its z has at most rank(A) = 6 bodies entries > 0
  std::mt19937 rng(8005);
  for (int rep = 0; rep < 6; ++rep) {
    const int bodies = 1 + rep % 2;
    const LcpProblem p = test::random_contact_psd_lcp(rng, bodies, 6 * bodies * 3);
    VecX z;
    const SolverResult r = run("ppm", p, z);
    ASSERT_EQ(r.status, SolverStatus::Solved) << r.message;
    EXPECT_LE(test::lcp_violation(p, z), solver_threshold(p));
    EXPECT_LE((z.array() > 0.0).count(), 6 * bodies) << "rep " << rep;
  }
}

TEST(Ppm, DeclinesWhatIsNotSymmetricPsd) {
  LcpProblem p;
  p.A.resize(2, 2);
  p.A << 1, 2, 0, 1;  // not symmetric
  p.b = -VecX::Ones(2);
  VecX z;
  EXPECT_EQ(run("ppm", p, z).status, SolverStatus::Unsupported);
  p.A << 1, 0, 0, -1;  // symmetric, indefinite
  z.resize(0);
  EXPECT_EQ(run("ppm", p, z).status, SolverStatus::Unsupported);
}

TEST(InteriorPoint, NeverClaimsTheNonMonotoneProblem) {
  // the non-copositive 4x4 problem of newton_solvers_test.cpp: the interior
  // point method may solve it (path does), but only with a measured residual
  LcpProblem p = test::non_copositive_4x4();
  VecX z;
  const SolverResult r = run("interior-point", p, z);
  if (r.ok()) {
    EXPECT_LE(test::lcp_violation(p, z), solver_threshold(p));
  } else {
    EXPECT_FALSE(r.message.empty());
  }
}

TEST(FreeRows, InteriorPointAndDvc3dSolveStewartTrinkleWithJoints) {
  // bilateral rows kept as Free rows (newton_fixtures.hpp): their w must be 0
  std::mt19937 rng(8006);
  for (int rep = 0; rep < 5; ++rep) {
    const test::StewartTrinkleStep st = test::random_stewart_trinkle(rng, 3, 3 + rep, 4);
    const LcpProblem p = test::stewart_trinkle_with_joints(rng, st, 2);
    for (const char* name : {"interior-point", "dvc3d-qp"}) {
      VecX z;
      const SolverResult r = run(name, p, z);
      ASSERT_EQ(r.status, SolverStatus::Solved) << name << " rep " << rep << ": " << r.message;
      EXPECT_LE(test::mlcp_violation(p, z), solver_threshold(p)) << name;
    }
  }
}

TEST(Dvc3dQp, TakesTheSplitOnlyWhereTheStructureIsThere) {
  std::mt19937 rng(8007);
  test::StewartTrinkleStep st = test::random_stewart_trinkle(rng, 2, 3, 4);
  VecX z;
  ASSERT_TRUE(run("dvc3d-qp", st.lcp, z).ok());
  LcpProblem broken = st.lcp;
  broken.A(broken.size() - 1, 0) = 0.3;  // a slip row's U entry off its normal row: not eq. 6.1
  broken.b.array() -= 10.0;              // and z = 0 is no solution
  z.resize(0);
  EXPECT_EQ(run("dvc3d-qp", broken, z).status, SolverStatus::Unsupported);
  broken = st.lcp;
  broken.b.array() -= 10.0;
  broken.role[0] = RowRole::PegSlack;
  z.resize(0);
  EXPECT_EQ(run("dvc3d-qp", broken, z).status, SolverStatus::Unsupported);
}

}  // namespace
}  // namespace pegsim
