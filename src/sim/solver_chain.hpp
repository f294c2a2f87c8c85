// The certified solver chain: one complementarity problem, solvers tried in
// turn until one's solution is accepted (sim/certification.hpp says what
// accepted means).
//
// Each attempt is re-measured on the problem itself (residuals through A or
// the structure, friction-cone violation); a miss hands the problem to the
// next solver, warm-started from the best iterate so far (smallest residual).
// A solver that declines the problem's form (SolverStatus::Unsupported) hands
// it on without an escalation being counted or warned about.
// The last solver's impulses are kept when it misses too; the caller then
// counts a failure (and may try a recovery, sim/island_solver.hpp).
#pragma once

#include "contact/constraint_set.hpp"
#include "dynamics/formulation.hpp"
#include "sim/step_report.hpp"
#include "solvers/lcp.hpp"

#include <memory>
#include <string>
#include <vector>

namespace pegsim {

struct SimOptions;  // sim/model.hpp

class SolverChain {
 public:
  // Throws std::invalid_argument on an empty chain or an unknown solver name
  // (the message lists the registry's names).
  void configure(const std::vector<std::string>& names, const SolverOptions& options);
  // The scene's chain (solver_chain, else [solver]) with its solver_tolerance,
  // solver_max_iterations, solver_relaxation and solver_time_budget.
  void configure(const SimOptions& options);
  std::size_t size() const { return solvers_.size(); }
  // Whether the first solver reads the dense A (the formulation then builds it).
  // Whether the formulation fills the dense A for the first solver (Lemke
  // warm-starts on the structure and has it assembled only when it pivots).
  bool first_needs_matrix() const {
    return solvers_.front()->needs_matrix() && !solvers_.front()->warm_starts_on_structure();
  }

  // Solves `problem` (z: the warm start on entry, the kept impulses on exit)
  // and records each attempt, the escalations and whether the kept impulses
  // were accepted in `out`, with their residuals.
  SolverResult solve(const ConstraintSet& set, StepProblem& problem, VecX& z, double max_cone_violation,
                     IslandReport& out);
  // The last solver alone, from z = 0 (a recovery's retry); true when it solved.
  bool solve_with_last(LcpProblem& lcp, VecX& z);
  // The first solver of the chain that reports Solved with finite impulses,
  // from z = 0 each (the position correction's projections); false if none.
  bool solve_first_accepted(LcpProblem& lcp, VecX& z);

 private:
  bool run(LcpSolver& solver, LcpProblem& lcp, VecX& z, SolverResult& result);
  std::vector<std::unique_ptr<LcpSolver>> solvers_;
  double time_budget_ = 0.0;  // SolverOptions::time_budget of every solver
  VecX best_;
};

}  // namespace pegsim
