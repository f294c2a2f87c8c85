// What the projected Jacobi (thesis eq. 2.47) and fixed-point (eq. 2.44)
// solvers share: both update every row from the previous iterate alone,
//   z_i <- Proj_i(z_i - r_i w_i),   w = A z + b,   r_i = step / A_ii,
// with Proj_i = max(0, .) on NonNegative rows and the identity on Free rows.
// They differ in the step: a fixed lambda (Jacobi) or an adaptive one.
// Internal to the solvers stage.
#pragma once

#include "solvers/lcp.hpp"

#include <string>
#include <string_view>

namespace pegsim::solver_detail {

// The problem check, the warm start and the diagonal. On false, `result`
// is final (status, message; Solved for n = 0 or a warm start that already
// solves the problem, with 0 iterations). On true, z is the clamped warm
// start, w = A z + b and inv_diag = 1 / A_ii (every A_ii > 0).
bool start_diagonal_iteration(const LcpProblem& p, std::string_view solver, const SolverOptions& options,
                              VecX& z, VecX& w, VecX& inv_diag, SolverResult& result);

// z <- Proj(z - step * inv_diag .* w), in place.
void diagonal_step(const LcpProblem& p, const VecX& inv_diag, double step, const VecX& w, VecX& z);

}  // namespace pegsim::solver_detail
