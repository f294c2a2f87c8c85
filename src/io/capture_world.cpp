#include "io/capture_world.hpp"

namespace pegsim {

int capture_last_step(CaptureWriter& writer, const World& world, long every) {
  const StepReport& report = world.last_report();
  if (every < 1 || report.step % every != 0) return 0;
  const SimOptions& o = world.model().options;
  int written = 0;
  const std::vector<StepProblem>& problems = world.last_problems();
  for (std::size_t i = 0; i < problems.size(); ++i) {
    const LcpProblem& problem = problems[i].lcp;
    if (problem.size() == 0) continue;
    CaptureInfo info;
    info.step = report.step;
    info.island = static_cast<int>(i);
    info.h = o.h;
    info.time = report.time - o.h;
    info.spacedim = o.dimension == Dimension::Planar ? 2 : 3;
    info.model = std::string(to_string(o.model));
    // the chain's last attempt gave the applied impulses (sim/step_report.hpp)
    const bool reported = i < report.islands.size() && !report.islands[i].attempts.empty();
    const SolveAttempt* last = reported ? &report.islands[i].attempts.back() : nullptr;
    info.solver = last ? o.solver_chain[static_cast<std::size_t>(last->solver)] : o.solver;
    info.solver_status = std::string(to_string(last ? last->status : report.solver.status));
    writer.add(problem, info);
    ++written;
  }
  return written;
}

}  // namespace pegsim
