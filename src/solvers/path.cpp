// "path": crash, nonmonotone Fischer-Burmeister Newton, Lemke fall back (see
// path.hpp for the order of work).
#include "solvers/path.hpp"

#include "solvers/free_rows.hpp"
#include "solvers/nonsmooth_newton.hpp"
#include "solvers/solver_common.hpp"

#include <cstdio>
#include <string>
#include <vector>

namespace pegsim {
namespace {

using newton_detail::Reformulation;
using newton_detail::ScaledProblem;
using solver_detail::residual_norm;

std::string scientific(double x) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.3g", x);
  return buf;
}

struct Crash {
  VecX z;
  SolverResult residuals;
  int steps = 0;
};

// Step 2 of path.hpp: active-set steps kept while the FB merit decreases.
Crash crash(const ScaledProblem& s, const VecX& z0, const SolverResult& res0, int max_steps) {
  Crash out{z0, res0, 0};
  VecX y = z0.cwiseQuotient(s.D);
  VecX v = s.M * y + s.q;
  VecX phi, y_new, v_new;
  double merit = newton_detail::evaluate(s, Reformulation::FischerBurmeister, y, v, phi);
  std::vector<int> J, previous;
  for (int step = 0; step < max_steps; ++step) {
    if (!newton_detail::active_set_point(s, y, v, y_new, v_new, &J)) break;
    if (step > 0 && J == previous) break;
    ++out.steps;
    const double m = newton_detail::evaluate(s, Reformulation::FischerBurmeister, y_new, v_new, phi);
    if (!(m < merit)) break;
    y.swap(y_new);
    v.swap(v_new);
    merit = m;
    previous.swap(J);
    const VecX z = s.D.cwiseProduct(y);
    const SolverResult res = newton_detail::measure(s, z);
    if (residual_norm(res) < residual_norm(out.residuals)) {
      out.z = z;
      out.residuals = res;
    }
    if (residual_norm(res) <= s.target) break;
  }
  return out;
}

}  // namespace

SolverResult PathSolver::solve(const LcpProblem& problem, VecX& z) {
  using namespace newton_detail;
  const solver_detail::Stopwatch clock;
  SolverResult result;
  auto finish = [&](SolverStatus status, std::string message) {
    result.status = status;
    result.message = std::move(message);
    result.seconds = clock.seconds();
    return result;
  };
  auto take = [&](const VecX& point, const SolverResult& res) {
    z = point;
    result.complementarity = res.complementarity;
    result.feasibility = res.feasibility;
  };
  if (!solver_detail::check_problem(problem, "path", result)) return finish(result.status, result.message);
  const int n = problem.size();
  if (n == 0) {
    z.resize(0);
    measure_residuals(problem, z, result);
    return finish(SolverStatus::Solved, {});
  }

  // 1. start
  const ScaledProblem s = scale_problem(problem, options_.tolerance);
  SolverResult start_res;
  const VecX start = starting_point(s, z, start_res);
  if (residual_norm(start_res) <= s.target) {
    take(start, start_res);
    return finish(SolverStatus::Solved, {});
  }

  // 2. crash
  const SolveDeadline deadline(options_);
  const Crash c = crash(s, start, start_res, kCrashSteps);
  result.iterations = c.steps;
  VecX best = c.z;
  SolverResult best_res = c.residuals;

  // 3. nonmonotone Newton on Fischer-Burmeister
  std::string log;
  bool stalled = false;
  if (residual_norm(best_res) > s.target) {
    NewtonSettings settings;
    settings.reformulation = Reformulation::FischerBurmeister;
    settings.max_iterations = options_.max_iterations > 0 ? options_.max_iterations : kDefaultMaxIterations;
    settings.memory = kMemory;
    settings.watchdog = kWatchdog;
    settings.stall = kStall;
    settings.deadline = &deadline;
    const NewtonRun run = nonsmooth_newton(s, best, settings);
    result.iterations += run.iterations;
    if (residual_norm(run.residuals) < residual_norm(best_res)) {
      best = run.z;
      best_res = run.residuals;
    }
    stalled = run.stop != NewtonStop::MaxIterations;
    log = std::string("Newton ") + to_string(run.stop) + " after " + std::to_string(run.iterations) +
          " iterations (" + std::to_string(c.steps) + " crash steps), residual " +
          scientific(residual_norm(run.residuals));
  }
  if (residual_norm(best_res) <= s.threshold) {
    take(best, best_res);
    return finish(SolverStatus::Solved, {});
  }

  if (deadline.expired()) {
    take(best, best_res);
    return finish(SolverStatus::MaxIterations, solver_detail::time_budget_message("path", options_, result.iterations));
  }

  // 4. Lemke from the best point's active set
  auto within = [&] { return best_res.complementarity <= s.threshold && best_res.feasibility <= s.threshold; };
  const std::unique_ptr<LcpSolver> lemke = make_solver("lemke", options_);
  const solver_detail::FreeRowElimination elim = solver_detail::eliminate_free_rows(problem);
  SolverStatus failure = stalled ? SolverStatus::NumericalFailure : SolverStatus::MaxIterations;
  if (lemke && elim.ok()) {
    const bool mixed = !elim.free.empty() || !elim.dropped.empty();
    VecX zl = mixed ? elim.restrict_to_bounded(best) : best;
    const SolverResult lr = lemke->solve(mixed ? elim.reduced : problem, zl);
    result.iterations += lr.iterations;
    result.regularization_level = lr.regularization_level;
    const VecX z_lemke = mixed ? elim.expand(zl) : zl;
    SolverResult lemke_res;
    measure_residuals(problem, z_lemke, lemke_res);
    const bool better = residual_norm(lemke_res) < residual_norm(best_res);
    if (better) {
      best = z_lemke;
      best_res = lemke_res;
    }
    const std::string on = !mixed ? std::string()
                           : " (on the Schur complement of the Free rows" +
                                 (elim.dropped.empty() ? std::string()
                                                       : ", " + std::to_string(elim.dropped.size()) +
                                                             " dependent Free rows dropped") +
                                 ")";
    log += "; Lemke fall back used" + on +
           ": " + std::string(to_string(lr.status)) + " after " + std::to_string(lr.iterations) +
           " iterations, residual " + scientific(residual_norm(lemke_res)) +
           (lr.message.empty() ? std::string() : " (" + lr.message + ")") + (better ? "" : "; the Newton point kept");
    if (lr.status != SolverStatus::Solved) failure = lr.status;
  } else {
    log += "; Lemke fall back not used: " + (lemke ? elim.issue : std::string("no lemke solver"));
  }

  // 5. restart: the monotone Newton method from z = 0 without the crash,
  // unless Lemke certified infeasibility (the crash or the nonmonotone steps
  // can lead into a stationary point of the merit that this run avoids)
  if (!within() && failure != SolverStatus::Infeasible && !deadline.expired()) {
    NewtonSettings settings;
    settings.max_iterations = options_.max_iterations > 0 ? options_.max_iterations : kDefaultMaxIterations;
    settings.stall = kStall;
    settings.deadline = &deadline;
    const NewtonRun run = nonsmooth_newton(s, VecX::Zero(n), settings);
    result.iterations += run.iterations;
    if (residual_norm(run.residuals) < residual_norm(best_res)) {
      best = run.z;
      best_res = run.residuals;
    }
    log += "; restart from z = 0: " + std::string(to_string(run.stop)) + " after " +
           std::to_string(run.iterations) + " iterations, residual " + scientific(residual_norm(run.residuals));
  }
  take(best, best_res);
  return finish(within() ? SolverStatus::Solved : failure, "path: " + log);
}

std::unique_ptr<LcpSolver> make_path_solver(const SolverOptions& options) {
  return std::make_unique<PathSolver>(options);
}

}  // namespace pegsim
