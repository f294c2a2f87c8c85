// What the projected Jacobi (thesis eq. 2.47) and fixed-point (eq. 2.44)
// solvers share: both update every row from the previous iterate alone,
//   z_i <- Proj_i(z_i - r_i w_i),   w = A z + b,   r_i = step / A_ii,
// with Proj_i = max(0, .) on NonNegative rows and the identity on Free rows.
// They differ in the step: a fixed lambda (Jacobi) or an adaptive one.
//
// Stewart-Trinkle contacts (eq. 6.1, found as pgs.hpp finds them; their slip
// rows have A_ss = 0, so no scalar row update exists for them): each
// contact's friction impulses move as a block, also from the previous
// iterate - the block's exact minimizer p* with everything else fixed
// (pgs_detail::FrictionBlock, the cap mu p_n at the previous p_n) is the
// target, p <- Proj_C(p + step (p* - p)) (for step <= 1 a convex combination,
// already in C), and the slip speed s = max(0, -min_k v_f,k) at p* (pgs.hpp,
// step 3). A block Jacobi iteration: every block from the same old iterate.
// Internal to the solvers stage.
#pragma once

#include "solvers/pgs.hpp"

#include <string>
#include <string_view>
#include <vector>

namespace pegsim::solver_detail {

struct DiagonalPlan {
  pgs_detail::Schedule schedule;  // the contacts; empty without Slip rows
  std::vector<int> scalar;        // the rows updated by the scalar rule
  VecX inv_diag;                  // 1 / A_ii on those rows
  double perp_tol = 0.0;          // FrictionBlock::solve's range tolerance
  VecX v, p, scratch;             // block scratch
  std::vector<double> simplex_scratch;
};

// The problem check, the warm start, the contacts and the diagonal. On false,
// `result` is final (status, message; Solved for n = 0 or a warm start that
// already solves the problem, with 0 iterations). On true, z is the clamped
// warm start, w = A z + b and plan is ready (every scalar row has A_ii > 0).
bool start_diagonal_iteration(const LcpProblem& p, std::string_view solver, const SolverOptions& options,
                              VecX& z, VecX& w, DiagonalPlan& plan, SolverResult& result);

// One step from (z, w = A z + b) with the given step length, z in place.
void diagonal_step(const LcpProblem& p, DiagonalPlan& plan, double step, const VecX& w, VecX& z);

}  // namespace pegsim::solver_detail
