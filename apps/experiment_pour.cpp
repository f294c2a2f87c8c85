// box-of-polygons (thesis 5.2.3, Figs. 5.10-5.13) and box-of-polyhedra (5.2.4,
// Figs. 5.14-5.15): per contact model, seed and h, a pour (experiment_pour.hpp)
// with eps = 10 h (as thesis 5.2.1; 5.2.3 gives none).
//
// Writes scene_seed<S>.yaml (each generated scene), steps_<model>.csv (per
// seed, h and step: bodies released, contacts, U/I/X counts, traps,
// penetration, total overlap), summary.csv (per model, seed and h: overlap
// mean, max and final, traps, failures) and runs.csv.
#include "experiment_pour.hpp"

#include "io/capture_world.hpp"

#include <algorithm>
#include <cmath>
#include <fstream>
#include <memory>
#include <utility>

namespace pegsim::cli::experiment {
namespace {

struct Totals {
  long steps = 0;
  double overlap_sum = 0.0, overlap_max = 0.0, overlap_final = 0.0, penetration_max = 0.0;
  long traps = 0, contacts = 0;
};

// Time per step by stage (the StepReport profile), summed over one model's
// runs: wall clock, so printed only, never written to the CSV files (which
// stay the same bytes from run to run). Issue 3 "Speed": the thesis reports
// PEG's mean solve time at 1.85 times the corrective method's on
// box-of-polyhedra (MATLAB with PATH, 5.2.4).
struct StageTimes {
  StepProfile seconds;
  long steps = 0;
  long solving_steps = 0;  // steps that solved at least one problem
  void add(const StepReport& r) {
    for (std::size_t s = 0; s < r.profile.seconds.size(); ++s) seconds.seconds[s] += r.profile.seconds[s];
    ++steps;
    solving_steps += r.solver_calls > 0;
  }
  double per_solve() const {  // us of the solver stage per step that solved a problem
    return solving_steps ? 1e6 * seconds[Stage::Solver] / static_cast<double>(solving_steps) : 0.0;
  }
  double total() const {
    double t = 0.0;
    for (double v : seconds.seconds) t += v;
    return t;
  }
  double per_step(double v) const { return steps ? 1e6 * v / static_cast<double>(steps) : 0.0; }  // us
};

void print_timing(const char* name, const std::vector<std::pair<std::string, StageTimes>>& times) {
  std::printf("  time per step (us, mean over every seed and h; wall clock, not in the CSV files):\n");
  std::printf("  %-10s %9s", "model", "step");
  for (const char* stage : kStageNames) std::printf(" %9.9s", stage);
  std::printf(" %9s %8s\n", "solve/sv", "solving");  // solver stage per solving step; share of steps that solve
  const StageTimes* by_name[3] = {nullptr, nullptr, nullptr};  // standard, peg, corrective
  for (const auto& [model, t] : times) {
    std::printf("  %-10s %9.1f", model.c_str(), t.per_step(t.total()));
    for (double v : t.seconds.seconds) std::printf(" %9.1f", t.per_step(v));
    std::printf(" %9.1f %7.0f%%\n", t.per_solve(), t.steps ? 100.0 * t.solving_steps / t.steps : 0.0);
    if (model == "standard") by_name[0] = &t;
    if (model == "peg") by_name[1] = &t;
    if (model == "corrective") by_name[2] = &t;
  }
  // kind 0: whole step; 1: solver stage; 2: the step without the observers
  // stage (World's after-step penetration measurement, a diagnostic)
  auto ratio = [](const StageTimes* a, const StageTimes* b, int kind) {
    auto of = [kind](const StageTimes* t) {
      if (kind == 1) return t->per_step(t->seconds[Stage::Solver]);
      return t->per_step(t->total() - (kind == 2 ? t->seconds[Stage::Observers] : 0.0));
    };
    return of(b) > 0.0 ? of(a) / of(b) : 0.0;
  };
  if (by_name[1] && by_name[2] && by_name[1]->steps && by_name[2]->steps)
    std::printf("  %s: PEG / corrective: solver stage %.2f per step, %.2f per solving step "
                "(thesis, box-of-polyhedra: 1.85), whole step %.2f, without observers %.2f\n",
                name, ratio(by_name[1], by_name[2], 1), by_name[1]->per_solve() / std::max(by_name[2]->per_solve(), 1e-300),
                ratio(by_name[1], by_name[2], 0), ratio(by_name[1], by_name[2], 2));
  if (by_name[1] && by_name[0] && by_name[1]->steps && by_name[0]->steps)
    std::printf("  %s: PEG / standard: whole step %.2f, without observers %.2f (bar: within 2)\n", name,
                ratio(by_name[1], by_name[0], 0), ratio(by_name[1], by_name[0], 2));
}

void run_pour(const Context& ctx, PourSetup setup) {
  if (ctx.quick) setup.duration = 1.0;
  const std::vector<double> hs =
      ctx.quick ? std::vector<double>{0.005, 0.01} : std::vector<double>{0.001, 0.002, 0.005, 0.01};
  const int seeds = ctx.quick ? 2 : 10;

  std::vector<PourScene> scenes;
  for (int seed = 1; seed <= seeds; ++seed) {
    scenes.push_back(make_pour_scene(setup, static_cast<std::uint64_t>(seed), setup.count()));
    std::ofstream(ctx.out / ("scene_seed" + std::to_string(seed) + ".yaml")) << scenes.back().scene.text;
  }

  RunLog log(ctx);
  Csv summary(ctx.out / "summary.csv", {"model", "seed", "h", "status", "steps", "released", "mean_overlap",
                                        "max_overlap", "final_overlap", "max_penetration", "traps_total",
                                        "mean_contacts", "solver_failures"});
  std::vector<std::string> columns = {"seed", "h", "released"};
  for (const std::string& c : step_columns()) columns.push_back(c);
  std::vector<std::pair<std::string, StageTimes>> times;
  // the four models, then PEG again with the position correction after each
  // step (SimOptions::position_correction, sim/position_correction.cpp)
  std::vector<std::pair<ContactModelKind, bool>> variants;
  for (ContactModelKind kind : kModels) variants.emplace_back(kind, false);
  variants.emplace_back(ContactModelKind::Peg, true);
  for (const auto& [kind, corrected] : variants) {
    const std::string model = model_name(kind) + (corrected ? "-corrected" : "");
    times.emplace_back(model, StageTimes{});
    const bool available = unavailable_reason(kind, setup.dimension).empty();
    std::unique_ptr<Csv> steps;  // none for a model that is not available: its runs end before any step
    if (available) steps = std::make_unique<Csv>(ctx.out / ("steps_" + model + ".csv"), columns);
    for (int seed = 1; seed <= seeds; ++seed) {
      for (double h : hs) {
        const PourScene& ps = scenes[static_cast<std::size_t>(seed - 1)];
        PourSchedule pour(setup, ps, h);
        Scene scene = ps.scene;
        scene.model.options.position_correction = corrected;
        Totals t;
        RunHooks hooks;
        hooks.before = [&](World& world) { pour.before_step(world); };
        hooks.after = [&](World& world, const StepReport& r) {
          *steps << seed;
          steps->step_size(h) << pour.released();
          write_step(*steps, world, r);
          steps->end_row();
          const double overlap = measured_overlap(world.model(), world.state());
          ++t.steps;
          t.overlap_sum += overlap;
          t.overlap_max = std::max(t.overlap_max, overlap);
          t.overlap_final = overlap;
          t.penetration_max = std::max(t.penetration_max, r.max_penetration);
          t.traps += r.traps;
          t.contacts += r.contacts_found;
          times.back().second.add(r);
        };
        const Outcome o = simulate(scene, kind, h, 10.0 * h, std::lround(setup.duration / h), hooks);
        log.add(model, h, seed, o);
        if (!available) continue;
        const double n = static_cast<double>(std::max(t.steps, 1L));
        summary << model << seed;
        summary.step_size(h) << o.status << o.steps << pour.released() << t.overlap_sum / n << t.overlap_max
                             << t.overlap_final << t.penetration_max << t.traps << t.contacts / n
                             << o.solver_failures;
        summary.end_row();
      }
    }
  }
  print_timing(setup.name, times);
}

}  // namespace

void box_of_polygons(const Context& ctx) { run_pour(ctx, pour_setup("box-of-polygons")); }
void box_of_polyhedra(const Context& ctx) { run_pour(ctx, pour_setup("box-of-polyhedra")); }

bool capture_pour(const std::string& name, const std::string& file, long every, bool quick) {
  if (name != "box-of-polygons" && name != "box-of-polyhedra") return false;
  PourSetup setup = pour_setup(name);
  if (quick) setup.duration = 1.0;
  const double h = 0.005;  // seed 1 runs to the end at this step (0.01 blows up)
  const PourScene ps = make_pour_scene(setup, 1, setup.count());
  PourSchedule pour(setup, ps, h);
  CaptureWriter writer(file, std::string(setup.name) + " seed 1, h = 0.005 (pegsim experiment --capture)");
  RunHooks hooks;
  hooks.before = [&](World& world) { pour.before_step(world); };
  hooks.after = [&](World& world, const StepReport&) { capture_last_step(writer, world, every); };
  const ContactModelKind kind = ps.scene.model.options.model;
  const Outcome o = simulate(ps.scene, kind, h, 10.0 * h, std::lround(setup.duration / h), hooks);
  writer.close();
  std::printf("%s: %ld steps (%s), %d problems captured in %s\n", setup.name, o.steps, o.status.c_str(),
              writer.count(), file.c_str());
  return true;
}

}  // namespace pegsim::cli::experiment
