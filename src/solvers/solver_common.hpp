// Pieces every LCP solver shares: the problem check, the residual test, the
// clock, and the registry list.
//
// Adding a solver: one .cpp file defining `make_<name>_solver`, plus one
// PEGSIM_SOLVER line in PEGSIM_SOLVER_LIST below.
#pragma once

#include "solvers/lcp.hpp"

#include <chrono>
#include <memory>
#include <string>
#include <string_view>

namespace pegsim {

// X-macro: (registry name, factory function). One line per solver.
#define PEGSIM_SOLVER_LIST(PEGSIM_SOLVER) \
  PEGSIM_SOLVER("lemke", make_lemke_solver) \
  PEGSIM_SOLVER("pgs", make_pgs_solver) \
  PEGSIM_SOLVER("path", make_path_solver) \
  PEGSIM_SOLVER("fischer-newton", make_fischer_newton_solver) \
  PEGSIM_SOLVER("minmap-newton", make_minmap_newton_solver) \
  PEGSIM_SOLVER("psor", make_psor_solver) \
  PEGSIM_SOLVER("projected-jacobi", make_projected_jacobi_solver) \
  PEGSIM_SOLVER("fixed-point", make_fixed_point_solver) \
  PEGSIM_SOLVER("interior-point", make_interior_point_solver) \
  PEGSIM_SOLVER("ppm", make_ppm_solver) \
  PEGSIM_SOLVER("dvc3d-qp", make_dvc3d_qp_solver) \
  PEGSIM_SOLVER("active-set", make_active_set_solver) \
  PEGSIM_SOLVER("qp-active-set", make_qp_active_set_solver)

#define PEGSIM_DECLARE_SOLVER_FACTORY(name, factory) \
  std::unique_ptr<LcpSolver> factory(const SolverOptions& options);
PEGSIM_SOLVER_LIST(PEGSIM_DECLARE_SOLVER_FACTORY)
#undef PEGSIM_DECLARE_SOLVER_FACTORY

namespace solver_detail {

// Residuals of z given w = A z + b already computed (see SolverResult).
void residuals_from_w(const LcpProblem& problem, const VecX& z, const VecX& w,
                      SolverResult& result);

// The acceptance threshold of SolverOptions::tolerance: tolerance * (1 + |b|_inf).
double residual_threshold(const LcpProblem& problem, double tolerance);

// Both residuals of `result` within residual_threshold.
bool within_tolerance(const LcpProblem& problem, const SolverResult& result, double tolerance);

// max(complementarity, feasibility): one number to compare candidate solutions.
inline double residual_norm(const SolverResult& r) {
  return r.complementarity > r.feasibility ? r.complementarity : r.feasibility;
}

// Shape and finiteness checks. True when the problem is well formed; otherwise
// fills result.status and result.message (solvers report, never throw).
bool check_problem(const LcpProblem& problem, std::string_view solver, SolverResult& result);

bool is_free(const LcpProblem& problem, int i);
RowRole role_of(const LcpProblem& problem, int i);

class Stopwatch {
 public:
  Stopwatch() : start_(std::chrono::steady_clock::now()) {}
  double seconds() const {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
  }

 private:
  std::chrono::steady_clock::time_point start_;
};

// Closes a solve: sets the status, the message (cleared when Solved, as
// SolverResult documents) and the time since `clock` started.
inline SolverResult& finish(SolverResult& result, const Stopwatch& clock, SolverStatus status, std::string message) {
  result.status = status;
  result.message = status == SolverStatus::Solved ? std::string() : std::move(message);
  result.seconds = clock.seconds();
  return result;
}

// The message of a solve stopped by SolverOptions::time_budget.
inline std::string time_budget_message(std::string_view solver, const SolverOptions& options, int iterations) {
  std::string m(solver);
  m += ": time budget of ";
  m += std::to_string(options.time_budget);
  m += " s spent after ";
  m += std::to_string(iterations);
  m += " iterations";
  return m;
}

}  // namespace solver_detail
}  // namespace pegsim
