// "fischer-newton" and "minmap-newton" (see newton_solvers.hpp).
#include "solvers/newton_solvers.hpp"

#include "solvers/solver_common.hpp"

#include <cstdio>
#include <string>

namespace pegsim {

SolverResult NewtonSolver::solve(const LcpProblem& problem, VecX& z) {
  using namespace newton_detail;
  const solver_detail::Stopwatch clock;
  const std::string who(name());
  SolverResult result;
  auto finish = [&](SolverStatus status, std::string message) {
    return solver_detail::finish(result, clock, status, std::move(message));
  };
  if (!solver_detail::check_problem(problem, who, result)) return finish(result.status, result.message);
  const int n = problem.size();
  if (n == 0) {
    z.resize(0);
    measure_residuals(problem, z, result);
    return finish(SolverStatus::Solved, {});
  }

  const ScaledProblem s = scale_problem(problem, options_.tolerance);
  SolverResult start_res;
  const VecX start = starting_point(s, z, start_res);
  if (solver_detail::residual_norm(start_res) <= s.target) {
    z = start;
    result.complementarity = start_res.complementarity;
    result.feasibility = start_res.feasibility;
    return finish(SolverStatus::Solved, {});
  }

  NewtonSettings settings;
  settings.reformulation = reformulation_;
  settings.max_iterations = options_.max_iterations > 0 ? options_.max_iterations : kDefaultMaxIterations;
  if (reformulation_ == Reformulation::MinMap) {
    // the min-map merit is not differentiable: full active-set steps need
    // the nonmonotone rule more often than FB's (see newton_solvers.hpp)
    settings.memory = kMinMapMemory;
    settings.watchdog = kMinMapMemory;
    settings.stall = kMinMapStall;
    settings.extra_iterations = kMinMapExtra;
  } else {
    settings.stall = kStall;
  }
  const SolveDeadline deadline(options_);
  settings.deadline = &deadline;
  const NewtonRun run = nonsmooth_newton(s, start, settings);
  z = run.z;
  result.iterations = run.iterations;
  result.complementarity = run.residuals.complementarity;
  result.feasibility = run.residuals.feasibility;
  if (run.within) return finish(SolverStatus::Solved, {});
  char buf[160];
  std::snprintf(buf, sizeof buf, ": %s after %d iterations (%d steepest-descent, %d damped), residual %.3g",
                to_string(run.stop), run.iterations, run.gradient_steps, run.damped_steps,
                solver_detail::residual_norm(run.residuals));
  return finish(run.stop == NewtonStop::MaxIterations || run.stop == NewtonStop::TimeBudget ? SolverStatus::MaxIterations
                                                      : SolverStatus::NumericalFailure,
                who + buf);
}

std::unique_ptr<LcpSolver> make_fischer_newton_solver(const SolverOptions& options) {
  return std::make_unique<NewtonSolver>(options, newton_detail::Reformulation::FischerBurmeister);
}

std::unique_ptr<LcpSolver> make_minmap_newton_solver(const SolverOptions& options) {
  return std::make_unique<NewtonSolver>(options, newton_detail::Reformulation::MinMap);
}

}  // namespace pegsim
