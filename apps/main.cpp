// pegsim: run scenes, benchmark them, run the thesis experiments, plot recordings.
#include "commands.hpp"
#include "option_checks.hpp"

#include "contact/contact_model.hpp"
#include "io/h5.hpp"
#include "io/scene_limits.hpp"
#include "sim/certification.hpp"
#include "sim/stepper.hpp"

#include <CLI/CLI.hpp>

#include <climits>
#include <iostream>

int main(int argc, char** argv) {
  pegsim::h5::quiet_process();  // one clear message per failure, no HDF5 noise (src/io/h5.hpp)
  CLI::App app{"pegsim: rigid-body contact simulation with exact polytope contact"};
  app.require_subcommand(1);

  pegsim::cli::RunArgs run;
  CLI::App* run_cmd = app.add_subcommand("run", "simulate a scene (default: the built-in box stack)");
  run_cmd->add_option("scene", run.scene, "scene file (YAML); omitted: built-in default scene");
  // numeric options are checked as they are read (option_checks.hpp): no value is silently ignored
  using pegsim::cli::whole_number;
  const long long max_steps = static_cast<long long>(pegsim::scene_limits::kMaxSteps);
  auto* time_opt = run_cmd->add_option("--time", run.time, "simulated seconds (default: the scene's duration)")
                       ->check(pegsim::cli::positive_finite("seconds"));
  run_cmd->add_option("--steps", run.steps, "number of steps")->excludes(time_opt)->check(whole_number(0, max_steps));
  run_cmd->add_option("--h", run.h, "time step (s)")->check(pegsim::cli::time_step());
  // the registries' names in the help; unknown names are reported by the commands, listing them
  const std::string models = pegsim::chain_text(pegsim::contact_model_names());
  run_cmd->add_option("--model", run.model, "contact model: " + models + " (default: the scene's; peg if it names none)");
  run_cmd->add_option("--stepper", run.stepper,
                      "how a step is taken: " + pegsim::chain_text(pegsim::stepper_names()) + " (default: the scene's)");
  run_cmd->add_option("--solver", run.solver, "complementarity solver (docs/solvers.md): lemke, pgs, psor, path, ...");
  run_cmd->add_option("--relaxation", run.relaxation, "psor / projected-jacobi relaxation lambda in (0, 2)")
      ->check(pegsim::cli::open_interval(0.0, 2.0));
  run_cmd->add_flag("--position-correction", run.position_correction,
                    "project poses out of overlap after each step (scene option position_correction)");
  run_cmd->add_flag("--contact-drift-correction", run.contact_drift_correction,
                    "take a sticking contact's tangential drift of one step back in the next (scene option "
                    "contact_drift_correction)");
  run_cmd->add_option("--solver-chain", run.solver_chain,
                      "fallback chain, e.g. pgs,path,lemke: a solve that misses its tolerance goes to the next");
  run_cmd->add_option("--record", run.record, "write an HDF5 recording to FILE");
  run_cmd->add_option("--record-every", run.record_every, "record one step in N")->check(whole_number(1, INT_MAX));
  run_cmd->add_option("--capture", run.capture, "write each step's complementarity problem to an HDF5 FILE");
  run_cmd->add_option("--capture-every", run.capture_every, "capture one step in N")->check(whole_number(1, INT_MAX));
  run_cmd->add_flag("--quiet", run.quiet, "print only the summary");

  pegsim::cli::BenchArgs bench;
  CLI::App* bench_cmd = app.add_subcommand("bench", "time per step by stage, for each solver");
  bench_cmd->add_option("scene", bench.scene, "scene file (default: built-in box-stack-3d)");
  bench_cmd->add_option("--steps", bench.steps, "steps per solver")->check(whole_number(1, max_steps));
  bench_cmd->add_option("--h", bench.h, "time step (s)")->check(pegsim::cli::time_step());
  bench_cmd->add_option("--model", bench.model, "contact model: " + models + " (default: the scene's)");
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
  exp_cmd->add_option("--capture", exp.capture, "pour experiments: capture one pour's problems to FILE, nothing else");
  exp_cmd->add_option("--capture-every", exp.capture_every, "capture one step in N")->check(whole_number(1, INT_MAX));
  auto* workers_opt = exp_cmd->add_option("--workers", exp.workers,
      "run the experiment's runs on a local Dask cluster of N worker processes (docs/sweeps.md); "
      "the files are those of a run in one process")->check(whole_number(1, 1024));
  exp_cmd->add_option("--scheduler", exp.scheduler, "run them on an existing Dask cluster (tcp://HOST:8786)")
      ->excludes(workers_opt);
  exp_cmd->add_option("--run", exp.run, "only the K-th run (0-based), its rows only: one worker's share")
      ->check(whole_number(0, LONG_MAX));
  exp_cmd->add_flag("--count-runs", exp.count_runs, "print the number of runs (runs: N), simulate nothing");

  pegsim::cli::SolveBenchArgs sb;
  CLI::App* sb_cmd = app.add_subcommand("solve-bench", "every solver on captured problems; performance profiles");
  sb_cmd->add_option("files", sb.files, "capture files (pegsim run --capture, gen-problems)")->required();
  sb_cmd->add_option("--solvers", sb.solvers, "comma-separated solver names (default: all registered)");
  sb_cmd->add_option("--tolerance", sb.tolerance, "solved: measured residual <= T (1 + |b|_inf)")
      ->check(pegsim::cli::positive_finite("a residual tolerance"));
  sb_cmd->add_option("--out", sb.out, "folder for results/summary/profile CSV and profile.png");
  sb_cmd->add_flag("--no-plots", sb.no_plots, "write the CSV files only");

  pegsim::cli::GenProblemsArgs gen;
  CLI::App* gen_cmd = app.add_subcommand("gen-problems", "random rigid-body contact LCPs in the capture layout");
  gen_cmd->add_option("--count", gen.count, "problems")->check(whole_number(1, 100000));
  gen_cmd->add_option("--contacts", gen.contacts, "contacts per problem (with --friction-directions: at most 4000 variables)")
      ->check(whole_number(1, 2000));
  gen_cmd->add_option("--bodies", gen.bodies, "dynamic bodies (default: contacts / 2 + 1)")->check(whole_number(1, 10000));
  gen_cmd->add_option("--friction-directions", gen.friction_directions, "n_d per contact")->check(whole_number(2, 64));
  gen_cmd->add_option("--seed", gen.seed, "random seed")->check(whole_number(0, LLONG_MAX));
  gen_cmd->add_option("--out", gen.out, "output HDF5 file")->required();

  pegsim::cli::PlotArgs plot;
  CLI::App* plot_cmd = app.add_subcommand(
      "plot", "PNG plots of a recording: energy, momentum, contacts, U/I/X, penetration, solver, trajectories");
  plot_cmd->add_option("recording", plot.recording, "HDF5 recording (pegsim run --record)")->required();
  plot_cmd->add_option("--out", plot.out, "output folder (default: next to the recording, STEM-plots)");

  pegsim::cli::ReplayArgs replay;
  CLI::App* replay_cmd = app.add_subcommand("replay", "replay a recording in 3D: one self-contained HTML page");
  replay_cmd->add_option("recording", replay.recording, "HDF5 recording (pegsim run --record)")->required();
  replay_cmd->add_option("--out", replay.out, "write the page to FILE (default: a temporary file, opened)");
  replay_cmd->add_flag("--no-open", replay.no_open, "do not open the page");
  replay_cmd->add_option("--max-contacts", replay.max_contacts, "leave contacts out above this many")
      ->check(whole_number(0, LLONG_MAX));

  CLI::App* sweep_cmd = app.add_subcommand(
      "sweep", "a parameter study on Dask distributed (docs/sweeps.md): pegsim sweep STUDY.yaml [--workers N | "
               "--scheduler ADDRESS] [--out DIR] [--fresh] [--record] [--no-plots] [--check]; --help lists all");
  sweep_cmd->prefix_command();  // every argument goes to python3 -m pegsim_sweep, which parses them
  sweep_cmd->set_help_flag();

  CLI::App* compare_cmd = app.add_subcommand(
      "compare", "a 3D scene side by side in pegsim, Bullet, MuJoCo and ODE (docs/cli.md): pegsim compare SCENE "
                 "[--engines mujoco,bullet,ode] [--time T] [--out DIR] [--expect-final ...]; --help lists all");
  compare_cmd->prefix_command();  // every argument goes to pegsim_compare, which parses them
  compare_cmd->set_help_flag();

  CLI11_PARSE(app, argc, argv);
  try {
    if (*run_cmd) return pegsim::cli::run_command(run);
    if (*bench_cmd) return pegsim::cli::bench_command(bench);
    if (*exp_cmd) return pegsim::cli::experiment_command(exp);
    if (*sb_cmd) return pegsim::cli::solve_bench_command(sb);
    if (*gen_cmd) return pegsim::cli::gen_problems_command(gen);
    if (*plot_cmd) return pegsim::cli::plot_command(plot);
    if (*replay_cmd) return pegsim::cli::replay_command(replay);
    if (*sweep_cmd) return pegsim::cli::sweep_command(sweep_cmd->remaining());
    if (*compare_cmd) return pegsim::cli::compare_command(compare_cmd->remaining());
  } catch (const std::exception& e) {
    std::cerr << "pegsim: error: " << e.what() << "\n";
    return 1;
  }
  return 0;
}
