// The solver-neutral parts: residual definitions, status names, the registry.
#include "solvers/lcp.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <set>

namespace pegsim {
namespace {

TEST(LcpProblem, PureLcpMeansNoFreeRows) {
  LcpProblem p;
  p.A = MatX::Identity(2, 2);
  p.b = VecX::Zero(2);
  EXPECT_TRUE(p.is_pure_lcp());  // empty bound: all NonNegative
  p.bound = {RowBound::NonNegative, RowBound::NonNegative};
  EXPECT_TRUE(p.is_pure_lcp());
  p.bound[1] = RowBound::Free;
  EXPECT_FALSE(p.is_pure_lcp());
}

TEST(LcpProblem, StatusNamesAreDistinct) {
  const SolverStatus all[] = {SolverStatus::Solved,         SolverStatus::MaxIterations,
                              SolverStatus::RayTermination, SolverStatus::Infeasible,
                              SolverStatus::NumericalFailure, SolverStatus::Unsupported};
  std::set<std::string_view> names;
  for (SolverStatus s : all) {
    EXPECT_FALSE(to_string(s).empty());
    names.insert(to_string(s));
  }
  EXPECT_EQ(names.size(), std::size(all));
}

TEST(LcpProblem, ResidualsFollowTheirDefinitions) {
  // A = [1 0; -0.5 1], b = (0, -0.25), z = (1, 0): w = (1, -0.75)
  LcpProblem p;
  p.A = MatX::Identity(2, 2);
  p.A(1, 0) = -0.5;
  p.b = VecX(2);
  p.b << 0.0, -0.25;
  VecX z(2);
  z << 1.0, 0.0;
  // row 0: |min(1, 1)| = 1; row 1: |min(0, -0.75)| = 0.75, and w_1 < 0 by 0.75
  SolverResult r;
  measure_residuals(p, z, r);
  EXPECT_DOUBLE_EQ(r.complementarity, 1.0);
  EXPECT_DOUBLE_EQ(r.feasibility, 0.75);

  // a Free row counts |w_i| and no sign
  p.bound = {RowBound::Free, RowBound::NonNegative};
  z << -2.0, 0.0;  // w = (-2, 1 - 0.25) = (-2, 0.75)
  measure_residuals(p, z, r);
  EXPECT_DOUBLE_EQ(r.complementarity, 2.0);
  EXPECT_DOUBLE_EQ(r.feasibility, 0.0);
}

TEST(LcpProblem, ResidualsOfAnEmptyProblemAreZero) {
  LcpProblem p;
  SolverResult r;
  r.complementarity = r.feasibility = 7.0;
  measure_residuals(p, VecX(), r);
  EXPECT_EQ(r.complementarity, 0.0);
  EXPECT_EQ(r.feasibility, 0.0);
}

TEST(LcpProblem, ResidualsOfAWronglySizedIterateAreInfinite) {
  LcpProblem p;
  p.A = MatX::Identity(2, 2);
  p.b = VecX::Zero(2);
  SolverResult r;
  measure_residuals(p, VecX::Zero(3), r);
  EXPECT_TRUE(std::isinf(r.complementarity));
}

TEST(SolverRegistry, MakesEveryListedSolver) {
  const std::vector<std::string> names = solver_names();
  EXPECT_NE(std::find(names.begin(), names.end(), "lemke"), names.end());
  EXPECT_NE(std::find(names.begin(), names.end(), "pgs"), names.end());
  for (const std::string& name : names) {
    const auto solver = make_solver(name, SolverOptions{});
    ASSERT_NE(solver, nullptr) << name;
    EXPECT_EQ(solver->name(), name);
  }
  EXPECT_EQ(make_solver("no-such-solver", SolverOptions{}), nullptr);
}

TEST(SolverRegistry, EverySolverHandlesTheEmptyProblem) {
  for (const std::string& name : solver_names()) {
    const auto solver = make_solver(name, SolverOptions{});
    LcpProblem p;
    VecX z;
    const SolverResult r = solver->solve(p, z);
    EXPECT_EQ(r.status, SolverStatus::Solved) << name;
    EXPECT_EQ(z.size(), 0) << name;
  }
}

TEST(SolverRegistry, EverySolverReportsAMalformedProblem) {
  for (const std::string& name : solver_names()) {
    const auto solver = make_solver(name, SolverOptions{});
    LcpProblem p;
    p.A = MatX::Identity(3, 2);
    p.b = VecX::Ones(3);
    VecX z;
    SolverResult r = solver->solve(p, z);
    EXPECT_EQ(r.status, SolverStatus::Unsupported) << name;
    EXPECT_FALSE(r.message.empty()) << name;

    p.A = MatX::Identity(2, 2);
    p.b = VecX::Ones(2);
    p.b(0) = std::numeric_limits<double>::quiet_NaN();
    r = solver->solve(p, z);
    EXPECT_EQ(r.status, SolverStatus::NumericalFailure) << name;

    p.b = -VecX::Ones(2);  // every non-finite entry of A, wherever it is
    for (const double bad : {std::numeric_limits<double>::infinity(),
                             -std::numeric_limits<double>::infinity(),
                             std::numeric_limits<double>::quiet_NaN()}) {
      p.A = MatX::Identity(2, 2);
      p.A(1, 0) = bad;
      r = solver->solve(p, z);
      EXPECT_EQ(r.status, SolverStatus::NumericalFailure) << name << " A(1,0) = " << bad;
    }
  }
}

TEST(SolverRegistry, EverySolverGivesZeroForNonNegativeB) {
  // b >= 0: z = 0, w = b >= 0 is a solution (for any A)
  for (const std::string& name : solver_names()) {
    const auto solver = make_solver(name, SolverOptions{});
    LcpProblem p;
    p.A = MatX::Identity(3, 3) * 2.0;
    p.A(0, 2) = -1.0;
    p.b = VecX(3);
    p.b << 0.5, 0.0, 3.0;
    VecX z = VecX::Zero(3);
    const SolverResult r = solver->solve(p, z);
    EXPECT_EQ(r.status, SolverStatus::Solved) << name;
    EXPECT_EQ(z, VecX::Zero(3)) << name;
  }
}

}  // namespace
}  // namespace pegsim
