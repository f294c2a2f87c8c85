// rotation-overlap (thesis 5.3, Fig. 5.25) and momentum-chain (thesis 5.4,
// Figs. 5.26-5.27): the shipped scenes under every contact model and a sweep
// of h.
//
// rotation-overlap writes overlap.csv (per model and h: the total overlap and
// the deepest penetration after one step, next to the thesis's value);
// momentum-chain writes momentum_<model>.csv (h, step, t, px, py at every
// step) and drift.csv (per model and h: initial, final and largest deviation
// of the total momentum). Both write runs.csv.
#include "experiment.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <utility>

namespace pegsim::cli::experiment {

void rotation_overlap(const Context& ctx) {
  const Scene scene = load_shipped_scene(ctx, "rotation-overlap");
  // thesis Fig. 5.25: area of overlap after one step (their bodies' sizes are not given)
  const std::vector<std::pair<double, double>> thesis = {{0.01, 0.000025}, {0.1, 0.0025}, {0.2, 0.01},
                                                         {0.3, 0.0223},    {0.4, 0.0395}, {0.5, 0.0612}};
  RunLog log(ctx);
  Csv csv(ctx.out / "overlap.csv", {"model", "h", "status", "overlap", "max_penetration", "thesis_overlap"});
  for (ContactModelKind kind : kModels) {
    for (const auto& [h, reported] : thesis) {
      double overlap = std::numeric_limits<double>::quiet_NaN(), penetration = overlap;
      RunHooks hooks;
      hooks.after = [&](World& world, const StepReport& r) {
        overlap = measured_overlap(world.model(), world.state());
        penetration = r.max_penetration;
      };
      const Outcome o = simulate(scene, kind, h, -1.0, 1, hooks);
      log.add(model_name(kind), h, -1, o);
      if (o.status == "skipped") continue;
      csv << model_name(kind);
      csv.step_size(h) << o.status << overlap << penetration << reported;
      csv.end_row();
    }
  }
}

void momentum_chain(const Context& ctx) {
  const Scene scene = load_shipped_scene(ctx, "momentum-chain");
  const double duration = scene.model.options.duration;
  const std::vector<double> hs =
      ctx.quick ? std::vector<double>{0.005, 0.01} : std::vector<double>{0.001, 0.002, 0.005, 0.01};
  RunLog log(ctx);
  Csv drift(ctx.out / "drift.csv", {"model", "h", "status", "steps", "p_initial", "p_final", "max_drift"});
  for (ContactModelKind kind : kModels) {
    const std::string model = model_name(kind);
    if (const std::string reason = unavailable_reason(kind, scene.model.options.dimension); !reason.empty()) {
      for (double h : hs) log.add(model, h, -1, Outcome{"skipped", reason, 0, 0, 0});
      continue;
    }
    Csv csv(ctx.out / ("momentum_" + model + ".csv"), {"h", "step", "t", "px", "py"});
    for (double h : hs) {
      const Vec3 p0 = linear_momentum(scene.model, scene.state);
      Vec3 p = p0;
      double largest = 0.0;
      auto write = [&](const World& world) {
        p = linear_momentum(world.model(), world.state());
        largest = std::max(largest, (p - p0).norm());
        csv.step_size(h) << static_cast<long>(world.state().step) << world.state().time << p.x() << p.y();
        csv.end_row();
      };
      RunHooks hooks;
      hooks.before = [&](World& world) {
        if (world.state().step == 0) write(world);
      };
      hooks.after = [&](World& world, const StepReport&) { write(world); };
      const Outcome o = simulate(scene, kind, h, -1.0, std::lround(duration / h), hooks);
      log.add(model, h, -1, o);
      drift << model;
      drift.step_size(h) << o.status << o.steps << p0.norm() << p.norm() << largest;
      drift.end_row();
    }
  }
}

}  // namespace pegsim::cli::experiment
