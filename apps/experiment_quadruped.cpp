// noslip-quadruped (reference 002's walking experiments; EXPERIMENTS.md;
// docs/experiments.md "quadruped-stand and quadruped-trot"): pegsim's
// quadruped trotting open loop for 10 s at h = 0.001 on flat ground
// (scenes/quadruped-trot.yaml) and on uneven terrain
// (scenes/quadruped-trot-uneven.yaml), under the time-stepping LCP with PEG
// ([lemke, path]) and under the no-slip model (standard contacts, [ppm, lemke]).
//
// Writes walk.csv (per terrain and model, every 50 steps: t, the torso's x,
// y, z and the cosine of its tilt, the step's contacts) and summary.csv (per
// run: distance walked along x, sideways drift, lowest torso uprightness,
// contacts per step (least, mean, most), failed solves, deepest overlap).
// Times per step are the benchmarks' and `pegsim run`'s: the files here are
// the same bytes on every run.
#include "experiment.hpp"

#include <algorithm>

namespace pegsim::cli::experiment {

void noslip_quadruped(const Context& ctx) {
  const double h = 0.001, seconds = ctx.quick ? 1.0 : 10.0;
  RunLog log(ctx);
  Csv walk(ctx.out / "walk.csv", {"terrain", "model", "t", "x", "y", "z", "up", "contacts"});
  Csv summary(ctx.out / "summary.csv", {"terrain", "model", "status", "steps", "distance", "sideways", "lowest_up",
                                        "contacts_min", "contacts_mean", "contacts_max", "solver_failures",
                                        "max_penetration"});
  for (const char* terrain : {"flat", "uneven"}) {
    const Scene scene = load_shipped_scene(ctx, std::string("quadruped-trot") + (terrain[0] == 'u' ? "-uneven" : ""));
    const std::uint32_t torso = body_named(scene, "dog/torso");
    for (const char* model : {"peg", "no-slip"}) {
      Scene s = scene;
      const bool noslip = model[0] == 'n';
      if (noslip) {
        s.model.options.stepper = "no-slip";
        s.model.options.solver_chain = {"ppm", "lemke"};
      }
      const Vec3 start = s.state.bodies[torso].pose.position;
      Vec3 at = start;
      double lowest_up = 1.0, deepest = 0.0, contacts_sum = 0.0;
      int contacts_min = 1 << 30, contacts_max = 0;
      RunHooks hooks;
      hooks.after = [&](World& w, const StepReport& r) {
        const BodyState& b = w.state().bodies[torso];
        at = b.pose.position;
        const double up = b.pose.orientation.toRotationMatrix()(2, 2);
        lowest_up = std::min(lowest_up, up);
        deepest = std::max(deepest, r.max_penetration);
        contacts_min = std::min(contacts_min, r.contacts_found);
        contacts_max = std::max(contacts_max, r.contacts_found);
        contacts_sum += r.contacts_found;
        if (w.state().step % 50 == 0) {
          walk << terrain << model << w.state().time << at.x() << at.y() << at.z() << up << r.contacts_found;
          walk.end_row();
        }
      };
      const Outcome o = simulate(s, noslip ? ContactModelKind::Standard : ContactModelKind::Peg, h, -1.0,
                                 std::lround(seconds / h), hooks);
      log.add(std::string(terrain) + " " + model, h, -1, o);
      summary << terrain << model << o.status << o.steps << at.x() - start.x() << at.y() - start.y() << lowest_up
              << (o.steps > 0 ? contacts_min : 0) << (o.steps > 0 ? contacts_sum / static_cast<double>(o.steps) : 0.0)
              << contacts_max << o.solver_failures << deepest;
      summary.end_row();
    }
  }
}

}  // namespace pegsim::cli::experiment
