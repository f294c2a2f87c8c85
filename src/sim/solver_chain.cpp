#include "sim/solver_chain.hpp"

#include "sim/certification.hpp"
#include "sim/model.hpp"
#include "solvers/solver_common.hpp"

#include <limits>
#include <stdexcept>

namespace pegsim {

void SolverChain::configure(const std::vector<std::string>& names, const SolverOptions& options) {
  if (names.empty()) throw std::invalid_argument("the solver chain is empty");
  std::vector<std::unique_ptr<LcpSolver>> chain;
  for (const std::string& name : names) {
    auto solver = make_solver(name, options);
    if (!solver) throw std::invalid_argument("unknown solver '" + name + "' (available: " + chain_text(solver_names()) + ")");
    chain.push_back(std::move(solver));
  }
  solvers_ = std::move(chain);
  time_budget_ = options.time_budget;
}

void SolverChain::configure(const SimOptions& o) {
  SolverOptions s;
  s.tolerance = o.solver_tolerance;
  s.max_iterations = o.solver_max_iterations;
  s.relaxation = o.solver_relaxation;
  s.time_budget = o.solver_time_budget;
  configure(o.solver_chain.empty() ? std::vector<std::string>{o.solver} : o.solver_chain, s);
}

bool SolverChain::run(LcpSolver& solver, LcpProblem& lcp, VecX& z, SolverResult& result) {
  if (solver.needs_matrix() && !lcp.has_matrix()) {
    if (solver.warm_starts_on_structure() && solver.solve_on_structure(lcp, z, result))
      return result.ok() && z.size() == lcp.size() && z.allFinite();
    assemble_matrix(lcp);  // timed as the solver's
  }
  result = solver.solve(lcp, z);
  return result.ok() && z.size() == lcp.size() && z.allFinite();
}

SolverResult SolverChain::solve(const ConstraintSet& set, StepProblem& problem, VecX& z, double max_cone_violation,
                                IslandReport& out) {
  LcpProblem& lcp = problem.lcp;
  out.contacts = static_cast<int>(set.contacts.size());
  out.problem_size = lcp.size();
  out.attempts.clear();
  out.recovered = false;
  out.impulse_scale = 1.0;
  SolverResult result, measured;
  double best_residual = std::numeric_limits<double>::infinity();
  bool have_best = false;
  for (std::size_t k = 0; k < solvers_.size(); ++k) {
    if (k > 0) {  // the best iterate so far
      if (have_best) z = best_;
      else z.setZero(lcp.size());
    }
    run(*solvers_[k], lcp, z, result);
    SolveAttempt attempt;
    attempt.solver = static_cast<int>(k);
    attempt.status = result.status;
    measured = SolverResult{};
    if (z.size() == lcp.size()) measure_residuals(lcp, z, measured);  // one A z (or G'M^-1G z): the certificate's cost
    else measured.complementarity = std::numeric_limits<double>::infinity();
    attempt.residual = solver_detail::residual_norm(measured);
    attempt.cone_violation = z.size() == lcp.size() && z.allFinite() ? cone_violation(problem, z, set)
                                                                      : std::numeric_limits<double>::infinity();
    attempt.accepted = result.ok() && attempt.cone_violation <= max_cone_violation;
    if (!attempt.accepted && result.ok())
      result.message = "friction cone violated by " + std::to_string(attempt.cone_violation) + " N s";
    attempt.out_of_time = !attempt.accepted && time_budget_ > 0.0 && result.seconds >= time_budget_;
    out.attempts.push_back(attempt);
    if (attempt.accepted) break;
    if (attempt.residual < best_residual && z.size() == lcp.size() && z.allFinite()) {
      best_residual = attempt.residual;
      best_ = z;
      have_best = true;
    }
  }
  // a solver that declined the problem's form (Unsupported: active-set on a
  // PEG problem) missed nothing: handing on after it is no escalation
  out.escalations = 0;
  for (std::size_t k = 0; k + 1 < out.attempts.size(); ++k)
    out.escalations += out.attempts[k].status != SolverStatus::Unsupported;
  out.certified = out.attempts.back().accepted;
  out.cone_violation = out.attempts.back().cone_violation;
  out.complementarity = measured.complementarity;
  out.feasibility = measured.feasibility;
  return result;
}

bool SolverChain::solve_with_last(LcpProblem& lcp, VecX& z) {
  z.setZero(lcp.size());
  SolverResult result;
  return run(*solvers_.back(), lcp, z, result);
}

bool SolverChain::solve_first_accepted(LcpProblem& lcp, VecX& z) {
  SolverResult result;
  for (const auto& solver : solvers_) {
    z.setZero(lcp.size());
    if (run(*solver, lcp, z, result)) return true;
  }
  return false;
}

}  // namespace pegsim
