// pegsim: run scenes, benchmark them, run the thesis experiments.
#include "commands.hpp"

#include <CLI/CLI.hpp>

#include <iostream>

int main(int argc, char** argv) {
  CLI::App app{"pegsim: rigid-body contact simulation with exact polytope contact"};
  app.require_subcommand(1);

  pegsim::cli::RunArgs run;
  CLI::App* run_cmd = app.add_subcommand("run", "simulate a scene (default: the built-in box stack)");
  run_cmd->add_option("scene", run.scene, "scene file (YAML); omitted: built-in default scene");
  auto* time_opt = run_cmd->add_option("--time", run.time, "simulated seconds (default: the scene's duration)");
  run_cmd->add_option("--steps", run.steps, "number of steps")->excludes(time_opt);
  run_cmd->add_option("--h", run.h, "time step (s)");
  run_cmd->add_option("--model", run.model, "contact model: standard|peg|lnc|corrective");
  run_cmd->add_option("--solver", run.solver, "complementarity solver: lemke|pgs|path|fischer-newton|minmap-newton");
  run_cmd->add_option("--record", run.record, "write an HDF5 recording to FILE");
  run_cmd->add_option("--record-every", run.record_every, "record one step in N")->check(CLI::PositiveNumber);
  run_cmd->add_flag("--quiet", run.quiet, "print only the summary");

  pegsim::cli::BenchArgs bench;
  CLI::App* bench_cmd = app.add_subcommand("bench", "time per step by stage, for each solver");
  bench_cmd->add_option("scene", bench.scene, "scene file (default: built-in box-stack-3d)");
  bench_cmd->add_option("--steps", bench.steps, "steps per solver");
  bench_cmd->add_option("--h", bench.h, "time step (s)");
  bench_cmd->add_option("--model", bench.model, "contact model: standard|peg|lnc|corrective");
  bench_cmd->add_option("--solvers", bench.solvers, "comma-separated solver names");
  bench_cmd->add_option("--models", bench.models, "comma-separated contact models (default: the scene's)");

  pegsim::cli::ExperimentArgs exp;
  CLI::App* exp_cmd = app.add_subcommand(
      "experiment", "run a thesis chapter-5 experiment under every contact model; CSV files and plots");
  exp_cmd->add_option("name", exp.name, "experiment name, or all (--list shows them)");
  exp_cmd->add_option("--out", exp.out, "output folder (default experiments/NAME)");
  exp_cmd->add_flag("--quick", exp.quick, "shrink every sweep (fewer h, seeds, shorter times)");
  exp_cmd->add_flag("--no-plots", exp.no_plots, "write the CSV files only");
  exp_cmd->add_flag("--list", exp.list, "list the experiments");

  pegsim::cli::ReplayArgs replay;
  CLI::App* replay_cmd = app.add_subcommand("replay", "replay a recording in 3D: one self-contained HTML page");
  replay_cmd->add_option("recording", replay.recording, "HDF5 recording (pegsim run --record)")->required();
  replay_cmd->add_option("--out", replay.out, "write the page to FILE (default: a temporary file, opened)");
  replay_cmd->add_flag("--no-open", replay.no_open, "do not open the page");
  replay_cmd->add_option("--max-contacts", replay.max_contacts, "leave contacts out above this many");

  CLI11_PARSE(app, argc, argv);
  try {
    if (*run_cmd) return pegsim::cli::run_command(run);
    if (*bench_cmd) return pegsim::cli::bench_command(bench);
    if (*exp_cmd) return pegsim::cli::experiment_command(exp);
    if (*replay_cmd) return pegsim::cli::replay_command(replay);
  } catch (const std::exception& e) {
    std::cerr << "pegsim: error: " << e.what() << "\n";
    return 1;
  }
  return 0;
}
