#include "sim/drumwright_shell_step.hpp"

#include "dynamics/integration.hpp"
#include "sim/stepper.hpp"
#include "solvers/solver_common.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>
#include <utility>

namespace pegsim {

void check_scope(const Model& model, std::string_view stepper, bool trees) {
  const std::string who = "stepper '" + std::string(stepper) + "'";
  if (!model.joints.empty())
    throw std::invalid_argument(who + " does not handle maximal-coordinate joints yet (docs/contact-models.md)");
  for (const BodyModel& b : model.bodies)
    if (b.is_kinematic)
      throw std::invalid_argument(who + " does not handle kinematic (prescribed-motion) bodies yet: body '" + b.name +
                                  "' (docs/scene-format.md)");
  if (!trees && !model.trees.empty())
    throw std::invalid_argument(who + " does not handle kinematic trees yet (docs/contact-models.md)");
  for (const TreeModel& t : model.trees)
    for (const articulated::Link& l : t.tree.links())
      if (l.friction > 0.0)
        throw std::invalid_argument(who + " does not model joint friction: tree '" + t.name + "', joint of link '" +
                                    l.name + "' (friction " + std::to_string(l.friction) + ")");
  if (model.options.position_correction)
    throw std::invalid_argument(who + " has no position correction: set position_correction: false");
}

void TreeStart::begin(const Model& model, const State& state, std::vector<InverseMass>& inverse_mass,
                      std::vector<Vec6>& free_velocity) {
  ends.clear();
  terms.limits.clear();
  if (model.trees.empty()) return;
  stepping.free_velocities(model, state, inverse_mass, free_velocity);
  stepping.fill_terms(model, terms);
  velocity.resize(model.trees.size());
  free.resize(model.trees.size());
  for (std::size_t t = 0; t < model.trees.size(); ++t) {
    velocity[t] = state.trees[t].v;
    free[t] = stepping.free_velocity(t);
  }
  append_tree_link_pairs(model, ends);
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

StepProblem normal_rows_problem(LcpProblem lcp) {
  StepProblem problem;
  const int n = lcp.size();
  problem.lcp = std::move(lcp);
  problem.normal_var.resize(n);
  for (int c = 0; c < n; ++c) problem.normal_var[c] = c;
  problem.first_friction_var.assign(n, -1);
  problem.slip_var.assign(n, -1);
  problem.next_normal_var.assign(n, -1);
  problem.var_contact = problem.normal_var;
  return problem;
}

void drop_empty_islands(std::vector<Island>& islands, const TreeTerms& trees) {
  std::erase_if(islands, [&](const Island& island) {
    return island.contacts.empty() && std::none_of(trees.limits.begin(), trees.limits.end(), [&](const auto& l) {
             return std::binary_search(island.bodies.begin(), island.bodies.end(), l.link_body);
           });
  });
}

void finish_step(const Model& model, const std::vector<Vec6>& velocity, State& state, StepReport& report,
                 TreeStepping* trees) {
  integrate(model, velocity, model.options.h, state);
  if (trees && !model.trees.empty()) trees->finish_step(model, state);  // links' integrated poses replaced by q's
  end_step(model, state, report);
}

void end_step(const Model& model, State& state, StepReport& report) {
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
