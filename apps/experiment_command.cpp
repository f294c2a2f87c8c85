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

void run_one(const Definition& d, const fs::path& dir, const ExperimentArgs& args) {
  fs::create_directories(dir);
  Context ctx;
  ctx.out = dir;
  ctx.quick = args.quick;
  ctx.scenes = fs::path(PEGSIM_SOURCE_DIR) / "scenes";
  std::printf("pegsim experiment %s%s: %s\n  -> %s\n", d.name, args.quick ? " (quick)" : "", d.summary,
              dir.c_str());
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
