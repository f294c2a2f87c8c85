#include "io/capture_world.hpp"

namespace pegsim {

int capture_last_step(CaptureWriter& writer, const World& world, long every) {
  const StepReport& report = world.last_report();
  const LcpProblem& problem = world.last_problem().lcp;
  if (problem.size() == 0 || every < 1 || report.step % every != 0) return 0;
  const SimOptions& o = world.model().options;
  CaptureInfo info;
  info.step = report.step;
  info.h = o.h;
  info.time = report.time - o.h;
  info.spacedim = o.dimension == Dimension::Planar ? 2 : 3;
  info.model = std::string(to_string(o.model));
  info.solver = o.solver;
  info.solver_status = std::string(to_string(report.solver.status));
  writer.add(problem, info);
  return 1;
}

}  // namespace pegsim
