// The world: a model, its state, and the step that advances it.
//
// World::step() is the pipeline of ../docs/architecture.md, one timed stage a
// line: broadphase -> narrowphase -> contact model -> formulation -> solver ->
// integration -> observers.
#pragma once

#include "collision/broadphase.hpp"
#include "contact/contact_model.hpp"
#include "dynamics/formulation.hpp"
#include "sim/islands.hpp"
#include "sim/model.hpp"
#include "sim/state.hpp"
#include "sim/step_report.hpp"
#include "solvers/lcp.hpp"

#include <map>
#include <memory>
#include <tuple>
#include <vector>

namespace pegsim {

class World {
 public:
  // Throws std::invalid_argument if the options name an unknown model or solver.
  World(Model model, State state);

  const Model& model() const { return model_; }
  const State& state() const { return state_; }
  State& state() { return state_; }  // poses, velocities and forces may be set between steps

  void set_solver(const std::string& name);  // a chain of one
  // The fallback chain of sim/certification.hpp; throws std::invalid_argument
  // on an empty chain or an unknown name. model().options.solver_chain holds it.
  void set_solver_chain(const std::vector<std::string>& names);
  const std::vector<std::string>& solver_chain() const { return model_.options.solver_chain; }
  void set_contact_model(ContactModelKind kind);
  void set_time_step(double h);
  void add_observer(StepObserver* observer) { observers_.push_back(observer); }

  // Advances one step of model().options.h; the report stays valid until the next step.
  const StepReport& step();
  const StepReport& last_report() const { return report_; }
  // The complementarity problems the last step solved, one per island in
  // island order (empty if it had no contacts), with each island's part of the
  // constraint set (its contacts renumbered) and the island itself.
  const std::vector<StepProblem>& last_problems() const { return problems_; }
  const ConstraintSet& last_island_constraints(std::size_t island) const;
  const std::vector<Island>& last_islands() const { return islands_; }
  // The first island's problem (the whole step's when it had one island or
  // options.islands is off; empty if it had no contacts).
  const StepProblem& last_problem() const { return problems_.empty() ? empty_problem_ : problems_.front(); }
  // The constraints the contact model built in the last step, all islands (counts(): U, I, X).
  const ConstraintSet& last_constraints() const { return constraints_; }

  // Contact distance of each body for the coming step (thesis eq. 5.1, see world.cpp).
  double contact_distance(std::uint32_t body) const;

 private:
  void find_contacts();
  void narrowphase(bool over_step);
  double correct_positions(double depth);  // returns the deepest overlap after it
  void build_correction_set();
  bool project_island(const ConstraintSet& set, const std::vector<Vec6>& at_rest, std::vector<Vec6>& displacement);
  // world_solve.cpp: islands, the solver chain, certificates
  void solve(std::vector<Vec6>& velocity);
  void group_islands();
  SolverResult solve_island(const ConstraintSet& set, StepProblem& problem, VecX& z, IslandReport& out);
  bool recover_without_stabilization(const ConstraintSet& set, const StepProblem& problem, VecX& z);
  void check_finite() const;
  double measure_penetration() const;
  void warm_start(const ConstraintSet& set, const StepProblem& problem, VecX& z) const;
  void remember_solution(const ConstraintSet& set, const StepProblem& problem, const VecX& z);

  Model model_;
  State state_;
  std::unique_ptr<ContactModel> contact_model_;
  std::vector<std::unique_ptr<LcpSolver>> solvers_;  // the chain, model_.options.solver_chain
  std::vector<StepObserver*> observers_;

  // scratch, reused from step to step
  SweepAndPrune broadphase_;
  std::vector<Aabb> boxes_;
  std::vector<bool> is_static_;
  std::vector<BodyPair> pairs_;
  std::vector<double> body_eps_;
  std::vector<Contact> contacts_;
  ConstraintSet constraints_;
  std::vector<Island> islands_;
  std::vector<ConstraintSet> island_constraints_;  // per island; unused when the island is the whole set
  std::vector<StepProblem> problems_;              // per island
  StepProblem empty_problem_;
  std::vector<InverseMass> inverse_mass_;
  std::vector<Vec6> free_velocity_;
  // position correction (sim/position_correction.cpp): its constraints, problem and overlap model
  ConstraintSet correction_set_, scratch_set_, island_set_;
  std::vector<Island> correction_islands_;
  StepProblem correction_problem_;
  std::unique_ptr<ContactModel> overlap_model_;
  VecX z_;
  StepReport report_;

  // warm start: last step's impulses keyed by the contact's features
  // (body A, body B, kind, feature A, feature B, part A, part B)
  using FeatureKey = std::tuple<std::uint32_t, std::uint32_t, int, int, int, int, int>;
  static FeatureKey feature_key(const Contact& c) {
    return {c.body_a, c.body_b, static_cast<int>(c.kind), c.feature_a, c.feature_b, c.part_a, c.part_b};
  }
  std::map<FeatureKey, std::vector<double>> previous_impulses_, next_impulses_;
};

// Mechanical energy (kinetic + gravitational potential) and linear momentum of
// the dynamic bodies.
double mechanical_energy(const Model& model, const State& state);
Vec3 linear_momentum(const Model& model, const State& state);

}  // namespace pegsim
