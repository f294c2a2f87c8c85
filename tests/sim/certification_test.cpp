// Certified steps (sim/certification.hpp): the friction-cone measure, the
// fallback chain on the large-mass-ratio scenes, PGS alone reported as not
// converging, and the warnings' limit.
#include "sim/certification.hpp"

#include "io/scene.hpp"
#include "scene_runner.hpp"
#include "sim/statistics.hpp"
#include "sim/world.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <string>

namespace pegsim {
namespace {

// z = 0 but for one frictional contact: p_n = 1 and one friction direction
// at mu p_n + 0.25: the linearized cone (eq. 2.21) is exceeded by 0.25 N s.
TEST(Certification, ConeViolationIsTheSlipRowsDeficit) {
  World world = test::load_world("mass-ratio-stack");
  world.step();
  const StepProblem& problem = world.last_problem();
  const ConstraintSet& set = world.last_island_constraints(0);
  int c = 0;
  while (c < static_cast<int>(set.contacts.size()) && problem.first_friction_var[c] < 0) ++c;
  ASSERT_LT(c, static_cast<int>(set.contacts.size()));
  const double mu = set.contacts[c].mu;
  VecX z = VecX::Zero(problem.lcp.size());
  z(problem.normal_var[c]) = 1.0;
  EXPECT_EQ(cone_violation(problem, z, set), 0.0);  // inside the cone
  z(problem.first_friction_var[c] + 1) = mu + 0.25;
  EXPECT_NEAR(cone_violation(problem, z, set), 0.25, 1e-15);  // one rounding of mu + 0.25 - mu
  // spread over the directions, the sum counts
  z(problem.first_friction_var[c] + 1) = 0.5 * mu;
  z(problem.first_friction_var[c]) = 0.5 * mu;
  EXPECT_NEAR(cone_violation(problem, z, set), 0.0, 1e-15);
}

struct Tally {
  long steps = 0, escalated_islands = 0, pgs_missed = 0, failures = 0;
  double deepest = 0.0, worst_residual = 0.0;
};

Tally run(World& world, int steps, RunStatistics& stats) {
  world.add_observer(&stats);
  Tally t;
  for (int i = 0; i < steps; ++i) {
    const StepReport& r = world.step();
    ++t.steps;
    t.failures += r.solver_failures;
    t.deepest = std::max(t.deepest, r.max_penetration);
    t.worst_residual = std::max(t.worst_residual, r.complementarity);
    int escalations = 0;
    for (const IslandReport& island : r.islands) {
      escalations += island.escalations;
      t.escalated_islands += island.escalations > 0;
      const SolveAttempt& first = island.attempts.front();
      if (first.solver == 0 && !first.accepted) {
        ++t.pgs_missed;
        EXPECT_EQ(first.status, SolverStatus::MaxIterations) << "step " << i;
      }
      EXPECT_EQ(island.escalations + 1, static_cast<int>(island.attempts.size()));
    }
    EXPECT_EQ(escalations, r.escalations);
  }
  return t;
}

// Under [pgs, path, lemke] every step is certified: the scenes' PGS misses go
// to PATH, which solves them to the tolerance. Penetration bound: a certified
// step leaves each normal row's velocity error within the scaled tolerance
// 1e-9 (1 + |b|) ~ 1e-8 m/s, i.e. ~5e-11 m per step at h = 0.005, and the
// psi/h term corrects it the next step: 1e-9 m is far above that and far
// below the ~1e-5 .. 1e-4 m that PGS alone lets the boxes sink.
void expect_chain_holds(const std::string& scene) {
  SCOPED_TRACE(scene);
  World world = test::load_world(scene);
  ASSERT_EQ(world.solver_chain(), (std::vector<std::string>{"pgs", "path", "lemke"}));
  RunStatistics stats(world.model(), world.state());
  const Tally t = run(world, 200, stats);
  EXPECT_EQ(t.failures, 0);
  EXPECT_EQ(stats.solver_failures, 0);
  EXPECT_LT(t.deepest, 1e-9);
  EXPECT_EQ(stats.penetration_exceeded, 0);
  // PGS does not converge on some steps, and each of those is escalated and counted
  EXPECT_GT(t.pgs_missed, 0);
  EXPECT_EQ(t.escalated_islands, t.pgs_missed);
  EXPECT_EQ(stats.escalations, t.escalated_islands);  // one escalation each: PATH solves them
  ASSERT_EQ(stats.solved_by.size(), 3u);
  EXPECT_EQ(stats.solved_by[0] + stats.solved_by[1] + stats.solved_by[2], stats.solver_calls);
  EXPECT_EQ(stats.solved_by[1] + stats.solved_by[2], t.pgs_missed);
  const std::string summary = stats.summary(1.0);
  EXPECT_NE(summary.find("solver chain          pgs, path, lemke: escalations " + std::to_string(stats.escalations)),
            std::string::npos)
      << summary;
}

TEST(Certification, MassRatioStackHoldsUnderTheChain) { expect_chain_holds("mass-ratio-stack"); }
TEST(Certification, MassRatioChainHoldsUnderTheChain) { expect_chain_holds("mass-ratio-chain"); }

// PGS alone: the misses are failures, counted, not silently accepted.
TEST(Certification, PgsAloneIsReportedAsNotConverging) {
  for (const std::string scene : {"mass-ratio-stack", "mass-ratio-chain"}) {
    SCOPED_TRACE(scene);
    World world = test::load_world(scene);
    world.set_solver("pgs");
    RunStatistics stats(world.model(), world.state());
    const Tally t = run(world, 60, stats);
    EXPECT_GT(t.failures, 0);
    EXPECT_EQ(stats.solver_failures, t.failures);
    EXPECT_EQ(t.failures, t.pgs_missed);
    EXPECT_EQ(stats.escalations, 0);
    EXPECT_GT(t.worst_residual, 1e-6);  // re-measured, not the tolerance
    const std::string summary = stats.summary(1.0);
    EXPECT_NE(summary.find("failures " + std::to_string(stats.solver_failures)), std::string::npos) << summary;
  }
}

// The log prints its first N warnings, naming step, solvers and bodies, then counts.
TEST(Certification, WarningsAreLimitedAndCounted) {
  World world = test::load_world("mass-ratio-chain");
  world.set_solver("pgs");
  std::FILE* out = std::tmpfile();
  ASSERT_NE(out, nullptr);
  CertificationLog log(out, 3);
  world.add_observer(&log);
  for (int i = 0; i < 20; ++i) world.step();
  EXPECT_GE(log.warnings(), 20);  // PGS misses every one of these steps (scene file)
  EXPECT_EQ(log.suppressed(), log.warnings() - 3);
  std::rewind(out);
  std::string text;
  char buffer[512];
  while (std::fgets(buffer, sizeof buffer, out)) text += buffer;
  std::fclose(out);
  EXPECT_EQ(std::count(text.begin(), text.end(), '\n'), 3);
  EXPECT_NE(text.find("warning: step 0 (t = 0.005 s): bodies {light1, light2, light3, plank}: pgs max-iterations"),
            std::string::npos)
      << text;
}

}  // namespace
}  // namespace pegsim
