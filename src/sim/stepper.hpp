// The stepper boundary: how the world is advanced by one step.
//
// A Stepper turns (model, state at t) into the state at t + h and a report of
// what it did. The world (sim/world.hpp) owns the model, the state and the
// observers; the stepper owns its scratch and whatever it carries from step
// to step (warm starts). Shared stages are pieces any stepper may use:
//   - contact finding: broadphase + narrowphase (sim/contact_finder.hpp);
//   - penetration measurement (sim/penetration_meter.hpp);
//   - integration (dynamics/integration.hpp);
//   - the certified solver chain (sim/solver_chain.hpp).
// The time-stepping LCP stepper (Stewart-Trinkle / Anitescu-Potra, thesis
// 2.5, eq. 6.1; sim/time_stepping.hpp) is the first implementation. An
// event-driven impulse stepper (Mirtich-Canny) or a convex impulse model
// (Drumwright-Shell) is a new file implementing Stepper and one line in
// make_stepper (stepper.cpp).
#pragma once

#include "sim/model.hpp"
#include "sim/state.hpp"
#include "sim/step_report.hpp"

#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace pegsim {

// What the world asks of a step beyond advancing the state.
struct StepNeeds {
  // Measure the deepest overlap after the step (StepReport::max_penetration):
  // asked by SimOptions::max_penetration, the position correction, a
  // recording, the run statistics, or the user (World::set_measure_penetration).
  bool penetration = false;
};

class Stepper {
 public:
  virtual ~Stepper() = default;
  virtual std::string_view name() const = 0;
  // Reads the model's options (contact model, solver chain, ...); called by
  // the world when it is built and whenever an option changes. Throws
  // std::invalid_argument on an option the stepper cannot honour.
  virtual void configure(const Model& model) = 0;
  // Advances `state` by model.options.h. The report arrives reset
  // (StepReport::reset) with its step index set; the stepper fills it.
  virtual void step(const Model& model, State& state, const StepNeeds& needs, StepReport& report) = 0;
};

// The registry: "time-stepping" (SimOptions::stepper). Throws
// std::invalid_argument naming the available steppers for an unknown name.
std::unique_ptr<Stepper> make_stepper(std::string_view name);
std::vector<std::string> stepper_names();

// Throws std::runtime_error naming the first body with a non-finite pose or
// velocity: steppers call it after integration, so a NaN stops the run at
// the step it appeared in.
void check_finite(const Model& model, const State& state);

}  // namespace pegsim
