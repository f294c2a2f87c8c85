#include "io/capture_world.hpp"

#include "contact/contact_model.hpp"

namespace pegsim {

int capture_last_step(CaptureWriter& writer, const World& world, long every) {
  const StepReport& report = world.last_report();
  if (every < 1 || report.step % every != 0) return 0;
  const SimOptions& o = world.model().options;
  int written = 0;
  const std::vector<StepProblem>& problems = world.last_problems();
  for (std::size_t i = 0; i < problems.size(); ++i) {
    if (problems[i].lcp.size() == 0) continue;
    LcpProblem dense;  // a structure-only problem (pgs's chain) is written with its A
    if (!problems[i].lcp.has_matrix()) {
      dense = problems[i].lcp;
      assemble_matrix(dense);
    }
    const LcpProblem& problem = problems[i].lcp.has_matrix() ? problems[i].lcp : dense;
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
