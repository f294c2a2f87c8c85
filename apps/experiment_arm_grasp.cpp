// arm-grasp-ball (reference 000, section 4; EXPERIMENTS.md "arm-grasp-ball";
// docs/experiments.md "The robots under the Drumwright-Shell models"): the
// 7-DOF arm of scenes/arm7-grasp-ball.yaml holds the ball while its shoulder
// follows sin(t)/4 and sin(2t)/4, h = 0.001, under the time-stepping LCP with
// PEG, the no-slip model (standard contacts, [ppm, lemke]) and the convex
// impulse model. The paper plots the ball's drift in the gripper against time
// (its convex model approaching 0.1 mm).
// Each model runs twice: with the scene's controllers ("pd": PD on every joint,
// the fingers' PD squeezing), and as the paper drives the arm
// ("inverse-dynamics": the scene's controllers dropped, a computed-torque
// controller on all nine joints, sim/computed_torque.hpp, the shoulder on its
// trajectory, the gripper commanded to close at a desired acceleration of
// 100 m/s^2 with no feedback: each finger's torque is the inverse dynamics of
// that acceleration, about 5 N on the 0.05 kg finger).
//
// The convex model runs twice: as the paper writes it (||x_N|| <= ||w_s||)
// and with that bound relaxed to 2 ||w_s|| ("convex-impulse-kappa2", scene
// key normal_impulse_bound: a deviation, docs/contact-models.md): under the
// inverse-dynamics drive the paper's bound leaves phase 2 no friction that
// needs another split of the normal impulses, and the ball falls.
// Each of those runs twice more: as the papers step ("off") and with the
// contact drift correction (SimOptions::contact_drift_correction,
// sim/contact_drift.hpp: a sticking contact's tangential drift of one step
// taken back in the next), which removes the first-order creep along the pads.
//
// Writes drift.csv (per model, control and correction, every 10 steps: t, the
// ball's displacement in the left pad's frame since the start) and
// summary.csv (per model, control and correction: drift at the end and
// largest, contacts with the pads at the end, failed solves, deepest overlap). Times per step are the benchmarks' (docs/performance.md
// "Robots"): the files are the same bytes on every run.
#include "experiment.hpp"

#include "sim/computed_torque.hpp"

#include <memory>

namespace pegsim::cli::experiment {

namespace {

struct GraspModel {
  const char* name;     // as written in the CSV files
  const char* stepper;  // sim/stepper.hpp registry
  ContactModelKind contact;
  double normal_bound = 1.0;  // the convex model's kappa (SimOptions::drumwright_shell.normal_bound)
};

constexpr double kGripperAcceleration = 100.0;  // m/s^2, closing (000 section 4)

// The paper's drive (the file comment): the shoulder's yaw and pitch on sin(t)/4
// and sin(2t)/4, the other arm joints held at zero, the fingers (the last two
// coordinates, closing as q falls) at the gripper's acceleration, their own
// position and rate as desired so that no feedback acts on them.
std::unique_ptr<ComputedTorqueController> inverse_dynamics_drive(const World& w) {
  const World* world = &w;
  return std::make_unique<ComputedTorqueController>(w.model(), 0, 100.0, 20.0, [world](double t) {
    const TreeState& arm = world->state().trees[0];
    DesiredMotion d{VecX::Zero(arm.q.size()), VecX::Zero(arm.v.size()), VecX::Zero(arm.v.size())};
    set_sinusoid(d, 0, 0, 0.25, 1.0, t);
    set_sinusoid(d, 1, 1, 0.25, 2.0, t);
    d.q.tail(2) = arm.q.tail(2);
    d.qd.tail(2) = arm.v.tail(2);
    d.qdd.tail(2).setConstant(-kGripperAcceleration);
    return d;
  });
}

}  // namespace

void arm_grasp_ball(const Context& ctx) {
  const Scene scene = load_shipped_scene(ctx, "arm7-grasp-ball");
  const double h = 0.001, seconds = ctx.quick ? 2.0 : 100.0;
  const std::uint32_t ball = body_named(scene, "ball"), pad = body_named(scene, "arm/left_pad");
  const GraspModel models[] = {{"peg", "time-stepping", ContactModelKind::Peg},
                               {"no-slip", "no-slip", ContactModelKind::Standard},
                               {"convex-impulse", "convex-impulse", ContactModelKind::Standard},
                               {"convex-impulse-kappa2", "convex-impulse", ContactModelKind::Standard, 2.0}};
  RunLog log(ctx);
  Csv drift(ctx.out / "drift.csv", {"model", "control", "drift_correction", "t", "drift"});
  Csv summary(ctx.out / "summary.csv", {"model", "control", "drift_correction", "status", "steps", "drift_end",
                                        "drift_max", "contacts_end", "solver_failures", "max_penetration"});
  for (const bool corrected : {false, true})
   for (const std::string control : {"pd", "inverse-dynamics"})
    for (const GraspModel& g : models) {
      const char* correction = corrected ? "on" : "off";
      Scene s = scene;
      s.model.options.contact_drift_correction = corrected;
      s.model.options.drumwright_shell.normal_bound = g.normal_bound;
      s.model.options.stepper = g.stepper;
      if (g.contact == ContactModelKind::Standard) s.model.options.solver_chain = {"ppm", "lemke"};
      const bool drive = control == "inverse-dynamics";
      if (drive) std::erase_if(s.model.controllers, [](const PdControllerSpec& c) { return c.tree == 0; });
      std::unique_ptr<ComputedTorqueController> controller;
      Vec3 start = Vec3::Zero();
      double largest = 0.0, last = 0.0, deepest = 0.0;
      int contacts = 0;
      auto in_pad = [&](const World& w) {
        return w.state().bodies[pad].pose.to_body(w.state().bodies[ball].pose.position);
      };
      RunHooks hooks;
      hooks.before = [&](World& w) {
        if (w.state().step != 0) return;
        start = in_pad(w);
        if (!drive) return;
        controller = inverse_dynamics_drive(w);
        w.add_controller(controller.get());
      };
      hooks.after = [&](World& w, const StepReport& r) {
        last = (in_pad(w) - start).norm();
        largest = std::max(largest, last);
        deepest = std::max(deepest, r.max_penetration);
        contacts = r.contacts_found;
        if (w.state().step % 10 == 0) {
          drift << g.name << control << correction << w.state().time << last;
          drift.end_row();
        }
      };
      const Outcome o = simulate(s, g.contact, h, -1.0, std::lround(seconds / h), hooks);
      log.add(std::string(g.name) + " " + control + " correction " + correction, h, -1, o);
      summary << g.name << control << correction << o.status << o.steps << last << largest << contacts << o.solver_failures
              << deepest;
      summary.end_row();
    }
}

}  // namespace pegsim::cli::experiment
