// The solver stage of World::step(): one complementarity problem per contact
// island (sim/islands.hpp), each solved by the fallback chain and certified
// (sim/certification.hpp).
#include "sim/certification.hpp"
#include "sim/stage_timer.hpp"
#include "sim/world.hpp"
#include "solvers/solver_common.hpp"

#include <algorithm>
#include <limits>

namespace pegsim {

const ConstraintSet& World::last_island_constraints(std::size_t island) const {
  return islands_.size() == 1 ? constraints_ : island_constraints_.at(island);
}

// islands_ from the constraint set; one island holding everything when
// options.islands is off.
void World::group_islands() {
  find_islands(constraints_, is_static_, islands_);
  if (model_.options.islands || islands_.size() <= 1) return;
  Island all;
  for (const Island& island : islands_) all.bodies.insert(all.bodies.end(), island.bodies.begin(), island.bodies.end());
  std::sort(all.bodies.begin(), all.bodies.end());
  for (std::size_t c = 0; c < constraints_.contacts.size(); ++c) all.contacts.push_back(static_cast<int>(c));
  for (std::size_t k = 0; k < constraints_.constraints.size(); ++k) all.constraints.push_back(static_cast<int>(k));
  islands_.assign(1, std::move(all));
}

void World::solve(std::vector<Vec6>& velocity) {
  group_islands();
  const std::size_t n = islands_.size();
  // a single island is the whole constraint set, in its order: no copy
  if (n > 1) island_constraints_.resize(n);
  problems_.resize(n);
  report_.islands.resize(n);
  next_impulses_.clear();
  const int nc = static_cast<int>(constraints_.contacts.size());
  report_.contacts.resize(nc);
  report_.impulses.resize(nc);
  for (std::size_t i = 0; i < n; ++i) {
    const Island& island = islands_[i];
    if (n > 1) extract_island(constraints_, island, island_constraints_[i]);
    const ConstraintSet& set = last_island_constraints(i);
    StepProblem& problem = problems_[i];
    {
      StageTimer timer(report_.profile, Stage::Formulation);
      FormulationInput in;
      in.model = &model_;
      in.state = &state_;
      in.inverse_mass = &inverse_mass_;
      in.free_velocity = &free_velocity_;
      in.h = model_.options.h;
      // the dense A only when the chain's first solver reads it (pgs, psor
      // work on the structure); a fallback that needs it assembles it then
      in.matrix = solvers_.front()->needs_matrix();
      build_problem(model_.options.formulation, in, set, problem);
      warm_start(set, problem, z_);
    }
    SolverResult result;
    {
      StageTimer timer(report_.profile, Stage::Solver);
      IslandReport& ir = report_.islands[i];
      ir.bodies = island.bodies;
      result = solve_island(set, problem, z_, ir);
      ++report_.solver_calls;
      report_.problem_size += problem.lcp.size();
      report_.escalations += ir.escalations;
      if (!ir.certified) ++report_.solver_failures;
      if (ir.recovered) ++report_.solver_recoveries;
      ++report_.solved_by[ir.attempts.back().solver];
      report_.complementarity = std::max({report_.complementarity, ir.complementarity, ir.feasibility});
      report_.cone_violation = std::max(report_.cone_violation, ir.cone_violation);
      // the step's SolverResult: the worst island's (a failure before a
      // success, then the larger residual), iterations summed over islands
      const int iterations = report_.solver.iterations + result.iterations;
      const bool worse = i == 0 || (!result.ok() && report_.solver.ok()) ||
                         (result.ok() == report_.solver.ok() &&
                          solver_detail::residual_norm(result) > solver_detail::residual_norm(report_.solver));
      if (worse) report_.solver = result;
      report_.solver.iterations = i == 0 ? result.iterations : iterations;
    }
    StageTimer timer(report_.profile, Stage::Integration);
    apply_impulses(problem, z_, inverse_mass_, velocity);
    remember_solution(set, problem, z_);
    // per-contact impulses for observers, in the whole set's contact order
    for (std::size_t c = 0; c < island.contacts.size(); ++c) {
      const int global = island.contacts[c];
      report_.contacts[global] = set.contacts[c].contact;
      ContactImpulse& imp = report_.impulses[global];
      imp.normal = normal_impulse(problem, z_, static_cast<int>(c));  // 0 for a PEG secondary sub-contact
      imp.friction.setZero();
      const int f = problem.first_friction_var[c];
      if (f >= 0)
        for (int k = 0; k < problem.friction_directions; ++k)
          imp.friction += z_(f + k) * problem.friction_direction[f + k];
    }
  }
  previous_impulses_.swap(next_impulses_);
}

// The chain of sim/certification.hpp on one island's problem: z holds the
// warm start on entry and the impulses to apply on exit.
SolverResult World::solve_island(const ConstraintSet& set, StepProblem& problem, VecX& z, IslandReport& out) {
  LcpProblem& lcp = problem.lcp;
  out.contacts = static_cast<int>(set.contacts.size());
  out.problem_size = lcp.size();
  out.attempts.clear();
  out.recovered = false;
  SolverResult result, measured;
  VecX best;
  double best_residual = std::numeric_limits<double>::infinity();
  for (std::size_t k = 0; k < solvers_.size(); ++k) {
    if (k > 0) z = best.size() == lcp.size() ? best : VecX::Zero(lcp.size());  // best iterate so far
    if (solvers_[k]->needs_matrix() && !lcp.has_matrix()) assemble_matrix(lcp);  // timed as the solver's
    result = solvers_[k]->solve(lcp, z);
    SolveAttempt attempt;
    attempt.solver = static_cast<int>(k);
    attempt.status = result.status;
    measured = SolverResult{};
    if (z.size() == lcp.size()) measure_residuals(lcp, z, measured);  // one A z (or G'M^-1G z): the certificate's cost
    else measured.complementarity = std::numeric_limits<double>::infinity();
    attempt.residual = solver_detail::residual_norm(measured);
    attempt.cone_violation = z.size() == lcp.size() && z.allFinite() ? cone_violation(problem, z, set)
                                                                      : std::numeric_limits<double>::infinity();
    attempt.accepted = result.ok() && attempt.cone_violation <= model_.options.max_cone_violation;
    if (!attempt.accepted && result.ok())
      result.message = "friction cone violated by " + std::to_string(attempt.cone_violation) + " N s";
    out.attempts.push_back(attempt);
    if (attempt.accepted) break;
    if (attempt.residual < best_residual && z.allFinite()) {
      best_residual = attempt.residual;
      best = z;
    }
  }
  out.escalations = static_cast<int>(out.attempts.size()) - 1;
  out.certified = out.attempts.back().accepted;
  out.cone_violation = out.attempts.back().cone_violation;
  bool changed = false;  // z no longer the last attempt's: measure again
  if (!out.certified && recover_without_stabilization(set, problem, z)) {
    out.recovered = true;
    changed = true;
    result.message += "; recovered by solving without penetration correction";
  }
  if (z.size() != lcp.size() || !z.allFinite()) {  // never integrate a NaN: drop the impulses, report the failure
    z.setZero(lcp.size());
    changed = true;
    result.status = SolverStatus::NumericalFailure;
    result.message = "solver returned non-finite impulses; contact impulses dropped";
  }
  if (changed) {
    measure_residuals(lcp, z, measured);
    out.cone_violation = cone_violation(problem, z, set);
  }
  out.complementarity = measured.complementarity;
  out.feasibility = measured.feasibility;
  return result;
}

// A Stewart-Trinkle problem with penetrating contacts whose normals oppose each
// other (the standard-model trap of thesis 4.1, or round-off at coincident
// corners) can be infeasible: psi/h asks the bodies to separate both ways. The
// same step without the psi/h correction of the penetrating rows (gaps clamped
// at zero) is always feasible, since zero relative velocity satisfies it.
// It is tried once, with the chain's last solver; the island stays counted as
// a solver failure either way.
bool World::recover_without_stabilization(const ConstraintSet& set, const StepProblem& problem, VecX& z) {
  if (model_.options.formulation != FormulationKind::StewartTrinkle) return false;
  LcpProblem clamped = problem.lcp;
  bool any = false;
  for (std::size_t c = 0; c < set.contacts.size(); ++c) {
    const double gap = set.contacts[c].contact.gap;
    if (gap < 0.0 && problem.normal_var[c] >= 0) {
      clamped.b(problem.normal_var[c]) -= gap / model_.options.h;
      any = true;
    }
  }
  if (!any) return false;
  if (solvers_.back()->needs_matrix() && !clamped.has_matrix()) assemble_matrix(clamped);
  VecX retry_z = VecX::Zero(clamped.size());
  const SolverResult retry = solvers_.back()->solve(clamped, retry_z);
  if (!retry.ok()) return false;
  z = retry_z;
  return true;
}

// Last step's impulses for contacts between the same features (the LCP's
// variables are in contact order, so the guess is assembled per contact).
void World::warm_start(const ConstraintSet& set, const StepProblem& problem, VecX& z) const {
  z.setZero(problem.lcp.size());
  for (std::size_t c = 0; c < set.contacts.size(); ++c) {
    const Contact& k = set.contacts[c].contact;
    auto it = previous_impulses_.find(feature_key(k));
    if (it == previous_impulses_.end() || problem.normal_var[c] < 0) continue;
    const std::vector<double>& p = it->second;
    z(problem.normal_var[c]) = p[0];
    const int f = problem.first_friction_var[c];
    if (f >= 0 && static_cast<int>(p.size()) == problem.friction_directions + 2) {
      for (int d = 0; d < problem.friction_directions; ++d) z(f + d) = p[1 + d];
      z(problem.slip_var[c]) = p.back();
    }
  }
}

void World::remember_solution(const ConstraintSet& set, const StepProblem& problem, const VecX& z) {
  for (std::size_t c = 0; c < set.contacts.size(); ++c) {
    const Contact& k = set.contacts[c].contact;
    if (problem.normal_var[c] < 0) continue;  // a PEG secondary sub-contact carries no impulse
    std::vector<double> p{z(problem.normal_var[c])};
    const int f = problem.first_friction_var[c];
    if (f >= 0) {
      for (int d = 0; d < problem.friction_directions; ++d) p.push_back(z(f + d));
      p.push_back(z(problem.slip_var[c]));
    }
    next_impulses_[feature_key(k)] = std::move(p);
  }
}

}  // namespace pegsim
