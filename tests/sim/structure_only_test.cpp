// Structure-only problems (issue 4: "a dense path only where it is faster"):
// when the chain's first solver works on LcpProblem::structure (pgs, psor) or
// warm-starts on it (lemke), the formulation skips the dense A. Checked
// against the dense path: the matrix assembled later from the structure (a
// fallback, or a capture) equals the formulation's bit for bit (the same sums
// in the same order), w computed through the structure equals
// A z + b, and a run whose PGS escalates to path still holds.
// (Lemke alone fails on that scene's 1000:1 mass ratio: 57 of 100 steps;
// docs/solvers.md.)
#include "scene_runner.hpp"

#include "io/scene.hpp"
#include "sim/world.hpp"
#include "solvers/lcp.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <random>

namespace pegsim {
namespace {

// Two problems of the same state: the default scene stepped 300 times, then
// the next step's problem built by a path world (dense: path reads A from the
// start) and a pgs world (structure only).
struct Pair {
  LcpProblem dense, structured;
};

Pair problems_after(int steps, const char* scene = "box-stack-3d") {
  Pair out;
  for (const char* solver : {"path", "pgs"}) {
    World w = test::load_world(scene);
    w.set_solver("lemke");  // the same trajectory for both
    for (int i = 0; i < steps; ++i) w.step();
    w.set_solver(solver);
    w.step();
    (std::string(solver) == "path" ? out.dense : out.structured) = w.last_problem().lcp;
  }
  return out;
}

// Sums of a few dozen products of O(1) entries, in another order: round-off.
constexpr double kTol = 1e-12;

TEST(StructureOnly, PgsChainSkipsTheMatrixAndAssemblingItGivesTheFormulationsA) {
  Pair p = problems_after(300);
  ASSERT_GT(p.dense.size(), 100);
  ASSERT_TRUE(p.dense.has_matrix());
  EXPECT_FALSE(p.structured.has_matrix());
  ASSERT_EQ(p.structured.size(), p.dense.size());
  EXPECT_EQ(p.structured.b, p.dense.b);  // b does not depend on A
  assemble_matrix(p.structured);
  ASSERT_TRUE(p.structured.has_matrix());
  // bit for bit: a world that assembles A late (lemke's steps that pivot)
  // keeps the trajectory of one that formed it at once
  EXPECT_TRUE(p.structured.A == p.dense.A) << (p.structured.A - p.dense.A).cwiseAbs().maxCoeff();
}

// w = A z + b through the structure (G z per body, read with R) against the
// dense A, at a random z in [0, 1); the z.
VecX expect_w_through_the_structure(const Pair& p, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  VecX z(p.dense.size());
  for (int i = 0; i < z.size(); ++i) z(i) = static_cast<double>(rng() >> 11) * 0x1.0p-53;
  const VecX dense = p.dense.A * z + p.dense.b;
  const VecX structured = complementarity_w(p.structured, z);
  EXPECT_LT((dense - structured).cwiseAbs().maxCoeff(), kTol * (1.0 + dense.cwiseAbs().maxCoeff()));
  return z;
}

TEST(StructureOnly, WThroughTheStructureEqualsAzPlusB) {
  Pair p = problems_after(300);
  const VecX z = expect_w_through_the_structure(p, 5);
  SolverResult a, b;
  measure_residuals(p.dense, z, a);
  measure_residuals(p.structured, z, b);
  EXPECT_NEAR(a.complementarity, b.complementarity, kTol * (1.0 + a.complementarity));
}

TEST(StructureOnly, PegProblemsSkipTheMatrixToo) {
  // the pyramid under PEG (its scene's model): I- and X-constraints, their c
  // and d slack rows (eqs. 4.41-4.51), whose (R - G)' M^-1 G terms come from
  // what the rows measure (LcpStructure::measures)
  Pair p = problems_after(60, "pyramid-10");
  ASSERT_TRUE(p.dense.has_matrix());
  EXPECT_FALSE(p.structured.has_matrix());
  ASSERT_NE(std::find(p.dense.role.begin(), p.dense.role.end(), RowRole::PegSlack), p.dense.role.end());
  ASSERT_FALSE(p.structured.structure.measures.empty());
  ASSERT_EQ(p.structured.size(), p.dense.size());
  EXPECT_EQ(p.structured.b, p.dense.b);
  expect_w_through_the_structure(p, 9);
  assemble_matrix(p.structured);
  EXPECT_TRUE(p.structured.A == p.dense.A) << (p.structured.A - p.dense.A).cwiseAbs().maxCoeff();
}

TEST(StructureOnly, PgsEscalatingToPathGetsTheMatrix) {
  // mass-ratio-chain: PGS misses on ~1 step in 6 and path (which reads A)
  // takes over on the matrix assembled then
  World w = test::load_world("mass-ratio-chain");
  w.set_solver_chain({"pgs", "path"});
  int escalations = 0, failures = 0;
  double penetration = 0.0;
  for (int i = 0; i < 100; ++i) {
    const StepReport& r = w.step();
    escalations += r.escalations;
    failures += r.solver_failures;
    penetration = std::max(penetration, r.max_penetration);
  }
  EXPECT_GT(escalations, 5);
  EXPECT_EQ(failures, 0);
  EXPECT_LT(penetration, 1e-9);
}

}  // namespace
}  // namespace pegsim
