// pegsim experiment NAME [--out DIR] [--quick]: runs one experiment (or all)
// into DIR as CSV files, then draws its plots with scripts/plot_experiment.py.
#include "commands.hpp"
#include "experiment.hpp"
#include "experiment_pour.hpp"
#include "python_script.hpp"

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <stdexcept>

namespace pegsim::cli {
namespace {

namespace fs = std::filesystem;
using experiment::Context;
using experiment::Definition;

void plot(const Definition& d, const fs::path& dir) {
  const std::string python = python_interpreter();
  const fs::path script = script_path("plot_experiment.py");
  if (!fs::exists(script)) {
    std::printf("plots: skipped, %s not found (the CSV files are written)\n", script.c_str());
    return;
  }
  const int status = run_python_script(script.string(), {d.name, dir.string()});
  if (status == 0) return;
  if (status == 3)  // the script's code for "matplotlib is missing"; it printed why
    std::printf("plots: skipped (the CSV files are written)\n");
  else
    std::printf("plots: %s %s exited with status %d (the CSV files are written)\n", python.c_str(),
                script.c_str(), status);
}

// --workers / --scheduler: python3 -m pegsim_sweep.experiment runs `pegsim experiment NAME --run K` for
// every run K on Dask and joins their files (python/pegsim_sweep/experiment.py)
void run_on_dask(const Definition& d, const fs::path& dir, const ExperimentArgs& args) {
  std::vector<std::string> argv{d.name, "--out", dir.string(), "--cli", fs::read_symlink("/proc/self/exe").string()};
  if (args.workers > 0) argv.insert(argv.end(), {"--workers", std::to_string(args.workers)});
  if (!args.scheduler.empty()) argv.insert(argv.end(), {"--scheduler", args.scheduler});
  if (args.quick) argv.push_back("--quick");
  std::printf("pegsim experiment %s%s: %s\n  -> %s (on Dask)\n", d.name, args.quick ? " (quick)" : "", d.summary,
              dir.c_str());
  std::fflush(stdout);
  const int status = run_sweep_module("pegsim_sweep.experiment", argv);
  if (status != 0)
    throw std::runtime_error("pegsim experiment " + std::string(d.name) + " on Dask: exit status " +
                             std::to_string(status));
  if (!args.no_plots) plot(d, dir);
}

void run_one(const Definition& d, const fs::path& dir, const ExperimentArgs& args) {
  if (args.workers > 0 || !args.scheduler.empty()) return run_on_dask(d, dir, args);
  fs::create_directories(dir);
  Context ctx;
  ctx.out = dir;
  ctx.quick = args.quick;
  ctx.scenes = fs::path(PEGSIM_SOURCE_DIR) / "scenes";
  std::printf("pegsim experiment %s%s: %s\n  -> %s\n", d.name, args.quick ? " (quick)" : "", d.summary,
              dir.c_str());
  if (args.count_runs || args.run >= 0) {  // a worker's share (or the count) of a split experiment
    experiment::select_runs(args.run, args.count_runs);
    d.run(ctx);
    if (args.count_runs) std::printf("runs: %ld\n", experiment::runs_started());
    const long runs = experiment::runs_started();
    experiment::select_runs(-1, false);
    if (args.run >= runs)  // no run of that index: the files hold headers only, which is no result
      throw std::invalid_argument("--run " + std::to_string(args.run) + ": experiment " + d.name + " has " +
                                  std::to_string(runs) + " runs (0 .. " + std::to_string(runs - 1) + ")" +
                                  (args.quick ? " with --quick" : ""));
    return;
  }
  const auto start = std::chrono::steady_clock::now();
  d.run(ctx);
  const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::printf("  done in %.2f s\n", wall);
  if (!args.no_plots) plot(d, dir);
}

}  // namespace

int experiment_command(const ExperimentArgs& args) {
  if (args.list || args.name.empty()) {
    std::printf("experiments (pegsim experiment NAME [--out DIR] [--quick]; NAME all runs every one):\n");
    for (const Definition& d : experiment::definitions()) std::printf("  %-18s %s\n", d.name, d.summary);
    return args.list ? 0 : 1;
  }
  if (!args.capture.empty()) {
    if (!experiment::capture_pour(args.name, args.capture, args.capture_every, args.quick))
      throw std::invalid_argument("--capture: only box-of-polygons and box-of-polyhedra capture their problems");
    return 0;
  }
  if ((args.count_runs || args.run >= 0) && (args.name == "all" || args.workers > 0 || !args.scheduler.empty()))
    throw std::invalid_argument("--run and --count-runs take one experiment, without --workers or --scheduler");
  if (args.name == "all") {
    const fs::path base = args.out.empty() ? fs::path("experiments") : fs::path(args.out);
    for (const Definition& d : experiment::definitions()) run_one(d, base / d.name, args);
    return 0;
  }
  const Definition* d = experiment::find_definition(args.name);
  if (!d) {
    std::string known;
    for (const Definition& e : experiment::definitions()) known += (known.empty() ? "" : ", ") + std::string(e.name);
    throw std::invalid_argument("unknown experiment '" + args.name + "' (available: " + known + ", all)");
  }
  run_one(*d, args.out.empty() ? fs::path("experiments") / d->name : fs::path(args.out), args);
  return 0;
}

}  // namespace pegsim::cli
