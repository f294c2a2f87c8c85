// The stepper registry, and the state check every stepper runs after integration.
#include "sim/stepper.hpp"

#include "sim/certification.hpp"
#include "sim/impulse_stepping.hpp"
#include "sim/convex_impulse_stepper.hpp"
#include "sim/normal_lcp_stepper.hpp"
#include "sim/time_stepping.hpp"
#include "sim/viscous_rk4_stepper.hpp"

#include <stdexcept>

namespace pegsim {

std::vector<std::string> stepper_names() {
  return {"time-stepping", "impulse", "no-slip", "viscous", "viscous-rk4", "convex-impulse"};
}

std::unique_ptr<Stepper> make_stepper(std::string_view name) {
  if (name == "time-stepping") return std::make_unique<TimeSteppingStepper>();
  if (name == "impulse") return std::make_unique<ImpulseStepper>();
  if (name == "no-slip") return std::make_unique<NormalLcpStepper>(TangentialLaw::NoSlip);
  if (name == "viscous") return std::make_unique<NormalLcpStepper>(TangentialLaw::Viscous);
  if (name == "viscous-rk4") return std::make_unique<ViscousRk4Stepper>();
  if (name == "convex-impulse") return std::make_unique<ConvexImpulseStepper>();
  throw std::invalid_argument("unknown stepper '" + std::string(name) + "' (available: " +
                              chain_text(stepper_names()) + ")");
}

// A non-finite pose or velocity (a NaN force set by a controller, an overflow)
// would silently poison every later step: stop with the body's name instead.
void check_finite(const Model& model, const State& state) {
  for (std::size_t i = 0; i < model.bodies.size(); ++i) {
    const BodyState& s = state.bodies[i];
    if (s.pose.position.allFinite() && s.pose.orientation.coeffs().allFinite() && s.linear_velocity.allFinite() &&
        s.angular_velocity.allFinite())
      continue;
    throw std::runtime_error("step " + std::to_string(state.step) + " (t = " + std::to_string(state.time) +
                             " s): body '" + model.bodies[i].name +
                             "' has a non-finite pose or velocity (check applied forces and the scene's values)");
  }
}

}  // namespace pegsim
