// The pegsim command line: one function per subcommand.
#pragma once

#include <cstddef>
#include <string>

namespace pegsim::cli {

struct RunArgs {
  std::string scene;      // empty: the built-in default scene
  double time = -1.0;     // seconds to simulate (< 0: the scene's duration)
  long steps = -1;        // steps to simulate (overrides time)
  double h = -1.0;        // time step override
  std::string model;      // contact model override
  std::string solver;     // solver override
  std::string record;     // HDF5 recording path
  int record_every = 1;
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
};

struct ReplayArgs {
  std::string recording;  // HDF5 recording
  std::string out;        // page path; empty: a temporary file, opened with xdg-open
  bool no_open = false;
  std::size_t max_contacts = 1000000;  // more: contacts left out of the page
};

int run_command(const RunArgs& args);
int replay_command(const ReplayArgs& args);
int experiment_command(const ExperimentArgs& args);
int bench_command(const BenchArgs& args);

// The built-in default scene (scenes/box-stack-3d.yaml, compiled in).
const char* builtin_scene_text();
const char* builtin_scene_name();

}  // namespace pegsim::cli
