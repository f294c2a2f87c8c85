// Every registered solver against every other on the same random problems
// (problem_families.hpp), and the interface duties of the solvers added with
// the suite (psor, projected-jacobi, fixed-point, interior-point, ppm,
// dvc3d-qp). Nothing here trusts a solver's own verdict: residuals are
// measured again from z (lcp_violation, measure_residuals).
#include "solvers/lcp.hpp"

#include "solvers/newton_fixtures.hpp"
#include "solvers/problem_families.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

namespace pegsim {
namespace {

using test::residual_of;
using test::solver_threshold;

struct SolverRun {
  std::string name;
  SolverResult result;
  VecX z;
};

std::vector<SolverRun> solve_all(const LcpProblem& p, SolverOptions options = {}) {
  std::vector<SolverRun> runs;
  for (const std::string& name : solver_names()) {
    SolverRun r;
    r.name = name;
    r.z = VecX::Zero(p.size());
    r.result = make_solver(name, options)->solve(p, r.z);
    runs.push_back(std::move(r));
  }
  return runs;
}

const SolverRun& find(const std::vector<SolverRun>& runs, const std::string& name) {
  return *std::find_if(runs.begin(), runs.end(), [&](const SolverRun& r) { return r.name == name; });
}

// Solved must mean solved: the residuals, measured here, within the threshold
// the solvers use (tolerance (1 + |b|_inf), lcp.hpp); a MLCP's Free rows by
// mlcp_violation. And a non-Solved status must say why.
void expect_honest(const LcpProblem& p, const SolverRun& r, const std::string& what) {
  if (r.result.ok()) {
    ASSERT_EQ(r.z.size(), p.size()) << r.name << " " << what;
    EXPECT_LE(test::mlcp_violation(p, r.z), solver_threshold(p)) << r.name << " " << what;
  } else {
    EXPECT_FALSE(r.result.message.empty()) << r.name << " " << what;
  }
}

void expect_solved(const SolverRun& r, const std::string& what) {
  EXPECT_EQ(r.result.status, SolverStatus::Solved) << r.name << " " << what << ": " << r.result.message;
}

TEST(SolverSuite, PositiveDefiniteProblemsHaveOneSolutionForAll) {
  // unique solution: every Solved z lies within the Mathias-Pang distance
  // (lcp_fixtures.hpp) of Lemke's, for the sum of the two residuals
  std::mt19937 rng(7001);
  for (int n = 4; n <= 64; n += 12) {
    const LcpProblem p = test::random_spd_lcp(rng, n);
    const std::vector<SolverRun> runs = solve_all(p);
    const SolverRun& lemke = find(runs, "lemke");
    const std::string what = "n=" + std::to_string(n);
    for (const char* must : {"lemke", "pgs", "psor", "fixed-point", "interior-point", "ppm", "path"})
      expect_solved(find(runs, must), what);
    // no roles: the splitting has no Normal/Friction rows to split
    EXPECT_EQ(find(runs, "dvc3d-qp").result.status, SolverStatus::Unsupported);
    for (const SolverRun& r : runs) {
      expect_honest(p, r, what);
      if (!r.result.ok()) continue;
      const double bound = test::spd_solution_distance_bound(p.A, residual_of(r.result) + residual_of(lemke.result));
      EXPECT_LE((r.z - lemke.z).norm(), bound) << r.name << " " << what;
    }
  }
}

TEST(SolverSuite, SemiDefiniteContactProblemsAgreeOnW) {
  // A = J M^-1 J' with more contacts than DOF: z is not unique, but for a
  // symmetric PSD LCP (a convex QP's KKT system) A z, hence w, is the same at
  // every solution. Tolerance: residuals are 1e-10 relative; the solution set
  // is polyhedral, so w at a point with residual r is within c r of the exact
  // w (Robinson's error bound) with a constant c of the conditioning of A's
  // range here (1e2..1e4 measured): 1e-6 relative leaves a margin of 10.
  std::mt19937 rng(7002);
  for (int rep = 0; rep < 8; ++rep) {
    const int bodies = 1 + rep % 3;
    VecX w_star;
    const LcpProblem p = test::random_contact_psd_lcp(rng, bodies, 6 * bodies + 4 + 2 * rep, &w_star);
    const std::vector<SolverRun> runs = solve_all(p);
    const std::string what = "rep " + std::to_string(rep);
    for (const char* must : {"lemke", "pgs", "psor", "interior-point", "ppm", "dvc3d-qp", "path"})
      expect_solved(find(runs, must), what);
    const VecX& w_ref = w_star;  // the generator's solution
    const double tol = 1e-6 * (1.0 + p.b.cwiseAbs().maxCoeff());
    for (const SolverRun& r : runs) {
      expect_honest(p, r, what);
      if (!r.result.ok()) continue;
      EXPECT_LE((p.A * r.z + p.b - w_ref).cwiseAbs().maxCoeff(), tol) << r.name << " " << what;
    }
  }
}

TEST(SolverSuite, StewartTrinkleStepsAreSolvedOrDeclined) {
  // eq. 6.1: monotone, not symmetric, zero diagonal on the slip rows. The
  // contact-aware solvers solve it (projected Jacobi and fixed-point by
  // contact blocks, diagonal_iteration.hpp); ppm (not symmetric) declines.
  std::mt19937 rng(7003);
  int diagonal_solved = 0;  // Jacobi-type iterations: no guarantee on these matrices
  for (int rep = 0; rep < 10; ++rep) {
    const int bodies = 2 + rep % 3;
    const test::StewartTrinkleStep st = test::random_stewart_trinkle(rng, bodies, 1 + rep % (2 * bodies), 4);
    const std::vector<SolverRun> runs = solve_all(st.lcp);
    const std::string what = "scene " + std::to_string(rep);
    const double scale = 1.0 + st.lcp.b.cwiseAbs().maxCoeff();
    for (const char* must : {"lemke", "pgs", "psor", "interior-point", "dvc3d-qp"}) expect_solved(find(runs, must), what);
    diagonal_solved += find(runs, "fixed-point").result.ok() + find(runs, "projected-jacobi").result.ok();
    EXPECT_EQ(find(runs, "ppm").result.status, SolverStatus::Unsupported);
    for (const SolverRun& r : runs) {
      expect_honest(st.lcp, r, what);
      // the physics conditions from the velocities (eqs. 2.21, 2.27, 6.2); 1e-8: the
      // solvers' 1e-10 threshold times the rows' scale of G'M^-1G (< 100 here)
      if (r.result.ok()) {
        EXPECT_LE(test::stewart_trinkle_violation(st, r.z), 1e-8 * scale) << r.name << " " << what;
      }
    }
  }
  EXPECT_GE(diagonal_solved, 10);  // of 20 runs (measured: 19)
}

TEST(SolverSuite, PegShapedProblemsAreSolvedOrReportedNeverFaked) {
  // not copositive: any status goes, but Solved only with a residual the test
  // measures itself; ppm (not symmetric) and dvc3d-qp (PegSlack rows) decline
  std::mt19937 rng(7004);
  int solved_by_someone = 0;
  for (int rep = 0; rep < 12; ++rep) {
    const LcpProblem p = test::random_peg_x_lcp(rng, 1 + rep % 3, 2 + rep % 4);
    const std::vector<SolverRun> runs = solve_all(p);
    const std::string what = "rep " + std::to_string(rep);
    bool any = false;
    for (const SolverRun& r : runs) {
      expect_honest(p, r, what);
      SolverResult measured;
      measure_residuals(p, r.z, measured);
      if (r.result.ok()) {
        EXPECT_LE(residual_of(measured), solver_threshold(p)) << r.name << " " << what;
      }
      any = any || r.result.ok();
    }
    for (const char* declines : {"ppm", "dvc3d-qp"}) {  // unless z = 0 (the warm start) already solves it
      const SolverResult& r = find(runs, declines).result;
      if (r.status != SolverStatus::Unsupported) {
        EXPECT_EQ(r.status, SolverStatus::Solved) << declines;
        EXPECT_EQ(r.iterations, 0) << declines;
      }
    }
    solved_by_someone += any;
  }
  EXPECT_GE(solved_by_someone, 6);  // the family is not all unsolvable
}

TEST(SolverSuite, DegenerateCyclicProblemIsSolvedOrReported) {
  // A degenerate LCP of the kind used to show that Lemke's method can cycle
  // without a lexicographic rule (Murty's cyclic 3x3 matrix): all b_i equal,
  // so every ratio test of the first pivots ties. Solution z = (1/3, 1/3, 1/3),
  // w = 0 (A's rows each sum to 3).
  LcpProblem p;
  p.A.resize(3, 3);
  p.A << 1, 2, 0,  //
      0, 1, 2,     //
      2, 0, 1;
  p.b = -VecX::Ones(3);
  const std::vector<SolverRun> runs = solve_all(p);
  expect_solved(find(runs, "lemke"), "Murty");
  expect_solved(find(runs, "interior-point"), "Murty");  // monotone: A + A' = [[2,2,2],...] is PSD
  for (const SolverRun& r : runs) {
    expect_honest(p, r, "Murty");
    if (r.result.ok()) {
      EXPECT_LE((r.z - VecX::Constant(3, 1.0 / 3.0)).cwiseAbs().maxCoeff(), 1e-8) << r.name;
    }
  }
}

TEST(SolverSuite, InfeasibleProblemIsNeverSolved) {
  // w1 + w2 = -2 for every z: no z gives w >= 0. A is PSD (copositive-plus),
  // so Lemke's ray certifies infeasibility.
  LcpProblem p;
  p.A.resize(2, 2);
  p.A << 1, -1, -1, 1;
  p.b = -VecX::Ones(2);
  SolverOptions options;
  options.max_iterations = 300;  // the iterative ones fail either way; keep it short
  const std::vector<SolverRun> runs = solve_all(p, options);
  EXPECT_EQ(find(runs, "lemke").result.status, SolverStatus::Infeasible) << find(runs, "lemke").result.message;
  for (const SolverRun& r : runs) {
    EXPECT_NE(r.result.status, SolverStatus::Solved) << r.name;
    EXPECT_FALSE(r.result.message.empty()) << r.name;
  }
}

TEST(SolverSuite, DuplicateAndZeroRowsAreSolvedOrDeclined) {
  // duplicate contact rows (A singular, z split anyhow between the twins) and
  // a row of zeros with b_i > 0 (w_i = b_i, z_i free in [0, inf))
  std::mt19937 rng(7005);
  LcpProblem p = test::random_contact_psd_lcp(rng, 1, 4);
  const int n = p.size() + 2;
  LcpProblem q;
  q.A = MatX::Zero(n, n);
  q.A.topLeftCorner(n - 2, n - 2) = p.A;
  q.A.row(n - 2).head(n - 2) = p.A.row(0);
  q.A.col(n - 2).head(n - 2) = p.A.col(0);
  q.A(n - 2, n - 2) = p.A(0, 0);
  q.b.resize(n);
  q.b << p.b, p.b(0), 0.5;
  q.role.assign(n, RowRole::Normal);
  const std::vector<SolverRun> runs = solve_all(q);
  for (const char* must : {"lemke", "interior-point", "ppm", "path"}) expect_solved(find(runs, must), "duplicates");
  for (const SolverRun& r : runs) expect_honest(q, r, "duplicates");
}

TEST(SolverSuite, MixedProblemsWithFreeRows) {
  // random_spd_mlcp: every third row Free; the Free rows' w must be 0
  std::mt19937 rng(7006);
  for (int n = 6; n <= 36; n += 10) {
    const LcpProblem p = test::random_spd_mlcp(rng, n);
    const std::vector<SolverRun> runs = solve_all(p);
    const std::string what = "n=" + std::to_string(n);
    // (lemke takes pure LCPs only: Unsupported)
    for (const char* must : {"pgs", "psor", "interior-point", "ppm", "path"}) expect_solved(find(runs, must), what);
    for (const SolverRun& r : runs) expect_honest(p, r, what);
  }
}

TEST(SolverSuite, WarmStartAtTheSolutionStopsAtOnce) {
  std::mt19937 rng(7007);
  const LcpProblem spd = test::random_spd_lcp(rng, 20);
  const test::StewartTrinkleStep st = test::random_stewart_trinkle(rng, 3, 4, 4);
  for (const LcpProblem* p : {&spd, &st.lcp}) {
    VecX solution = VecX::Zero(p->size());
    ASSERT_TRUE(make_solver("lemke", {})->solve(*p, solution).ok());
    for (const std::string& name : solver_names()) {
      VecX z = solution;
      const SolverResult r = make_solver(name, {})->solve(*p, z);
      if (r.status == SolverStatus::Unsupported) continue;
      EXPECT_EQ(r.status, SolverStatus::Solved) << name << ": " << r.message;
      EXPECT_LE(r.iterations, 1) << name;
      EXPECT_LE(test::mlcp_violation(*p, z), solver_threshold(*p)) << name;
    }
  }
}

}  // namespace
}  // namespace pegsim
