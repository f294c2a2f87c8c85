#include "sim/time_stepping.hpp"

#include "contact/traps.hpp"
#include "dynamics/integration.hpp"
#include "joints/joint_correction.hpp"
#include "sim/penetration_meter.hpp"
#include "sim/stage_timer.hpp"

#include <stdexcept>

namespace pegsim {

void TimeSteppingStepper::configure(const Model& model) {
  for (const JointModel& j : model.joints)  // joint rows have no prescribed term (JacobianRow::prescribed)
    for (const std::uint32_t b : {j.body_a, j.body_b})
      if (b != kWorldBody && model.bodies[b].is_kinematic)
        throw std::invalid_argument("joint '" + j.name + "' ends on kinematic body '" + model.bodies[b].name +
                                    "': joints to kinematic bodies are not supported yet");
  // either may throw std::invalid_argument; nothing has changed then
  auto contact_model = make_contact_model(model.options.model, model.options.dimension);
  solver_.configure(model);
  contact_model_ = std::move(contact_model);
  trees_.forget_sync();
  drift_.clear();
}

// nu* = nu + M^-1 p_ext (eq. 2.30 without contact impulses)
void TimeSteppingStepper::free_velocities(const Model& model, const State& state, StepReport& report) {
  StageTimer timer(report.profile, Stage::FreeVelocity);
  body_velocities(model, state, true, inverse_mass_, free_velocity_);
  if (!model.trees.empty()) trees_.free_velocities(model, state, inverse_mass_, free_velocity_);
}

// Joint errors after the step, and Algorithm 1 when on (joints/joint_correction.hpp).
void TimeSteppingStepper::correct_joints_after_step(const Model& model, State& state, StepReport& report) {
  if (model.joints.empty()) return;
  StageTimer timer(report.profile, Stage::Integration);  // timed with the update it corrects
  JointCorrection c;
  if (model.options.joints.correction) {
    c = correct_joints(model, state);
    check_finite(model, state);
  } else {
    c.before = c.after = measure_joint_errors(model, state);
  }
  report.joint_position_error_before = c.before.position;
  report.joint_velocity_error_before = c.before.velocity;
  report.joint_position_error = c.after.position;
  report.joint_velocity_error = c.after.velocity;
  report.joint_correction_iterations = c.position_iterations + c.velocity_iterations;
}

void TimeSteppingStepper::step(const Model& model, State& state, const StepNeeds& needs, StepReport& report) {
  if (!model.trees.empty()) trees_.sync_if_moved(model, state);  // links follow q, v even if a caller moved them
  free_velocities(model, state, report);
  solver_.set_trees(model.trees.empty() ? nullptr : &trees_);
  finder_.find(model, state, free_velocity_, report.profile);
  report.short_contact_distance = finder_.short_contact_distance();
  {
    StageTimer timer(report.profile, Stage::ContactModel);
    contact_model_->build(model, state, finder_.contacts(), constraints_);
    report.contacts_found = static_cast<int>(finder_.contacts().size());
    report.constraints = constraints_.counts();
    report.traps = count_standard_model_traps(finder_.contacts(), model.options.eps_feasible);
    if (model.options.contact_drift_correction) {
      if (!model.trees.empty()) trees_.fill_terms(model, terms_);
      drift_.measure(model, state, inverse_mass_, model.trees.empty() ? nullptr : &terms_, constraints_);
    }
  }
  velocity_ = free_velocity_;
  solver_.solve(model, state, finder_.is_static(), constraints_, inverse_mass_, free_velocity_, velocity_, report);
  {
    StageTimer timer(report.profile, Stage::Integration);
    if (model.options.contact_drift_correction) {  // anchors at the start poses, with v+
      tree_plus_.resize(model.trees.size());
      for (std::size_t t = 0; t < model.trees.size(); ++t) tree_plus_[t] = trees_.velocity_plus(t);
      trees_.start_link_velocities(model, tree_plus_, velocity_);
      drift_.remember(model, state, constraints_, velocity_);
    }
    integrate(model, velocity_, model.options.h, state);
    if (!model.trees.empty()) trees_.finish_step(model, state);  // links' integrated poses replaced by q's
    for (BodyState& s : state.bodies) {
      s.force.setZero();
      s.torque.setZero();
    }
    check_finite(model, state);
  }
  correct_joints_after_step(model, state, report);
  {
    StageTimer timer(report.profile, Stage::Integration);
    state.time += model.options.h;
    ++state.step;
    report.time = state.time;
  }
  if (!needs.penetration && !model.options.position_correction) return;
  {
    StageTimer timer(report.profile, Stage::Penetration);
    report.penetration_before_correction = deepest_penetration(model, state, finder_.pairs());
  }
  // trees are projected in joint space (sim/position_correction.hpp)
  report.max_penetration = correction_.correct(model, state, finder_, *contact_model_, solver_.chain(),
                                               report.penetration_before_correction, report);
}

}  // namespace pegsim
