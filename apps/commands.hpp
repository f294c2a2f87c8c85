// The pegsim command line: one function per subcommand.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

namespace pegsim::cli {

// "a,b,c" -> {"a", "b", "c"}; "" -> {}. Empty items are kept ("a,,b" has
// three), so a stray comma reaches the name check and is reported there.
std::vector<std::string> split_list(const std::string& list);

struct RunArgs {
  std::string scene;      // empty: the built-in default scene
  double time = -1.0;     // seconds to simulate (< 0: the scene's duration)
  long steps = -1;        // steps to simulate (overrides time)
  double h = -1.0;        // time step override
  std::string model;      // contact model override
  std::string stepper;    // stepper override (sim/stepper.hpp)
  std::string solver;     // solver override
  std::string solver_chain;  // comma-separated fallback chain override (sim/certification.hpp)
  double relaxation = -1.0;  // psor / projected-jacobi lambda override (< 0: the scene's)
  bool position_correction = false;  // --position-correction: turn it on whatever the scene says
  bool contact_drift_correction = false;  // --contact-drift-correction: likewise
  std::string record;     // HDF5 recording path
  int record_every = 1;
  std::string capture;    // HDF5 file of the steps' complementarity problems (docs/capture-format.md)
  int capture_every = 1;
  bool quiet = false;
};

struct BenchArgs {
  std::string scene;      // empty: box-stack-3d
  long steps = 400;
  double h = 0.005;
  std::string model;      // contact model override (empty: the scene's)
  std::string solvers = "lemke,pgs";
  std::string models;     // comma-separated contact models; empty: the scene's
};

struct ExperimentArgs {
  std::string name;       // an experiment, or "all"
  std::string out;        // output folder (default experiments/NAME; with all, DIR/NAME)
  bool quick = false;     // shrunk sweeps
  bool no_plots = false;  // CSV only
  bool list = false;
  std::string capture;    // box-of-polygons/-polyhedra: capture one pour's problems instead
  int capture_every = 1;
  int workers = -1;       // >= 1: the runs on a local Dask cluster of that many workers (docs/sweeps.md)
  std::string scheduler;  // or on an existing Dask cluster
  long run = -1;          // >= 0: only this run (a worker's share of --workers)
  bool count_runs = false;  // print the number of runs, simulate nothing
};

// pegsim solve-bench / gen-problems (docs/solve-bench.md)
struct SolveBenchArgs {
  std::vector<std::string> files;  // capture files
  std::string solvers;             // comma-separated; empty: every registered solver
  double tolerance = 1e-8;         // on the measured residual, scaled by 1 + |b|_inf
  std::string out;                 // folder for the CSV files and the profile plot; empty: none
  bool no_plots = false;
};
struct GenProblemsArgs {
  int count = 10, contacts = 10, bodies = 0, friction_directions = 4;
  unsigned long long seed = 1;
  std::string out;
};
int solve_bench_command(const SolveBenchArgs& args);
int gen_problems_command(const GenProblemsArgs& args);
struct PlotArgs {
  std::string recording;  // an HDF5 recording (docs/recording-format.md)
  std::string out;        // output folder (default: next to the recording, STEM-plots)
};

struct ReplayArgs {
  std::string recording;  // HDF5 recording
  std::string out;        // page path; empty: a temporary file, opened with xdg-open
  bool no_open = false;
  std::size_t max_contacts = 1000000;  // more: contacts left out of the page
};

int run_command(const RunArgs& args);
int plot_command(const PlotArgs& args);
int replay_command(const ReplayArgs& args);
int experiment_command(const ExperimentArgs& args);
int bench_command(const BenchArgs& args);
// `python3 -m MODULE ARGS` for MODULE in the package pegsim_sweep (sweep_command.cpp, docs/sweeps.md),
// with the built module's folder on PYTHONPATH; its exit status
int run_sweep_module(const std::string& module, const std::vector<std::string>& args);
int sweep_command(const std::vector<std::string>& args);
// runs pegsim_compare (built next to this executable) with ARGS in place of this process (compare_command.cpp)
int compare_command(const std::vector<std::string>& args);

// The built-in default scene (scenes/box-stack-3d.yaml, compiled in).
const char* builtin_scene_text();
const char* builtin_scene_name();

}  // namespace pegsim::cli
