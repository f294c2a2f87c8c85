// pegsim solve-bench FILE... : every solver of the registry on every captured
// problem (docs/solve-bench.md). Residuals are measured here from z
// (measure_residuals), never taken from the solver's report; times are the
// wall time of solve() alone. Writes, with --out DIR, results.csv (one row per
// solver and problem), summary.csv (one row per solver), profile.csv and
// profile.png (Dolan & Moré performance profiles of the solve time).
#include "commands.hpp"
#include "python_script.hpp"
#include "experiment.hpp"

#include "io/capture_reader.hpp"
#include "solvers/solver_common.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <limits>
#include <sstream>
#include <stdexcept>

namespace pegsim::cli {
namespace {

namespace fs = std::filesystem;
using experiment::Csv;
constexpr double kInf = std::numeric_limits<double>::infinity();

struct Run {
  SolverStatus status = SolverStatus::NumericalFailure;
  bool solved = false;   // measured residual within the tolerance
  double residual = kInf;
  int iterations = 0;
  double seconds = 0.0;
};


double median(std::vector<double> v) {
  if (v.empty()) return std::nan("");
  std::sort(v.begin(), v.end());
  const std::size_t m = v.size() / 2;
  return v.size() % 2 ? v[m] : 0.5 * (v[m - 1] + v[m]);
}

Run solve_one(LcpSolver& solver, const LcpProblem& p, double tolerance) {
  Run run;
  VecX z = VecX::Zero(p.size());
  const auto start = std::chrono::steady_clock::now();
  const SolverResult r = solver.solve(p, z);
  run.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  run.status = r.status;
  run.iterations = r.iterations;
  SolverResult measured;
  measure_residuals(p, z, measured);
  run.residual = solver_detail::residual_norm(measured);
  run.solved = solver_detail::within_tolerance(p, measured, tolerance);
  return run;
}

// Dolan & Moré (Math. Program. 91, 2002): ratio r_ps = t_ps / min_s t_ps over
// the solvers that solved p (infinite when s did not); the profile of s is the
// share of problems with r_ps <= tau, a step function of tau.
void write_profile(const fs::path& file, const std::vector<std::string>& solvers,
                   const std::vector<std::vector<Run>>& runs) {
  const std::size_t np = runs.empty() ? 0 : runs.front().size();
  Csv csv(file, {"solver", "tau", "share"});
  constexpr double kClock = 1e-9;  // no ratio against a zero time
  for (std::size_t s = 0; s < solvers.size(); ++s) {
    std::vector<double> ratios;
    for (std::size_t p = 0; p < np; ++p) {
      double best = kInf;
      for (const auto& per_solver : runs)
        if (per_solver[p].solved) best = std::min(best, std::max(per_solver[p].seconds, kClock));
      if (runs[s][p].solved) ratios.push_back(std::max(runs[s][p].seconds, kClock) / best);
    }
    std::sort(ratios.begin(), ratios.end());
    csv << solvers[s] << 1.0 << 0.0;
    csv.end_row();
    for (std::size_t k = 0; k < ratios.size(); ++k) {
      if (k + 1 < ratios.size() && ratios[k + 1] == ratios[k]) continue;  // one point per distinct ratio
      csv << solvers[s] << ratios[k] << static_cast<double>(k + 1) / static_cast<double>(np);
      csv.end_row();
    }
  }
}

void plot(const fs::path& dir) {
  std::fflush(stdout);
  if (run_python_script(script_path("plot_solve_bench.py"), {dir.string()}) != 0)
    std::printf("plots: %s %s did not draw profile.png (the CSV files are written)\n", python_interpreter().c_str(),
                script_path("plot_solve_bench.py").c_str());
}

}  // namespace

int solve_bench_command(const SolveBenchArgs& args) {
  std::vector<CapturedProblem> problems;
  for (const std::string& file : args.files) {
    std::vector<CapturedProblem> more = read_captured_problems(file);
    for (CapturedProblem& p : more) problems.push_back(std::move(p));
  }
  std::vector<std::string> solvers = args.solvers.empty() ? solver_names() : split_list(args.solvers);
  SolverOptions options;
  options.tolerance = args.tolerance;
  std::vector<std::unique_ptr<LcpSolver>> instances;
  for (const std::string& name : solvers) {
    instances.push_back(make_solver(name, options));
    if (!instances.back()) throw std::invalid_argument("unknown solver '" + name + "'");
  }

  // every solver on every problem, solver by solver
  std::vector<std::vector<Run>> runs(solvers.size());
  for (std::size_t s = 0; s < solvers.size(); ++s)
    for (const CapturedProblem& p : problems) runs[s].push_back(solve_one(*instances[s], p.lcp, args.tolerance));

  std::unique_ptr<Csv> results, summary;
  if (!args.out.empty()) {
    fs::create_directories(args.out);
    results = std::make_unique<Csv>(fs::path(args.out) / "results.csv",
                                    std::vector<std::string>{"problem", "size", "solver", "status", "solved",
                                                             "residual", "iterations", "seconds"});
    summary = std::make_unique<Csv>(fs::path(args.out) / "summary.csv",
                                    std::vector<std::string>{"solver", "problems", "solved", "solved_share",
                                                             "median_residual", "worst_residual",
                                                             "median_iterations", "median_seconds", "total_seconds"});
  }
  std::printf("pegsim solve-bench: %zu problems from %zu files, tolerance %g (1 + |b|_inf)\n", problems.size(),
              args.files.size(), args.tolerance);
  std::printf("%-16s %8s %12s %12s %10s %12s %12s\n", "solver", "solved", "median res", "worst res", "median it",
              "median us", "total ms");
  for (std::size_t s = 0; s < solvers.size(); ++s) {
    std::vector<double> residual, iterations, seconds;
    long solved = 0;
    double total = 0.0, worst = problems.empty() ? std::nan("") : 0.0;
    for (std::size_t p = 0; p < problems.size(); ++p) {
      const Run& r = runs[s][p];
      residual.push_back(r.residual);
      iterations.push_back(r.iterations);
      seconds.push_back(r.seconds);
      solved += r.solved;
      total += r.seconds;
      worst = std::max(worst, r.residual);
      if (results) {
        *results << problems[p].label() << problems[p].lcp.size() << solvers[s]
                 << std::string(to_string(r.status)) << static_cast<long>(r.solved) << r.residual << r.iterations
                 << r.seconds;
        results->end_row();
      }
    }
    const double n = static_cast<double>(std::max<std::size_t>(problems.size(), 1));
    std::printf("%-16s %7.1f%% %12.3g %12.3g %10.1f %12.1f %12.2f\n", solvers[s].c_str(), 100.0 * solved / n,
                median(residual), worst, median(iterations), 1e6 * median(seconds), 1e3 * total);
    if (summary) {
      *summary << solvers[s] << static_cast<long>(problems.size()) << solved << solved / n << median(residual)
               << worst << median(iterations) << median(seconds) << total;
      summary->end_row();
    }
  }
  if (!args.out.empty()) {
    results.reset();
    summary.reset();
    write_profile(fs::path(args.out) / "profile.csv", solvers, runs);
    if (!args.no_plots) plot(args.out);
    std::printf("written: %s/{results,summary,profile}.csv%s\n", args.out.c_str(), args.no_plots ? "" : ", profile.png");
  }
  return 0;
}

}  // namespace pegsim::cli
