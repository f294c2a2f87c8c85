// The fast exact path (issue 11, part 6): the chain [active-set, lemke]
// (solvers/active_set.hpp) keeps the physics of the default chain. The
// box-stack-3d run makes the assertions of box_stack_test.cpp (every island
// certified at the simulator's tolerance, 1e-9; no overlap; the settled stack
// drifts less than a micrometre), and the captured problems (data/problems)
// are solved to that tolerance by the active-set solver warm-started from
// Lemke's solution, or, from a cold start, handed on uncertified, never
// accepted outside it (PEG problems: Unsupported, left to the chain).
#include "common/test_paths.hpp"

#include "box_stack_check.hpp"
#include "io/capture_reader.hpp"
#include "scene_runner.hpp"
#include "solvers/active_set.hpp"
#include "solvers/solver_common.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>

namespace pegsim {
namespace {

TEST(ActiveSetChain, BoxStackKeepsEveryPhysicsAssertion) {
  World world = test::load_world("box-stack-3d");
  world.set_solver_chain({"active-set", "lemke"});
  long islands = 0, by_active_set = 0;
  test::expect_box_stack_stands(world, [&](const StepReport& r) {
    islands += r.solver_calls;
    if (!r.solved_by.empty()) by_active_set += r.solved_by[0];
  });
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
