// The world: a model, its state, a stepper that advances them, and the
// observers that watch each step.
//
// World::step() asks the stepper (sim/stepper.hpp; the time-stepping LCP
// stepper by default, sim/time_stepping.hpp, whose step reads as the
// pipeline of ../docs/architecture.md) for one step, then hands the report to
// the observers (recorder, statistics, certification log, callbacks).
#pragma once

#include "sim/islands.hpp"
#include "sim/model.hpp"
#include "sim/state.hpp"
#include "sim/step_report.hpp"
#include "sim/stepper.hpp"
#include "contact/contact_model.hpp"
#include "dynamics/formulation.hpp"
#include "joints/controllers.hpp"

#include <memory>
#include <string>
#include <vector>

namespace pegsim {

class TimeSteppingStepper;

class World {
 public:
  // Throws std::invalid_argument if the options name an unknown stepper,
  // contact model or solver.
  World(Model model, State state);
  ~World();
  World(World&&) noexcept;

  const Model& model() const { return model_; }
  const State& state() const { return state_; }
  State& state() { return state_; }  // poses, velocities and forces may be set between steps

  // Options that reconfigure the stepper; each throws std::invalid_argument on
  // an unknown name or a bad value and then leaves the world as it was.
  void set_solver(const std::string& name);  // a chain of one
  // The fallback chain of sim/certification.hpp; model().options.solver_chain holds it.
  void set_solver_chain(const std::vector<std::string>& names);
  const std::vector<std::string>& solver_chain() const { return model_.options.solver_chain; }
  void set_contact_model(ContactModelKind kind);
  void set_stepper(const std::string& name);
  void set_time_step(double h);
  // Measure StepReport::max_penetration every step even when no observer and
  // no option asks (see StepNeeds).
  void set_measure_penetration(bool on) { measure_penetration_ = on; }
  bool measures_penetration() const { return measure_penetration_; }
  void add_observer(StepObserver* observer) { observers_.push_back(observer); }
  // Joint controllers run at the start of every step, before the stepper, on
  // the state at that step's start (joints/controllers.hpp): first the
  // model's PD controllers (Model::controllers), then these, in the order added.
  void add_controller(JointController* controller) { controllers_.push_back(controller); }
  const std::vector<std::unique_ptr<PdController>>& pd_controllers() const { return pd_controllers_; }

  // Advances one step of model().options.h; the report stays valid until the next step.
  const StepReport& step();
  const StepReport& last_report() const { return report_; }
  const Stepper& stepper() const { return *stepper_; }

  // The time-stepping stepper's last step (empty for another stepper): the
  // complementarity problems it solved, one per island in island order (none
  // if it had no contacts), with each island's part of the constraint set
  // (its contacts renumbered) and the island itself.
  const std::vector<StepProblem>& last_problems() const;
  const ConstraintSet& last_island_constraints(std::size_t island) const;
  const std::vector<Island>& last_islands() const;
  // The first island's problem (the whole step's when it had one island or
  // options.islands is off; empty if it had no contacts).
  const StepProblem& last_problem() const;
  // The constraints the contact model built in the last step, all islands (counts(): U, I, X).
  const ConstraintSet& last_constraints() const;

 private:
  void reconfigure(Model changed);  // the stepper configured for `changed`, which becomes the model
  const TimeSteppingStepper* time_stepping() const;

  Model model_;
  State state_;
  std::unique_ptr<Stepper> stepper_;
  std::vector<StepObserver*> observers_;
  std::vector<std::unique_ptr<PdController>> pd_controllers_;  // from model_.controllers
  std::vector<JointController*> controllers_;
  bool measure_penetration_ = false;
  StepReport report_;
};

// Mechanical energy (kinetic + gravitational potential) and linear momentum of
// the dynamic bodies.
double mechanical_energy(const Model& model, const State& state);
Vec3 linear_momentum(const Model& model, const State& state);

}  // namespace pegsim
