// options: the simulation settings of a scene (docs/scene-format.md, "options").
#include "io/scene_parts.hpp"
#include "io/scene_limits.hpp"
#include "contact/contact_model.hpp"
#include "dynamics/formulation.hpp"
#include "dynamics/mass.hpp"
#include "sim/certification.hpp"
#include "sim/stepper.hpp"
#include "solvers/lcp.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace pegsim::scene_detail {

SceneOptions parse_options(const Field& options) {
  SceneOptions out;
  SimOptions& sim = out.sim;
  if (!options.present()) return out;
  options.expect_keys({"name", "dimension", "h", "duration", "eps", "eps_theta",
                       "friction_directions", "gyroscopic", "friction", "stepper", "model", "formulation", "solver",
                       "gravity", "solver_tolerance", "solver_max_iterations", "max_problem_size", "solver_relaxation", "solver_chain",
                       "solver_time_budget",
                       "max_cone_violation", "energy_bound", "max_penetration", "islands", "position_correction",
                       "contact_drift_correction",
                       "correction_tolerance", "correction_iterations", "joint_stabilization", "joint_correction",
                       "joint_eps_p", "joint_eps_v", "joint_correction_iterations",
                       // the impulse stepper (SimOptions::impulse); restitution is shared with convex-impulse
                       "restitution", "collision_tolerance", "restitution_law", "micro_speed_min", "impulse_steps",
                       "max_collisions_per_step", "max_events_per_step", "min_advance",
                       // the Drumwright-Shell steppers (SimOptions::drumwright_shell)
                       "touch_distance", "viscous_friction", "viscous_integration", "friction_cone", "normal_impulse_bound"});

  // dimension first: gravity's length depends on it
  if (Field f = options["dimension"]; f.present()) {
    const int d = f.integer();
    if (d != 2 && d != 3) f.fail("must be 2 or 3, got " + f.describe());
    sim.dimension = d == 2 ? Dimension::Planar : Dimension::Spatial;
  }
  const bool planar = sim.dimension == Dimension::Planar;
  sim.gravity = planar ? Vec3(0.0, -9.81, 0.0) : Vec3(0.0, 0.0, -9.81);

  if (Field f = options["name"]; f.present()) out.name = f.text();
  if (Field f = options["h"]; f.present()) {
    sim.h = f.positive();
    if (sim.h < scene_limits::kMinTimeStep || sim.h > scene_limits::kMaxTimeStep)
      f.fail("must lie in [" + g(scene_limits::kMinTimeStep) + ", " + g(scene_limits::kMaxTimeStep) +
             "] seconds, got " + f.describe());
  }
  if (Field f = options["duration"]; f.present()) sim.duration = f.positive();
  // the run's step count, duration / h (the CLI checks its --time and --h the same way)
  {
    const Field f = options.has("duration") ? options["duration"] : options["h"];
    const double steps = std::round(sim.duration / sim.h);
    if (steps > scene_limits::kMaxSteps)
      f.fail("duration / h = " + g(sim.duration) + " s / " + g(sim.h) + " s is " + g(sim.duration / sim.h) +
             " steps, more than the limit of " + g(scene_limits::kMaxSteps));
    if (steps < 1.0)
      f.fail("duration " + g(sim.duration) + " s is shorter than half a step (h = " + g(sim.h) + " s)");
  }

  // contact distance: a length, or "auto" for thesis eq. 5.1 per body pair
  if (Field f = options["eps"]; f.present()) {
    if (f.is_scalar() && f.describe() == "auto") {
      sim.eps_auto = true;
    } else {
      if (!f.is_scalar()) f.fail("expected a number or auto, got " + f.describe());
      sim.eps = f.non_negative();
      sim.eps_auto = false;
    }
  }
  // applicability relaxation eps_theta = -sin(theta) (thesis 3.2)
  // (auto: -0.1 relaxed by each pair's rotation over the step, SimOptions::eps_theta_auto)
  if (Field f = options["eps_theta"]; f.present()) {
    if (f.is_scalar() && f.describe() == "auto") {
      sim.eps_theta_auto = true;
    } else {
      sim.eps_theta = f.number();
      sim.eps_theta_auto = false;
      if (sim.eps_theta < -1.0 || sim.eps_theta > 1.0)
        f.fail("must lie in [-1, 1] (it is -sin(theta)) or auto, got " + f.describe());
    }
  }
  // fewer than 3 directions do not positively span the tangent plane
  if (Field f = options["friction_directions"]; f.present()) {
    sim.friction_directions = f.integer_at_least(3);
    if (sim.friction_directions > scene_limits::kMaxFrictionDirections)
      f.fail("must be at most " + std::to_string(scene_limits::kMaxFrictionDirections) +
             " (the cone's polygon is then within 0.12 % of the circle; each direction is a variable per contact), got " +
             f.describe());
  }
  if (Field f = options["friction"]; f.present()) out.default_friction = f.non_negative();

  // names from the registries (sim/stepper.hpp, contact/contact_model.hpp, dynamics/formulation.hpp)
  if (Field f = options["stepper"]; f.present()) sim.stepper = f.choice(stepper_names());
  if (Field f = options["model"]; f.present()) parse_contact_model(f.choice(contact_model_names()), sim.model);
  if (Field f = options["formulation"]; f.present()) parse_formulation(f.choice(formulation_names()), sim.formulation);
  const auto names = solver_names();
  auto known_solver = [&](const Field& f) {
    std::string name = f.text();
    if (std::find(names.begin(), names.end(), name) == names.end())
      f.fail("unknown solver '" + name + "' (expected one of: " + chain_text(solver_names()) + ")");
    return name;
  };
  if (Field f = options["solver"]; f.present()) sim.solver = known_solver(f);
  // fallback chain (sim/certification.hpp); its first solver is `solver`
  if (Field f = options["solver_chain"]; f.present()) {
    if (options.has("solver")) f.fail("give solver or solver_chain, not both");
    const std::vector<Field> items = f.items();
    if (items.empty()) f.fail("needs at least one solver");
    for (const Field& item : items) sim.solver_chain.push_back(known_solver(item));
    sim.solver = sim.solver_chain.front();
  }

  if (Field f = options["gravity"]; f.present()) {
    if (planar) {
      if (f.is_sequence() && f.items().size() == 3)
        f.fail("a 2D scene's gravity is [x, y], got a list of 3");
      sim.gravity = lift(f.vec2());
    } else {
      sim.gravity = f.vec3();
    }
    if (const double g_size = sim.gravity.stableNorm(); g_size > scene_limits::kMaxAcceleration)
      f.fail("|gravity| must be at most " + g(scene_limits::kMaxAcceleration) + " m/s^2, got " + g(g_size));
  }
  if (Field f = options["solver_tolerance"]; f.present()) sim.solver_tolerance = f.positive();
  if (Field f = options["solver_max_iterations"]; f.present())
    sim.solver_max_iterations = f.integer_at_least(0);
  if (Field f = options["solver_relaxation"]; f.present()) {
    sim.solver_relaxation = f.number();
    if (!(sim.solver_relaxation > 0.0 && sim.solver_relaxation < 2.0))
      f.fail("must lie in (0, 2) (the relaxation lambda of psor and projected-jacobi), got " + f.describe());
  }
  if (Field f = options["max_cone_violation"]; f.present()) sim.max_cone_violation = f.non_negative();
  if (Field f = options["max_problem_size"]; f.present()) sim.max_problem_size = f.integer_at_least(1);
  if (Field f = options["solver_time_budget"]; f.present()) sim.solver_time_budget = f.non_negative();
  if (Field f = options["max_penetration"]; f.present()) sim.max_penetration = f.non_negative();
  if (Field f = options["islands"]; f.present()) sim.islands = f.boolean();
  if (Field f = options["energy_bound"]; f.present()) sim.energy_bound = f.boolean();
  if (Field f = options["gyroscopic"]; f.present()) parse_gyroscopic(f.choice(gyroscopic_names()), sim.gyroscopic);
  if (Field f = options["position_correction"]; f.present()) sim.position_correction = f.boolean();
  if (Field f = options["contact_drift_correction"]; f.present()) sim.contact_drift_correction = f.boolean();
  if (Field f = options["correction_tolerance"]; f.present()) sim.correction_tolerance = f.positive();
  if (Field f = options["correction_iterations"]; f.present()) sim.correction_iterations = f.integer_at_least(1);
  // joints (joints/joint.hpp JointOptions): psi_b/h in the step, Algorithm 1 after it
  if (Field f = options["joint_stabilization"]; f.present()) sim.joints.stabilization = f.boolean();
  if (Field f = options["joint_correction"]; f.present()) sim.joints.correction = f.boolean();
  if (Field f = options["joint_eps_p"]; f.present()) sim.joints.eps_p = f.positive();
  if (Field f = options["joint_eps_v"]; f.present()) sim.joints.eps_v = f.positive();
  if (Field f = options["joint_correction_iterations"]; f.present())
    sim.joints.correction_iterations = f.integer_at_least(1);
  // the impulse stepper (sim/impulse_stepping.hpp)
  ImpulseOptions& imp = sim.impulse;
  if (Field f = options["restitution"]; f.present()) {
    out.default_restitution = f.non_negative();
    if (out.default_restitution > 1.0) f.fail("a coefficient of restitution lies in [0, 1], got " + f.describe());
  }
  if (Field f = options["collision_tolerance"]; f.present()) imp.collision_tolerance = f.positive();
  if (Field f = options["restitution_law"]; f.present()) imp.restitution_law = f.choice({"poisson", "stronge", "newton"});
  if (Field f = options["micro_speed_min"]; f.present()) imp.micro_speed_min = f.positive();
  if (Field f = options["impulse_steps"]; f.present()) imp.integration_steps = f.integer_at_least(8);
  if (Field f = options["max_collisions_per_step"]; f.present()) imp.max_collisions_per_step = f.integer_at_least(1);
  if (Field f = options["max_events_per_step"]; f.present()) imp.max_events_per_step = f.integer_at_least(1);
  if (Field f = options["min_advance"]; f.present()) imp.min_advance = f.positive();
  // the Drumwright-Shell steppers (SimOptions::drumwright_shell, docs/contact-models.md)
  DrumwrightShellOptions& ds = sim.drumwright_shell;
  if (Field f = options["touch_distance"]; f.present()) ds.touch = f.non_negative();
  if (Field f = options["viscous_friction"]; f.present()) ds.viscous = f.non_negative();
  if (Field f = options["viscous_integration"]; f.present())
    ds.viscous_implicit = f.choice({"explicit", "implicit"}) == "implicit";
  // restitution (read above): the impulse stepper's default per material pair, the convex model's epsilon
  ds.restitution = out.default_restitution;
  if (Field f = options["friction_cone"]; f.present())
    ds.circular_cone = f.choice({"circular", "pyramid"}) == "circular";
  if (Field f = options["normal_impulse_bound"]; f.present()) {
    ds.normal_bound = f.positive();
    if (ds.normal_bound < 1.0) f.fail("must be at least 1 (kappa of ||x_N|| <= kappa ||w_s||), got " + f.describe());
  }
  return out;
}

}  // namespace pegsim::scene_detail
