// The world: a model, its state, and the step that advances it.
//
// World::step() is the pipeline of ../docs/architecture.md, one timed stage a
// line: broadphase -> narrowphase -> contact model -> formulation -> solver ->
// integration -> observers.
#pragma once

#include "collision/broadphase.hpp"
#include "contact/contact_model.hpp"
#include "dynamics/formulation.hpp"
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

  void set_solver(const std::string& name);
  void set_contact_model(ContactModelKind kind);
  void set_time_step(double h);
  void add_observer(StepObserver* observer) { observers_.push_back(observer); }

  // Advances one step of model().options.h; the report stays valid until the next step.
  const StepReport& step();
  const StepReport& last_report() const { return report_; }
  // The complementarity problem the last step solved (empty if it had no contacts).
  const StepProblem& last_problem() const { return problem_; }
  // The constraints the contact model built in the last step (counts(): U, I, X).
  const ConstraintSet& last_constraints() const { return constraints_; }

  // Contact distance of each body for the coming step (thesis eq. 5.1, see world.cpp).
  double contact_distance(std::uint32_t body) const;

 private:
  void find_contacts();
  void solve(std::vector<Vec6>& velocity);
  void recover_without_stabilization();
  void check_finite() const;
  double measure_penetration() const;
  void warm_start(VecX& z) const;
  void remember_solution(const VecX& z);

  Model model_;
  State state_;
  std::unique_ptr<ContactModel> contact_model_;
  std::unique_ptr<LcpSolver> solver_;
  std::vector<StepObserver*> observers_;

  // scratch, reused from step to step
  SweepAndPrune broadphase_;
  std::vector<Aabb> boxes_;
  std::vector<bool> is_static_;
  std::vector<BodyPair> pairs_;
  std::vector<double> body_eps_;
  std::vector<Contact> contacts_;
  ConstraintSet constraints_;
  StepProblem problem_;
  std::vector<InverseMass> inverse_mass_;
  std::vector<Vec6> free_velocity_;
  VecX z_;
  StepReport report_;

  // warm start: last step's impulses keyed by the contact's features
  // (body A, body B, kind, feature A, feature B, part A, part B)
  using FeatureKey = std::tuple<std::uint32_t, std::uint32_t, int, int, int, int, int>;
  static FeatureKey feature_key(const Contact& c) {
    return {c.body_a, c.body_b, static_cast<int>(c.kind), c.feature_a, c.feature_b, c.part_a, c.part_b};
  }
  std::map<FeatureKey, std::vector<double>> previous_impulses_;
};

// Mechanical energy (kinetic + gravitational potential) and linear momentum of
// the dynamic bodies.
double mechanical_energy(const Model& model, const State& state);
Vec3 linear_momentum(const Model& model, const State& state);

}  // namespace pegsim
