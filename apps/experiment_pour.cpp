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

namespace pegsim::cli::experiment {
namespace {

struct Totals {
  long steps = 0;
  double overlap_sum = 0.0, overlap_max = 0.0, overlap_final = 0.0, penetration_max = 0.0;
  long traps = 0, contacts = 0;
};

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
  for (ContactModelKind kind : kModels) {
    const std::string model = model_name(kind);
    const bool available = unavailable_reason(kind, setup.dimension).empty();
    std::unique_ptr<Csv> steps;  // none for a model that is not available: its runs end before any step
    if (available) steps = std::make_unique<Csv>(ctx.out / ("steps_" + model + ".csv"), columns);
    for (int seed = 1; seed <= seeds; ++seed) {
      for (double h : hs) {
        const PourScene& ps = scenes[static_cast<std::size_t>(seed - 1)];
        PourSchedule pour(setup, ps, h);
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
        };
        const Outcome o = simulate(ps.scene, kind, h, 10.0 * h, std::lround(setup.duration / h), hooks);
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
