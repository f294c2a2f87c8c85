// Lemke's method on LCPs captured from simulations (tests/solvers/data).
//
// stack3d_*: Stewart-Trinkle steps of a 10-box stack at rest (40 contacts,
// n_d = 7, n = 360): degenerate at the level of their data's noise (gap terms
// and tangential velocities ~1e-13..1e-10, the tolerance's own level),
// rank-deficient normal blocks (four contacts per face), rank-2 friction
// blocks. Lemke used to fail on these; a solution exists and must be found to
// the simulator's tolerance. stack2d_*: frictionless 2D stacks with opposing
// penetrating contacts, infeasible or feasible only with impulses beyond what
// double precision resolves at that tolerance: any status goes, as long as it
// claims nothing a feasibility LP contradicts. pile16_*: islands of a
// 16-cube tumbling pile (bench/scenes/tumbling_pile.py, PEG, h = 0.005) of
// a few falling and landing cubes: 91-126 rows over a few cubes' velocities,
// most rows dependent, PEG slack rows in two of them; Lemke's default pivot
// rules end on a false ray in all three, its second rules
// (PivotRules::dependent_rows) solve them (docs/performance.md, "Piles that
// started inside each other").
#include "solvers/lemke.hpp"

#include "solvers/feasibility_lp.hpp"
#include "solvers/lcp_file.hpp"
#include "solvers/lcp_fixtures.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

namespace pegsim {
namespace {

const std::vector<std::string> kStack3d = {"stack3d_step408.lcp", "stack3d_step818.lcp",
                                           "stack3d_step1059.lcp"};
const std::vector<std::string> kStack2d = {"stack2d_step70.lcp", "stack2d_step82.lcp",
                                           "stack2d_step92.lcp"};
const std::vector<std::string> kPile16 = {"pile16_step145.lcp", "pile16_step161.lcp", "pile16_step182.lcp"};

// The simulator's acceptance threshold: SolverOptions::tolerance * (1 + |b|_inf).
double threshold(const LcpProblem& p) { return test::threshold(p, SolverOptions{}.tolerance); }

// The solution conditions checked from z alone, on the original problem.
void expect_solution(const LcpProblem& p, const VecX& z, const std::string& what) {
  ASSERT_EQ(z.size(), p.size()) << what;
  const double tol = threshold(p);
  const VecX w = p.A * z + p.b;
  const double scale = 1.0 + std::max(z.cwiseAbs().maxCoeff(), w.cwiseAbs().maxCoeff());
  double zmin = 0.0, wmin = 0.0, pair = 0.0, product = 0.0;
  for (int i = 0; i < p.size(); ++i) {
    zmin = std::min(zmin, z(i));
    wmin = std::min(wmin, w(i));
    pair = std::max(pair, std::abs(std::min(z(i), w(i))));
    product = std::max(product, std::abs(z(i) * w(i)));
  }
  EXPECT_GE(zmin, 0.0) << what;
  EXPECT_GE(wmin, -tol) << what;
  EXPECT_LE(pair, tol) << what;
  EXPECT_LE(product, tol * scale) << what;
}

SolverResult solve(const LcpProblem& p, VecX& z, std::uint64_t seed = 0) {
  LemkeSolver lemke(SolverOptions{}, seed);
  if (z.size() != p.size()) z = VecX::Zero(p.size());
  return lemke.solve(p, z);
}

TEST(CapturedLcp, Stack3dStepsAreSolvedToTheSimulatorTolerance) {
  for (const std::string& name : kStack3d) {
    const LcpProblem p = test::load_lcp_file(test::data_path(name));
    ASSERT_EQ(p.size(), 360) << name;
    VecX z;
    const SolverResult r = solve(p, z);
    ASSERT_EQ(r.status, SolverStatus::Solved) << name << ": " << r.message;
    EXPECT_EQ(r.regularization_level, 0) << name;
    EXPECT_GT(r.iterations, 0) << name;
    EXPECT_LE(r.iterations, 200) << name;  // some 30 pivots; the old solver took 400-750
    expect_solution(p, z, name);
  }
}

// A solution exists (PATH, Fischer-Newton, the interior-point solver or
// Siconos's Lemke find one too, measured on the same files);
// Lemke must find one to the simulator's tolerance, without the Tikhonov
// ladder, whose rungs solve a nearby problem instead.
TEST(CapturedLcp, Pile16IslandsAreSolvedToTheSimulatorTolerance) {
  for (const std::string& name : kPile16) {
    const LcpProblem p = test::load_lcp_file(test::data_path(name));
    VecX z;
    const SolverResult r = solve(p, z);
    ASSERT_EQ(r.status, SolverStatus::Solved) << name << ": " << r.message;
    EXPECT_EQ(r.regularization_level, 0) << name;
    expect_solution(p, z, name);
  }
}

TEST(CapturedLcp, Stack3dStepsAreSolvedWhateverTheTieBreakingPerturbation) {
  // Every seed of the tie-breaking perturbation takes another pivoting path
  // through the degenerate vertices: none may lose the solution.
  for (const std::string& name : kStack3d) {
    const LcpProblem p = test::load_lcp_file(test::data_path(name));
    for (std::uint64_t seed = 1; seed <= 8; ++seed) {
      VecX z;
      const SolverResult r = solve(p, z, seed);
      ASSERT_EQ(r.status, SolverStatus::Solved) << name << " seed " << seed << ": " << r.message;
      expect_solution(p, z, name + " seed " + std::to_string(seed));
    }
  }
}

TEST(CapturedLcp, Stack3dWarmStartsNeedNoPivot) {
  // At rest the active set persists from step to step: the previous step's
  // impulses (here: another captured step's solution) solve the new problem
  // through their support's linear system and a few sweeps, without pivoting.
  std::vector<LcpProblem> problems;
  std::vector<VecX> solutions;
  for (const std::string& name : kStack3d) {
    problems.push_back(test::load_lcp_file(test::data_path(name)));
    VecX z;
    ASSERT_EQ(solve(problems.back(), z).status, SolverStatus::Solved) << name;
    solutions.push_back(z);
  }
  for (std::size_t i = 0; i < problems.size(); ++i) {
    for (std::size_t j = 0; j < problems.size(); ++j) {
      const std::string what = kStack3d[i] + " warm-started from " + kStack3d[j];
      VecX z = solutions[j];
      const SolverResult r = solve(problems[i], z);
      ASSERT_EQ(r.status, SolverStatus::Solved) << what << ": " << r.message;
      EXPECT_EQ(r.iterations, 0) << what;
      expect_solution(problems[i], z, what);
    }
  }
}

TEST(CapturedLcp, Stack2dStatusesAgreeWithAFeasibilityLp) {
  for (const std::string& name : kStack2d) {
    const LcpProblem p = test::load_lcp_file(test::data_path(name));
    const double tol = threshold(p);
    // the LP's verdicts, verified on the data: a point with violation t_point,
    // a certificate y >= 0 (sum 1) with A'y <= ~0 and b'y < 0
    const test::FeasibilityLp lp = test::solve_feasibility_lp(p.A, p.b);
    ASSERT_TRUE(lp.converged) << name;
    const double t_point = std::max(0.0, -(p.A * lp.z + p.b).minCoeff());
    const double ysum = lp.y.sum();
    const double aty = (p.A.transpose() * lp.y).maxCoeff();
    const bool certified_infeasible = ysum > 0.0 &&
                                      aty <= 1e-12 * p.A.cwiseAbs().maxCoeff() * ysum &&
                                      p.b.dot(lp.y) < -100.0 * tol * ysum;
    const bool feasible_within_tolerance = t_point <= tol;
    EXPECT_NE(certified_infeasible, feasible_within_tolerance) << name << ": the LP is undecided";

    VecX z;
    const SolverResult r = solve(p, z);
    if (r.status == SolverStatus::Solved) {
      EXPECT_FALSE(certified_infeasible) << name;
      expect_solution(p, z, name);
    } else {
      EXPECT_FALSE(r.message.empty()) << name;
      if (r.status == SolverStatus::Infeasible) {
        EXPECT_TRUE(certified_infeasible) << name;
      }
    }
  }
  // what the files are (see their headers): step 92 is infeasible by a wide
  // margin, step 82 feasible (with impulses of 6e7, out of double's reach at
  // this tolerance), step 70 infeasible only in exact arithmetic
  const LcpProblem p92 = test::load_lcp_file(test::data_path("stack2d_step92.lcp"));
  const test::FeasibilityLp lp92 = test::solve_feasibility_lp(p92.A, p92.b);
  EXPECT_GT(lp92.t, 1e-8);
  const LcpProblem p82 = test::load_lcp_file(test::data_path("stack2d_step82.lcp"));
  EXPECT_LE(test::solve_feasibility_lp(p82.A, p82.b).t, threshold(p82));
}

}  // namespace
}  // namespace pegsim
