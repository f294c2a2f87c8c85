// box-stack-2d (thesis 5.2.2, Figs. 5.7-5.9): scenes/box-stack-2d.yaml (ten
// staggered unit squares, h = 0.005 s, eps = 0.07 m) under every contact model.
//
// Writes steps_<model>.csv (contacts, U/I/X counts, traps, penetration and
// overlap at every step), final_positions.csv (every box at the end of each
// model's run) and runs.csv.
#include "experiment.hpp"

#include <cmath>

namespace pegsim::cli::experiment {

void box_stack_2d(const Context& ctx) {
  const Scene scene = load_shipped_scene(ctx, "box-stack-2d");
  const double h = scene.model.options.h;
  const double duration = ctx.quick ? 1.0 : scene.model.options.duration;
  RunLog log(ctx);
  Csv final(ctx.out / "final_positions.csv", {"model", "body", "x", "y", "theta"});
  for (ContactModelKind kind : kModels) {
    const std::string model = model_name(kind);
    if (const std::string reason = unavailable_reason(kind, scene.model.options.dimension); !reason.empty()) {
      log.add(model, h, -1, Outcome{"skipped", reason, 0, 0, 0});
      continue;
    }
    Csv steps(ctx.out / ("steps_" + model + ".csv"), step_columns());
    State last = scene.state;
    RunHooks hooks;
    hooks.after = [&](World& world, const StepReport& r) {
      write_step(steps, world, r);
      steps.end_row();
      last = world.state();
    };
    log.add(model, h, -1, simulate(scene, kind, h, -1.0, std::lround(duration / h), hooks));
    for (std::size_t b = 0; b < scene.model.bodies.size(); ++b) {
      const BodyState& s = last.bodies[b];
      final << model << scene.model.bodies[b].name << s.pose.position.x() << s.pose.position.y() << planar_angle(s.pose);
      final.end_row();
    }
  }
}

}  // namespace pegsim::cli::experiment
