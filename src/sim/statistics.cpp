#include "sim/statistics.hpp"

#include "sim/certification.hpp"
#include "sim/world.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace pegsim {

RunStatistics::RunStatistics(const Model& model, const State& initial) {
  energy_initial = energy_final = mechanical_energy(model, initial);
  momentum_initial = momentum_final = linear_momentum(model, initial);
}

void RunStatistics::on_step(const Model& model, const State& state, const StepReport& r) {
  ++steps;
  const int nc = static_cast<int>(r.contacts.size());
  contacts_total += nc;
  contacts_max = std::max(contacts_max, nc);
  contacts_found_total += r.contacts_found;
  const int kinds[3] = {r.constraints.u, r.constraints.i, r.constraints.x};
  for (int k = 0; k < 3; ++k) {
    constraints_total[k] += kinds[k];
    constraints_max[k] = std::max(constraints_max[k], kinds[k]);
  }
  traps_total += r.traps;
  traps_max = std::max(traps_max, r.traps);
  if (r.traps > 0) ++steps_with_traps;
  solver_calls += r.solver_calls;
  solver_failures += r.solver_failures;
  over_budget += r.over_budget;
  for (const IslandReport& island : r.islands)
    for (const SolveAttempt& a : island.attempts) out_of_time += a.out_of_time;
  if (r.short_contact_distance > 0) ++short_contact_distance;
  solver_recoveries += r.solver_recoveries;
  impulses_scaled += r.impulses_scaled;
  viscous_overshoots += r.viscous_overshoots;
  islands_max = std::max(islands_max, static_cast<int>(r.islands.size()));
  escalations += r.escalations;
  if (r.escalations > 0) ++steps_with_escalations;
  if (solver_chain.empty()) solver_chain = model.options.solver_chain;
  if (solved_by.size() < r.solved_by.size()) solved_by.resize(r.solved_by.size(), 0);
  for (std::size_t k = 0; k < r.solved_by.size(); ++k) solved_by[k] += r.solved_by[k];
  worst_certified_residual = std::max(worst_certified_residual, r.complementarity);
  worst_cone_violation = std::max(worst_cone_violation, r.cone_violation);
  if (r.penetration_exceeded) ++penetration_exceeded;
  if (r.solver_calls > 0) {
    solver_iterations_total += r.solver.iterations;
    solver_iterations_max = std::max(solver_iterations_max, r.solver.iterations);
    worst_complementarity = std::max(worst_complementarity, r.solver.complementarity);
    if (r.solver.regularization_level > 0) ++regularized_solves;
  }
  max_penetration = std::max(max_penetration, r.max_penetration);
  position_corrections += r.position_corrections;
  if (r.position_corrections > 0) ++steps_corrected;
  correction_failures += r.correction_failures;
  max_penetration_before_correction = std::max(max_penetration_before_correction, r.penetration_before_correction);
  joints = static_cast<int>(model.joints.size());
  joint_position_error_before = std::max(joint_position_error_before, r.joint_position_error_before);
  joint_velocity_error_before = std::max(joint_velocity_error_before, r.joint_velocity_error_before);
  joint_position_error = std::max(joint_position_error, r.joint_position_error);
  joint_velocity_error = std::max(joint_velocity_error, r.joint_velocity_error);
  joint_correction_iterations += r.joint_correction_iterations;
  const ImpulseCounts& ic = r.impulse;
  impulse_events += ic.events;
  impulse_collisions += ic.collisions;
  impulse_micro += ic.micro_collisions;
  impulse_sticking += ic.sticking;
  impulse_jams += ic.jams;
  impulse_clamps += ic.min_advance_clamps;
  impulse_exhausted += ic.collision_budget_exhausted || ic.event_budget_exhausted;
  impulse_min_distance = std::min(impulse_min_distance, ic.min_distance);
  energy_final = mechanical_energy(model, state);
  energy_max_rise = std::max(energy_max_rise, energy_final - energy_initial);
  momentum_final = linear_momentum(model, state);
  // std::max drops a NaN: the figures are checked here, every step
  const char* what = !std::isfinite(energy_final)          ? "energy"
                     : !momentum_final.allFinite()         ? "momentum"
                     : !std::isfinite(r.complementarity)   ? "certified residual"
                     : !std::isfinite(r.cone_violation)    ? "friction cone violation"
                     : (r.solver_calls > 0 && !std::isfinite(r.solver.complementarity)) ? "complementarity"
                     : (measure_penetration && !std::isfinite(r.max_penetration))        ? "penetration"
                                                                                         : nullptr;
  if (what || (steps == 1 && !(std::isfinite(energy_initial) && momentum_initial.allFinite()))) {
    if (non_finite_steps++ == 0) {
      first_non_finite_step = r.step;
      first_non_finite_what = what ? what : "initial energy or momentum";
    }
  }
  for (int s = 0; s < static_cast<int>(Stage::Count); ++s) total_time.seconds[s] += r.profile.seconds[s];
}

std::string RunStatistics::non_finite_text() const {
  return std::to_string(non_finite_steps) + " steps with a non-finite " + first_non_finite_what +
         " or other figure (first: step " + std::to_string(first_non_finite_step) +
         "): numbers overflowed; the run failed (check the scene's magnitudes, docs/scene-format.md Limits)";
}

double RunStatistics::energy_drift() const {
  return (energy_final - energy_initial) / std::max(1.0, std::abs(energy_initial));
}

double RunStatistics::momentum_drift() const {
  const double p0 = momentum_initial.norm();
  return p0 > 0 ? (momentum_final - momentum_initial).norm() / p0 : 0.0;
}

double RunStatistics::seconds_per_step() const {
  double total = 0.0;
  for (double s : total_time.seconds) total += s;
  return steps > 0 ? total / static_cast<double>(steps) : 0.0;
}

std::string RunStatistics::summary(double wall_seconds) const {
  std::string out;
  char line[256];
  auto add = [&](const char* fmt, auto... args) {
    std::snprintf(line, sizeof line, fmt, args...);
    out += line;
  };
  const double n = std::max<long>(steps, 1);
  add("steps                 %ld\n", steps);
  add("contacts per step     mean %.2f, max %d (found by the narrowphase: mean %.2f)\n", contacts_total / n,
      contacts_max, contacts_found_total / n);
  add("constraints per step  U mean %.2f (max %d), I mean %.2f (max %d), X mean %.2f (max %d)\n",
      constraints_total[0] / n, constraints_max[0], constraints_total[1] / n, constraints_max[1],
      constraints_total[2] / n, constraints_max[2]);
  add("standard-model traps  %ld (max %d per step, in %ld steps)\n", traps_total, traps_max, steps_with_traps);
  add("solver calls          %ld, failures %ld (recovered without psi/h: %ld), regularized %d\n", solver_calls,
      solver_failures, solver_recoveries, regularized_solves);
  if (impulses_scaled > 0)
    add("energy bound          %ld islands had their impulses scaled down (sim/impulse_energy.hpp; among the failures)\n",
        impulses_scaled);
  if (viscous_overshoots > 0)
    add("viscous overshoots    %ld contact-steps where the explicit viscous impulse amplified the slip (h mu_v above "
        "twice the effective mass; viscous_integration: implicit is stable)\n",
        viscous_overshoots);
  if (non_finite_steps > 0) out += "non-finite            " + non_finite_text() + "\n";
  if (over_budget > 0)
    add("over budget           %ld islands over max_problem_size, not solved (among the failures)\n", over_budget);
  if (out_of_time > 0)
    add("time budget           %ld solves stopped by solver_time_budget (failures unless a later solver took over)\n",
        out_of_time);
  if (short_contact_distance > 0)
    add("contact distance      in %ld steps a body may travel farther than the fixed eps: contacts can be missed\n",
        short_contact_distance);
  add("islands               max %d per step\n", islands_max);
  if (!solver_chain.empty()) {
    std::string by;
    for (std::size_t k = 0; k < solved_by.size(); ++k)
      by += (k ? ", " : "") + (k < solver_chain.size() ? solver_chain[k] : "?") + " " + std::to_string(solved_by[k]);
    add("solver chain          %s: escalations %ld (in %ld steps), islands solved by %s\n",
        chain_text(solver_chain).c_str(), escalations, steps_with_escalations, by.c_str());
  }
  add("certificate           residual %.3g, friction cone violation %.3g N s, steps over max_penetration %ld\n",
      worst_certified_residual, worst_cone_violation, penetration_exceeded);
  add("solver iterations     mean %.2f, max %d per step\n", solver_iterations_total / n, solver_iterations_max);
  add("worst complementarity %.3g\n", worst_complementarity);
  add("largest penetration   %.3g m\n", max_penetration);
  if (position_corrections > 0 || correction_failures > 0)
    add("position correction   %ld projections in %ld steps, %ld unsolved; largest penetration before it %.3g m\n",
        position_corrections, steps_corrected, correction_failures, max_penetration_before_correction);
  if (joints > 0)
    add("joint errors          %d joints, largest position %.3g, velocity %.3g (before correction %.3g, %.3g); "
        "correction iterations %ld\n",
        joints, joint_position_error, joint_velocity_error, joint_position_error_before, joint_velocity_error_before,
        joint_correction_iterations);
  if (impulse_events > 0)
    add("impulse events        %ld (%.1f per step), collisions %ld (%.1f per step; micro %ld, sticking %ld, jams %ld), "
        "min-advance clamps %ld, steps over budget %ld, smallest distance at an event %.3g m\n",
        impulse_events, impulse_events / n, impulse_collisions, impulse_collisions / n, impulse_micro, impulse_sticking,
        impulse_jams, impulse_clamps, impulse_exhausted, impulse_min_distance);
  add("energy                initial %.6g J, final %.6g J, drift %.3g (relative), largest rise %.3g J\n",
      energy_initial, energy_final, energy_drift(), energy_max_rise);
  add("momentum              initial (%.6g, %.6g, %.6g), final (%.6g, %.6g, %.6g), drift |dp|/|p0| %.3g\n",
      momentum_initial.x(), momentum_initial.y(), momentum_initial.z(), momentum_final.x(), momentum_final.y(),
      momentum_final.z(), momentum_drift());
  double total = 0.0;
  for (double s : total_time.seconds) total += s;
  add("time per step         %.1f us (wall %.3f s)\n", 1e6 * total / n, wall_seconds);
  for (int s = 0; s < static_cast<int>(Stage::Count); ++s)
    add("  %-20s %9.1f us  %5.1f%%\n", kStageNames[s], 1e6 * total_time.seconds[s] / n,
        total > 0 ? 100.0 * total_time.seconds[s] / total : 0.0);
  return out;
}

}  // namespace pegsim
