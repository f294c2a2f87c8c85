// pegsim experiment: the thesis's chapter 5 benchmarks (docs/experiments.md),
// run under every contact model and a sweep of time steps, written as CSV.
//
// experiment_command.cpp: the command (output folder, plots);
// experiment_defs.cpp: the table of experiments;
// experiment_common.cpp: CSV files, one simulation run, per-step rows;
// experiment_<name>.cpp: one experiment each.
#pragma once

#include "io/scene.hpp"
#include "sim/world.hpp"

#include <cstdio>
#include <filesystem>
#include <functional>
#include <set>
#include <string>
#include <vector>

namespace pegsim::cli::experiment {

// What every experiment gets: where to write, and how much to run.
struct Context {
  std::filesystem::path out;  // exists
  bool quick = false;         // shrink every sweep (tests, a first look)
  std::filesystem::path scenes;  // the shipped scenes/ folder
};

struct Definition {
  const char* name;
  const char* summary;  // one line, with the thesis section
  void (*run)(const Context&);
};

const std::vector<Definition>& definitions();
const Definition* find_definition(const std::string& name);

// The four contact models, in the order every experiment runs them.
inline constexpr ContactModelKind kModels[] = {ContactModelKind::Standard, ContactModelKind::Peg,
                                               ContactModelKind::Lnc, ContactModelKind::Corrective};
std::string model_name(ContactModelKind kind);
// Empty if the model can run in this dimension, else why not (the registry's message).
std::string unavailable_reason(ContactModelKind kind, Dimension dimension);

// A CSV file written row by row with fixed number formats (%.10g for reals,
// %g for the time steps passed as `step_size`): the same run gives the same
// bytes. Strings are quoted when they hold a comma or a quote.
class Csv {
 public:
  Csv(const std::filesystem::path& path, const std::vector<std::string>& header);
  ~Csv();
  Csv(const Csv&) = delete;
  Csv& operator=(const Csv&) = delete;

  Csv& operator<<(double value);
  Csv& operator<<(long value);
  Csv& operator<<(int value) { return *this << static_cast<long>(value); }
  Csv& operator<<(const std::string& value);
  Csv& operator<<(const char* value) { return *this << std::string(value); }
  Csv& step_size(double h);  // a time step or sweep parameter, shortest form (%g)
  void end_row();  // writes the row, unless it belongs to a run this process does not run (below)

 private:
  void separator();
  std::FILE* file_ = nullptr;
  std::filesystem::path path_;
  std::string row_;  // the row being written
  bool row_started_ = false;
};

std::string format_h(double h);  // %g, as in file names and tables

// How one simulation run ended.
struct Outcome {
  std::string status = "ok";  // ok | skipped | failed
  std::string reason;         // skipped: the model registry's message; failed: the error
  long steps = 0;             // steps taken
  long solver_failures = 0, solver_recoveries = 0;
};

// Runs split over processes (`pegsim experiment NAME --workers N`, python/pegsim_sweep/experiment.py).
// Every simulate() call is one run, numbered 0, 1, ... in call order, which is
// the same in every process. A CSV row belongs to the run of the latest
// simulate() call (rows written before the first: to run 0), as every
// experiment writes a run's rows during and right after it. With
// select_runs(k), only run k (and the runs marked RunHooks::shared, whose
// results later runs use) is simulated, and only run k's rows are written:
// concatenating the rows of processes 0, 1, ... gives the serial files byte
// for byte. count_only: nothing is simulated or written but the headers;
// runs_started() then counts the runs.
void select_runs(long only, bool count_only);
long runs_started();

// One run: `scene` under `kind` with time step h (and contact distance eps if
// eps > 0), for `steps` steps. `before` runs before each step, `after` after it
// (with the step's report). A model that is not available in the scene's
// dimension gives status "skipped"; an exception while stepping, "failed"
// (the steps taken so far have been reported).
struct RunHooks {
  std::function<void(World&)> before;
  std::function<void(World&, const StepReport&)> after;
  bool shared = false;  // later runs use its results: simulated by every process of a split experiment
};
Outcome simulate(const Scene& scene, ContactModelKind kind, double h, double eps, long steps,
                 const RunHooks& hooks);

// runs.csv: one row per run of an experiment, skipped and failed ones included.
class RunLog {
 public:
  explicit RunLog(const Context& ctx);
  // Writes the row and prints a progress line (a skipped model's once); seed
  // < 0: the experiment has none.
  void add(const std::string& model, double h, long seed, const Outcome& outcome);

 private:
  Csv csv_;
  std::set<std::string> skipped_;
};

// Per-step contact statistics: the columns shared by the stack and pour experiments.
std::vector<std::string> step_columns();  // step, t, contacts, u, i, x, traps, max_penetration, overlap, solver_failures
void write_step(Csv& csv, const World& world, const StepReport& report);

// Total overlap between the bodies (analysis/overlap.hpp): area in 2D, volume in 3D.
double measured_overlap(const Model& model, const State& state);

Scene load_shipped_scene(const Context& ctx, const std::string& name);  // scenes/NAME.yaml
std::uint32_t body_named(const Scene& scene, const std::string& name);  // throws if there is none

// Each experiment (experiment_*.cpp).
void triangle_drop(const Context& ctx);
void box_stack_2d(const Context& ctx);
void box_of_polygons(const Context& ctx);
void box_of_polyhedra(const Context& ctx);
void rotation_overlap(const Context& ctx);
void momentum_chain(const Context& ctx);
void grasp_2d(const Context& ctx);
void grasp_2d_friction(const Context& ctx);
void spinning_platter(const Context& ctx);
void arm_grasp_ball(const Context& ctx);
void noslip_quadruped(const Context& ctx);
void viscous_quadruped(const Context& ctx);

}  // namespace pegsim::cli::experiment
