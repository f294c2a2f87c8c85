// arm-grasp-ball (reference 000, section 4; EXPERIMENTS.md "arm-grasp-ball";
// docs/experiments.md "The robots under the Drumwright-Shell models"): the
// 7-DOF arm of scenes/arm7-grasp-ball.yaml holds the ball while its shoulder
// follows sin(t)/4 and sin(2t)/4, h = 0.001, under the time-stepping LCP with
// PEG, the no-slip model (standard contacts, [ppm, lemke]) and the convex
// impulse model. The paper plots the ball's drift in the gripper against time
// (its convex model approaching 0.1 mm).
//
// Writes drift.csv (per model, every 10 steps: t, the ball's displacement in
// the left pad's frame since the start) and summary.csv (per model: drift at
// the end and largest, contacts with the pads at the end, failed solves,
// deepest overlap). Times per step are the benchmarks' (docs/performance.md
// "Robots"): the files are the same bytes on every run.
#include "experiment.hpp"


namespace pegsim::cli::experiment {

namespace {

struct GraspModel {
  const char* name;     // as written in the CSV files
  const char* stepper;  // sim/stepper.hpp registry
  ContactModelKind contact;
};

}  // namespace

void arm_grasp_ball(const Context& ctx) {
  const Scene scene = load_shipped_scene(ctx, "arm7-grasp-ball");
  const double h = 0.001, seconds = ctx.quick ? 2.0 : 100.0;
  const std::uint32_t ball = body_named(scene, "ball"), pad = body_named(scene, "arm/left_pad");
  const GraspModel models[] = {{"peg", "time-stepping", ContactModelKind::Peg},
                               {"no-slip", "no-slip", ContactModelKind::Standard},
                               {"convex-impulse", "convex-impulse", ContactModelKind::Standard}};
  RunLog log(ctx);
  Csv drift(ctx.out / "drift.csv", {"model", "t", "drift"});
  Csv summary(ctx.out / "summary.csv", {"model", "status", "steps", "drift_end", "drift_max", "contacts_end",
                                        "solver_failures", "max_penetration"});
  for (const GraspModel& g : models) {
    Scene s = scene;
    s.model.options.stepper = g.stepper;
    if (g.contact == ContactModelKind::Standard) s.model.options.solver_chain = {"ppm", "lemke"};
    Vec3 start = Vec3::Zero();
    double largest = 0.0, last = 0.0, deepest = 0.0;
    int contacts = 0;
    auto in_pad = [&](const World& w) {
      return w.state().bodies[pad].pose.to_body(w.state().bodies[ball].pose.position);
    };
    RunHooks hooks;
    hooks.before = [&](World& w) {
      if (w.state().step == 0) start = in_pad(w);
    };
    hooks.after = [&](World& w, const StepReport& r) {
      last = (in_pad(w) - start).norm();
      largest = std::max(largest, last);
      deepest = std::max(deepest, r.max_penetration);
      contacts = r.contacts_found;
      if (w.state().step % 10 == 0) {
        drift << g.name << w.state().time << last;
        drift.end_row();
      }
    };
    const Outcome o = simulate(s, g.contact, h, -1.0, std::lround(seconds / h), hooks);
    log.add(g.name, h, -1, o);
    summary << g.name << o.status << o.steps << last << largest << contacts << o.solver_failures << deepest;
    summary.end_row();
  }
}

}  // namespace pegsim::cli::experiment
