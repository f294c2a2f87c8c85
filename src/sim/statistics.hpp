// Run statistics: an observer that accumulates what the CLI summary prints.
#pragma once

#include "sim/model.hpp"
#include "sim/state.hpp"
#include "sim/step_report.hpp"

#include <limits>
#include <string>
#include <vector>

namespace pegsim {

class RunStatistics final : public StepObserver {
 public:
  RunStatistics(const Model& model, const State& initial);
  void on_step(const Model& model, const State& state, const StepReport& report) override;
  bool needs_penetration() const override { return measure_penetration; }
  bool measure_penetration = true;  // the summary's largest penetration (off: it reads NaN)

  long steps = 0;
  long contacts_total = 0;
  int contacts_max = 0;
  long contacts_found_total = 0;           // narrowphase feature pairs (contacts: the model's sub-contacts)
  long constraints_total[3] = {0, 0, 0};   // U, I, X constraints summed over steps
  int constraints_max[3] = {0, 0, 0};      // most of each kind in one step
  long traps_total = 0;                    // standard-model traps (contact/traps.hpp), summed over steps
  int traps_max = 0;
  long steps_with_traps = 0;
  long solver_iterations_total = 0;
  int solver_iterations_max = 0;
  long solver_calls = 0;
  long solver_failures = 0;
  long over_budget = 0;  // islands over max_problem_size, not solved (among solver_failures)
  long out_of_time = 0;  // solves stopped by solver_time_budget (SolveAttempt::out_of_time)
  long short_contact_distance = 0;  // steps with a body that may travel farther than a fixed eps
  long solver_recoveries = 0;
  long impulses_scaled = 0;  // islands whose impulses the energy bound scaled (sim/impulse_energy.hpp)
  long viscous_overshoots = 0;  // StepReport::viscous_overshoots, summed over steps
  int regularized_solves = 0;
  int islands_max = 0;                     // most islands (problems) in one step
  long escalations = 0;                    // solves handed on along the solver chain
  long steps_with_escalations = 0;
  std::vector<std::string> solver_chain;   // from the model's options at the first step
  std::vector<long> solved_by;             // per chain solver: islands whose impulses it gave
  double worst_certified_residual = 0.0;   // re-measured residual of the applied impulses (StepReport)
  double worst_cone_violation = 0.0;       // N s
  long penetration_exceeded = 0;           // steps above SimOptions::max_penetration
  double worst_complementarity = 0.0;
  double max_penetration = 0.0;
  long position_corrections = 0;           // projections of SimOptions::position_correction, summed
  long steps_corrected = 0;
  long correction_failures = 0;
  double max_penetration_before_correction = 0.0;
  // joints: the largest position / velocity error over the run, before and
  // after the joint correction (StepReport), and Algorithm 1's iterations
  int joints = 0;
  double joint_position_error_before = 0.0, joint_velocity_error_before = 0.0;
  double joint_position_error = 0.0, joint_velocity_error = 0.0;
  long joint_correction_iterations = 0;
  // the impulse stepper (StepReport::impulse): events, collisions, micro-collisions,
  // sticking collisions, jams, min-advance clamps; steps whose budget ran out
  long impulse_events = 0, impulse_collisions = 0, impulse_micro = 0, impulse_sticking = 0, impulse_jams = 0,
       impulse_clamps = 0, impulse_exhausted = 0;
  double impulse_min_distance = std::numeric_limits<double>::infinity();
  double energy_initial = 0.0, energy_final = 0.0, energy_max_rise = 0.0;
  Vec3 momentum_initial = Vec3::Zero(), momentum_final = Vec3::Zero();
  StepProfile total_time;  // seconds per stage, summed over steps
  // Steps after which a figure of the summary is not finite (the energy or
  // momentum overflowed, a residual or penetration is inf or nan): each is a
  // failure, the summary says so and `pegsim run` exits non-zero. (The state
  // itself stays finite: a step refuses a non-finite one, sim/stepper.hpp.)
  long non_finite_steps = 0;
  long first_non_finite_step = -1;
  std::string first_non_finite_what;  // "energy", "momentum", ...
  std::string non_finite_text() const;  // "3 steps with a non-finite ... (first: step 0, energy)"

  // The summary's derived figures (also the columns of a sweep's results, python/pegsim_sweep):
  double energy_drift() const;       // (E_final - E_initial) / max(1 J, |E_initial|)
  double momentum_drift() const;     // |p_final - p_initial| / |p_initial|; 0 when p_initial = 0
  double seconds_per_step() const;   // the stages' time summed, per step (0 before the first step)

  // Multi-line human-readable summary.
  std::string summary(double wall_seconds) const;
};

}  // namespace pegsim
