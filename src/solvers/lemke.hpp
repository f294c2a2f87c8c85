// Lemke's complementary pivoting method for the pure LCP (thesis 6.4, [87]).
//
// Order of work in solve():
//   1. b >= 0: z = 0 solves (w = b), no pivot.
//   2. warm start: the support of the given z is taken as the active set J;
//      A_JJ z_J = -b_J is solved and accepted if z, w >= 0 and z.w = 0 hold
//      within the tolerance (0 pivots).
//   3. complementary pivoting (lemke_pivoting.hpp) on the scaled problem, then
//      a polish: the linear system of the final active set is re-solved on the
//      original data, and the better of the two candidates is kept.
//   4. on a ray, the pivot limit, or numerical trouble (a residual above the
//      tolerance after the polish): the Tikhonov ladder M + delta I with
//      delta = {1e-12, 1e-10, 1e-8, 1e-6} * |M|_inf, M the equilibrated
//      problem below, recording SolverResult::regularization_level (1..4).
//      Each rung's active set is polished on the original data (LU, then a
//      rank-revealing minimum-norm solve for singular, redundant-contact
//      systems, then the rung's own regularised system). Residuals are always
//      those of the ORIGINAL problem; Solved only when they meet the tolerance.
// Scaling: pivoting runs on M = D A D / alpha, q = D b / (alpha beta) with
// D_i = A_ii^-1/2 (rows with a positive diagonal; slip rows get the geometric
// mean of their row and column sizes), alpha = max |DAD|, beta making
// |q|_inf = 1. This keeps bodies of very different masses comparable; the
// covering vector (ones for M) is D^-1 1 for A. Pivot limit: 50 n + 10 unless
// SolverOptions::max_iterations is set.
// A ray ends with Infeasible only when a Farkas certificate is checked on the
// original data: y >= 0 with A'y <= 0 and b'y < 0 (then y'(Az + b) < 0 for
// every z >= 0, so no feasible z exists). Lemke's ray supplies such a y when A
// is copositive-plus (Cottle-Pang-Stone thm 4.4.13); a row i with b_i < 0 and
// A_i <= 0 is the certificate y = e_i. Otherwise the status is RayTermination.
// Free (bilateral) rows are Unsupported: the formulation eliminates them
// first (thesis eq. 2.37).
#pragma once

#include "solvers/lcp.hpp"

namespace pegsim {

class LemkeSolver final : public LcpSolver {
 public:
  explicit LemkeSolver(const SolverOptions& options) : options_(options) {}
  std::string_view name() const override { return "lemke"; }
  SolverResult solve(const LcpProblem& problem, VecX& z) override;

  // Pivot limit when SolverOptions::max_iterations is 0.
  static int default_pivot_limit(int n) { return 50 * n + 10; }

 private:
  SolverOptions options_;
};

}  // namespace pegsim
