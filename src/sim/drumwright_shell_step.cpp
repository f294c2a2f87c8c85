#include "sim/drumwright_shell_step.hpp"

#include "dynamics/integration.hpp"
#include "sim/stepper.hpp"
#include "solvers/solver_common.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace pegsim {

void check_scope(const Model& model, std::string_view stepper) {
  const std::string who = "stepper '" + std::string(stepper) + "'";
  if (model.options.model != ContactModelKind::Standard)
    throw std::invalid_argument(who + " needs model: standard (the papers' rows are one normal per contact point)");
  if (!model.joints.empty() || !model.trees.empty())
    throw std::invalid_argument(who + " does not handle joints or kinematic trees yet (docs/contact-models.md)");
  if (model.options.position_correction)
    throw std::invalid_argument(who + " has no position correction: set position_correction: false");
}

void body_velocities(const Model& model, const State& state, bool with_impulse,
                     std::vector<InverseMass>& inverse_mass, std::vector<Vec6>& velocity) {
  const std::size_t nb = model.bodies.size();
  const Dimension dim = model.options.dimension;
  inverse_mass.resize(nb);
  velocity.resize(nb);
  for (std::size_t i = 0; i < nb; ++i) {
    const BodyModel& body = model.bodies[i];
    const BodyState& s = state.bodies[i];
    inverse_mass[i] = world_inverse_mass(body, s, dim);
    velocity[i] = velocity_of(s);
    if (with_impulse && !body.is_static)
      velocity[i] += inverse_mass[i].apply(external_impulse(body, s, model.options.gravity, model.options.h, dim));
  }
}

const ConstraintSet& island_set(const ConstraintSet& all, const std::vector<Island>& islands, std::size_t i,
                                ConstraintSet& scratch) {
  if (islands.size() == 1) return all;
  extract_island(all, islands[i], scratch);
  return scratch;
}

void report_contact_impulses(const Island& island, const ConstraintSet& set, const ContactSpace& space,
                             const VecX& normal, const MatX& tangential, StepReport& report) {
  for (std::size_t c = 0; c < island.contacts.size(); ++c) {
    const int global = island.contacts[c];
    const int i = static_cast<int>(c);
    report.contacts[global] = set.contacts[c].contact;
    ContactImpulse& imp = report.impulses[global];
    imp.normal = normal(i);
    imp.friction = tangential(i, 0) * space.tangent_s[c] + tangential(i, 1) * space.tangent_t[c];
  }
}

void add_island_to_report(std::size_t i, const IslandReport& ir, const SolverResult& result, StepReport& report) {
  ++report.solver_calls;
  report.problem_size += ir.problem_size;
  report.escalations += ir.escalations;
  if (!ir.certified) ++report.solver_failures;
  if (ir.recovered) ++report.solver_recoveries;
  if (!ir.attempts.empty() && ir.attempts.back().solver < static_cast<int>(report.solved_by.size()))
    ++report.solved_by[ir.attempts.back().solver];
  report.complementarity = std::max({report.complementarity, ir.complementarity, ir.feasibility});
  report.cone_violation = std::max(report.cone_violation, ir.cone_violation);
  const int iterations = report.solver.iterations + result.iterations;
  const bool worse = i == 0 || (!result.ok() && report.solver.ok()) ||
                     (result.ok() == report.solver.ok() &&
                      solver_detail::residual_norm(result) > solver_detail::residual_norm(report.solver));
  if (worse) report.solver = result;
  report.solver.iterations = i == 0 ? result.iterations : iterations;
}

void finish_step(const Model& model, const std::vector<Vec6>& velocity, State& state, StepReport& report) {
  integrate(model, velocity, model.options.h, state);
  for (BodyState& s : state.bodies) {
    s.force.setZero();
    s.torque.setZero();
  }
  check_finite(model, state);
  state.time += model.options.h;
  ++state.step;
  report.time = state.time;
}

}  // namespace pegsim
