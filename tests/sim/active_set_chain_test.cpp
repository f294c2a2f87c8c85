// The fast exact path (issue 11, part 6): the chain [active-set, lemke]
// (solvers/active_set.hpp) keeps the physics of the default chain. The
// box-stack-3d run makes the assertions of box_stack_test.cpp (every island
// certified at the simulator's tolerance, 1e-9; no overlap; the settled stack
// drifts less than a micrometre), and the captured problems (data/problems)
// are solved to that tolerance by the active-set solver warm-started from
// Lemke's solution, or, from a cold start, handed on uncertified, never
// accepted outside it (PEG problems: Unsupported, left to the chain).
#include "geometry/penetration.hpp"
#include "io/capture_reader.hpp"
#include "scene_runner.hpp"
#include "solvers/active_set.hpp"
#include "solvers/solver_common.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>

namespace pegsim {
namespace {

double worst_overlap(const World& world) {
  double worst = 0.0;
  const auto& bodies = world.model().bodies;
  for (std::size_t i = 0; i < bodies.size(); ++i)
    for (std::size_t j = i + 1; j < bodies.size(); ++j)
      worst = std::max(worst, penetration_depth(bodies[i].shape, world.state().bodies[i].pose, bodies[j].shape,
                                                world.state().bodies[j].pose));
  return worst;
}

TEST(ActiveSetChain, BoxStackKeepsEveryPhysicsAssertion) {
  World world = test::load_world("box-stack-3d");
  world.set_solver_chain({"active-set", "lemke"});
  const double h = world.model().options.h;
  const std::size_t n = world.model().bodies.size();
  std::vector<Vec3> settled;
  double overlap_impact = 0.0, overlap_settled = 0.0, drift = 0.0;
  long failures = 0, islands = 0, by_active_set = 0;
  while (world.state().time < 10.0 - 0.5 * h) {
    const StepReport& r = world.step();
    failures += r.solver_failures;
    islands += r.solver_calls;
    if (!r.solved_by.empty()) by_active_set += r.solved_by[0];
    const double t = world.state().time;
    const double overlap = worst_overlap(world);
    if (t < 2.0) overlap_impact = std::max(overlap_impact, overlap);
    else overlap_settled = std::max(overlap_settled, overlap);
    if (settled.empty() && t >= 2.0 - 0.5 * h)
      for (const BodyState& b : world.state().bodies) settled.push_back(b.pose.position);
    if (!settled.empty())
      for (std::size_t i = 0; i < n; ++i)
        drift = std::max(drift, (world.state().bodies[i].pose.position - settled[i]).norm());
  }
  EXPECT_EQ(failures, 0);
  EXPECT_LT(overlap_impact, 1e-4);
  EXPECT_LT(overlap_settled, 1e-6);
  EXPECT_LT(drift, 1e-6);
  for (std::size_t i = 1; i < n; ++i)
    EXPECT_NEAR(world.state().bodies[i].pose.position.z(), 0.5 + (i - 1), 1e-3) << "box " << i - 1;
  // the point of the fast path: at rest the previous contact set certifies
  EXPECT_GE(static_cast<double>(by_active_set), 0.9 * static_cast<double>(islands))
      << by_active_set << " of " << islands << " islands";
}

std::vector<CapturedProblem> captured() {
  std::vector<CapturedProblem> out;
  const std::filesystem::path dir = std::filesystem::path(PEGSIM_SCENES_DIR).parent_path() / "data" / "problems";
  std::vector<std::string> files;
  for (const auto& entry : std::filesystem::directory_iterator(dir))
    if (entry.path().extension() == ".h5") files.push_back(entry.path().string());
  std::sort(files.begin(), files.end());
  for (const std::string& f : files)
    for (CapturedProblem& p : read_captured_problems(f)) out.push_back(std::move(p));
  return out;
}

TEST(ActiveSetChain, CapturedProblemsAgreeWithLemke) {
  const std::vector<CapturedProblem> problems = captured();
  ASSERT_GE(problems.size(), 50u);
  SolverOptions o;
  o.tolerance = 1e-9;
  int warm_solved = 0, compared = 0;
  for (const CapturedProblem& cp : problems) {
    SCOPED_TRACE(cp.label());
    if (cp.lcp.structure.empty() || !cp.lcp.is_pure_lcp()) continue;
    if (std::find(cp.lcp.role.begin(), cp.lcp.role.end(), RowRole::PegSlack) != cp.lcp.role.end()) {
      VecX z = VecX::Zero(cp.lcp.size());  // PEG: left to the chain (active_set.hpp)
      EXPECT_EQ(ActiveSetSolver(o).solve(cp.lcp, z).status, SolverStatus::Unsupported);
      continue;
    }
    LcpProblem dense = cp.lcp;
    if (!dense.has_matrix()) assemble_matrix(dense);
    VecX zl = VecX::Zero(dense.size());
    if (!make_solver("lemke", o)->solve(dense, zl).ok()) continue;
    ++compared;
    LcpProblem structured = cp.lcp;
    structured.A.resize(0, 0);
    const double threshold = solver_detail::residual_threshold(dense, o.tolerance);
    for (bool warm : {true, false}) {
      VecX z = warm ? zl : VecX::Zero(dense.size());
      const SolverResult r = ActiveSetSolver(o).solve(structured, z);
      if (!r.ok()) {
        EXPECT_NE(r.status, SolverStatus::Solved);
        continue;
      }
      SolverResult m;
      measure_residuals(dense, z, m);
      EXPECT_LE(solver_detail::residual_norm(m), threshold) << (warm ? "warm" : "cold");
      warm_solved += warm;
    }
  }
  ASSERT_GE(compared, 35);
  // warm-started from Lemke's solution, the set is the solution's support
  EXPECT_EQ(warm_solved, compared) << warm_solved << " of " << compared;
}

}  // namespace
}  // namespace pegsim
