// The shared start and step of projected Jacobi and fixed-point (see
// diagonal_iteration.hpp).
#include "solvers/diagonal_iteration.hpp"

#include "solvers/solver_common.hpp"

#include <algorithm>
#include <string>

namespace pegsim::solver_detail {

bool start_diagonal_iteration(const LcpProblem& p, std::string_view solver, const SolverOptions& options,
                              VecX& z, VecX& w, VecX& inv_diag, SolverResult& result) {
  if (!check_problem(p, solver, result)) return false;
  const int n = p.size();
  if (z.size() != n || !z.allFinite()) z = VecX::Zero(n);
  if (n == 0) {
    result.status = SolverStatus::Solved;
    return false;
  }
  inv_diag.resize(n);
  for (int i = 0; i < n; ++i) {
    if (!(p.A(i, i) > 0.0)) {
      result.status = SolverStatus::Unsupported;
      result.message = std::string(solver) + ": diagonal A(" + std::to_string(i) + "," + std::to_string(i) +
                       ") <= 0 (the iteration divides by it, thesis eqs. 2.46-2.47)";
      return false;
    }
    inv_diag(i) = 1.0 / p.A(i, i);
    if (!is_free(p, i)) z(i) = std::max(z(i), 0.0);
  }
  w.noalias() = p.A * z;
  w += p.b;
  residuals_from_w(p, z, w, result);
  if (within_tolerance(p, result, options.tolerance)) {  // a warm start at the solution
    result.status = SolverStatus::Solved;
    return false;
  }
  return true;
}

void diagonal_step(const LcpProblem& p, const VecX& inv_diag, double step, const VecX& w, VecX& z) {
  for (int i = 0; i < p.size(); ++i) {
    const double zi = z(i) - step * inv_diag(i) * w(i);
    z(i) = is_free(p, i) ? zi : std::max(zi, 0.0);
  }
}

}  // namespace pegsim::solver_detail
