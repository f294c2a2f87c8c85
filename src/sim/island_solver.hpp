// The time-stepping stepper's solve: one complementarity problem per contact
// island (sim/islands.hpp), each formulated (dynamics/formulation.hpp),
// with its joints' rows after the contact rows (joints/joint_problem.hpp),
// warm-started from last step's impulses (sim/warm_start.hpp), solved by the
// certified chain (sim/solver_chain.hpp), and its impulses applied to the
// velocities (eq. 2.30: nu^{l+1} = nu* + M^-1 G z).
//
// Recovery: a Stewart-Trinkle problem with penetrating contacts whose
// normals oppose each other (the standard-model trap of thesis 4.1, or
// round-off at coincident corners) can be infeasible: psi/h asks the bodies
// to separate both ways. When the chain fails on an island with penetrating
// contacts, the island is formulated again with those gaps clamped at zero
// (every row that reads a gap reads the clamped one: the normal rows of eq.
// 6.1, and PEG's I- and X-constraint rows and slack rows of eqs. 4.41-4.51),
// which zero relative velocity always satisfies, and solved once by the
// chain's last solver. The island stays counted as a failure either way; a
// recovered island's problem (problems()) and residuals are the clamped
// problem's.
//
// Every island's impulses, solved or not, are then held to the energy bound
// of sim/impulse_energy.hpp (SimOptions::energy_bound): impulses that would
// give the bodies more kinetic energy than the gaps and targets allow are
// scaled down, and the island counts as a failure.
#pragma once

#include "contact/constraint_set.hpp"
#include "dynamics/formulation.hpp"
#include "dynamics/mass.hpp"
#include "sim/islands.hpp"
#include "sim/tree_stepping.hpp"
#include "sim/solver_chain.hpp"
#include "sim/step_report.hpp"
#include "sim/warm_start.hpp"

#include <vector>

namespace pegsim {

class IslandSolver {
 public:
  // The chain of model.options (solver_chain, or solver alone); throws
  // std::invalid_argument on an unknown solver.
  void configure(const Model& model);
  SolverChain& chain() { return chain_; }
  // The step's kinematic trees (sim/tree_stepping.hpp), or nullptr: their
  // terms join A of every island with a link, and their impulses are collected.
  void set_trees(TreeStepping* trees) { trees_ = trees; }

  // Solves the step's contact problem of `constraints` at the free velocities
  // nu* and adds M^-1 G z to `velocity` (nu^{l+1} when it enters as nu*); the report gets the islands' certificates and
  // the per-contact impulses. A step without constraints clears the islands
  // and advances the warm starts (nothing stale survives it).
  void solve(const Model& model, const State& state, const std::vector<bool>& is_static,
             const ConstraintSet& constraints, const std::vector<InverseMass>& inverse_mass,
             const std::vector<Vec6>& free_velocity, std::vector<Vec6>& velocity, StepReport& report);

  // The last step's problems, one per island in island order, and the island
  // each was built from (its part of the constraint set, contacts renumbered).
  const std::vector<StepProblem>& problems() const { return problems_; }
  const std::vector<Island>& islands() const { return islands_; }
  const ConstraintSet& island_constraints(const ConstraintSet& all, std::size_t island) const;

 private:
  void group_islands(const Model& model, const std::vector<bool>& is_static, const ConstraintSet& constraints);
  void formulate(const Model& model, const State& state, const ConstraintSet& set, const std::vector<int>& joints,
                 const std::vector<InverseMass>& inverse_mass, const std::vector<Vec6>& free_velocity,
                 StepProblem& problem, bool matrix);
  bool recover(const Model& model, const State& state, const ConstraintSet& set, const std::vector<int>& joints,
               const std::vector<InverseMass>& inverse_mass, const std::vector<Vec6>& free_velocity, VecX& z);
  void report_island(std::size_t i, const SolverResult& result, StepReport& report);

  SolverChain chain_;
  TreeStepping* trees_ = nullptr;
  const std::vector<std::uint32_t>* island_bodies_ = nullptr;  // the island being formulated (trees' limit rows)
  WarmStartCache warm_start_;
  std::vector<Island> islands_;
  std::vector<std::pair<std::uint32_t, std::uint32_t>> joint_ends_;  // per model joint, for find_islands
  std::vector<ConstraintSet> island_constraints_;  // per island; unused when the island is the whole set
  std::vector<StepProblem> problems_;
  ConstraintSet clamped_;            // a recovery's constraint set
  StepProblem clamped_problem_;
  VecX z_;
};

// The step's totals from island i's certificate: counts, the step's
// SolverResult is the worst island's (a failure before a success, then the
// larger residual), its iterations summed over islands. Shared by every
// stepper that solves islands through the solver chain.
void add_island_to_report(std::size_t i, const IslandReport& island, const SolverResult& result, StepReport& report);

// An island over SimOptions::max_problem_size (`size` variables): reported,
// not solved; its contacts get no impulses (a counted failure, over_budget;
// CertificationLog warns). Returns the result to report it with
// (add_island_to_report). Shared by the steppers that solve islands.
SolverResult skip_over_budget(const Island& island, const ConstraintSet& set, long size, IslandReport& ir,
                              StepReport& report);

}  // namespace pegsim
