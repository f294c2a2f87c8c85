// The convex-optimization impulse model's stepper (reference 000, sections 3
// and 4; guide A.1): contacts are handled with impulses at the start of the
// step, then explicit Euler, as the paper's experiment steps:
//   1. contact finding at q_k; the contacts that touch or overlap (gap <= touch) and
//      approach or rest (nu_N,i = (N v_k)_i <= 0) form the contact set;
//   2. per island: phase 1 and phase 2 (dynamics/convex_impulse.hpp) on
//      A = G M^-1 G', b = G v_k; v+ = v_k + M^-1 G' x;
//   3. a = M^-1 f(q_k, v+) (gravity, applied forces, the gyroscopic term);
//   4. q_{k+1} = q_k + h v+,  v_{k+1} = v+ + h a   (explicit Euler, 000 l.156).
// A touching contact left out in 1 because it separated, but which phase 2
// turns into an approaching one (-1e-9 m/s below zero), joins the set and
// the island is solved again from v_k, at most four passes (guide A.1 [choice]).
// The model has no position-level correction (the paper has none); overlap
// is measured when asked. Restitution e (000 l.72) is one scalar for all
// contacts (SimOptions::drumwright_shell.restitution).
// The report: problem_size = 3n per island (A's size), solver.iterations =
// Newton steps (barrier_newton_steps), a failure = the barrier missing its gap
// bound or leaving the cone (never silent), restitution_residual =
// max |u_N + e nu_N|, cone_violation = max ||x_T|| - mu x_N (N s).
// Kinematic trees take part in joint space (dynamics/contact_space.hpp): the
// contact space's tree columns carry v_k of the tree, its block of M^-1 is
// (M + h D)^-1, and step 3 is the tree's forward dynamics at (q_k, v+),
// a = M(q_k)^-1 (tau - C(q_k, v+)) (Cholesky of M, articulated/dynamics.hpp),
// q_{k+1} from v+ over h. A joint limit at or past its bound (gap <= touch)
// whose joint approaches or rests joins the set as a frictionless contact
// (the contact space's limit rows); like the contacts, it has no position-level
// term, so a joint arriving fast overshoots by up to one step's travel and is
// held there. Trees with joint friction are refused.
#pragma once

#include "contact/contact_model.hpp"
#include "dynamics/contact_space.hpp"
#include "dynamics/convex_impulse.hpp"
#include "sim/contact_drift.hpp"
#include "sim/contact_finder.hpp"
#include "sim/drumwright_shell_step.hpp"
#include "sim/islands.hpp"
#include "sim/stepper.hpp"
#include "sim/tree_stepping.hpp"

#include <memory>
#include <utility>
#include <vector>

namespace pegsim {

class ConvexImpulseStepper final : public Stepper {
 public:
  std::string_view name() const override { return "convex-impulse"; }
  void configure(const Model& model) override;
  void step(const Model& model, State& state, const StepNeeds& needs, StepReport& report) override;

  // The last step's islands: their blocks, the pre-impulse velocities v_k and the results.
  const std::vector<ContactSpace>& spaces() const { return spaces_; }
  const std::vector<VecX>& pre_velocities() const { return pre_; }
  const std::vector<VecX>& post_velocities() const { return post_; }
  const std::vector<ConvexImpulseResult>& results() const { return results_; }

 private:
  ContactFinder finder_;
  ContactDrift drift_;  // SimOptions::contact_drift_correction
  std::unique_ptr<ContactModel> contact_model_;
  ConstraintSet constraints_, active_, island_scratch_;
  std::vector<Island> islands_;
  std::vector<ContactSpace> spaces_;
  std::vector<VecX> pre_, post_;
  std::vector<ConvexImpulseResult> results_;
  std::vector<InverseMass> inverse_mass_;
  std::vector<Vec6> start_velocity_, free_velocity_, velocity_;
  TreeStart trees_;              // kinematic trees (v_k: trees_.velocity)
  std::vector<VecX> tree_post_;  // per tree v+
  void tree_terms(const Model& model, const State& state);
  void integrate_trees(const Model& model, State& state) const;
};

}  // namespace pegsim
