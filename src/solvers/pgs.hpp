// Projected Gauss-Seidel / PSOR (thesis 2.5.1-2.5.2, eqs. 2.40, 2.46) that
// follows the row roles.
//
// Plain rows (no Slip rows in the problem, or rows outside any contact):
//   z_i <- max(0, z_i - lambda w_i / A_ii)          (eq. 2.46; no max on Free rows)
// which needs A_ii > 0: a zero diagonal is Unsupported.
//
// Stewart-Trinkle contacts (eq. 6.1; rows found through role and contact_of):
// the slip rows have A_ss = 0, so s is not swept. Per contact, in row order:
//   1. p_n by its own row, projected at 0 (eq. 2.46);
//   2. with p_n fixed, p_f solves the friction block
//        min 1/2 p_f' H p_f + p_f' r   over   C = {p_f >= 0, sum_k p_f,k <= mu p_n},
//      H = A_ff of the contact, r the rest of its friction velocities. Its
//      KKT conditions, with s the multiplier of the sum constraint, are
//      exactly eq. 2.21 for this contact:
//        0 <= p_f  perp  v_f + E s >= 0,   0 <= s  perp  mu p_n - E'p_f >= 0,
//      v_f = (A z + b)_f without the slip term. It is solved by projected
//      gradient steps p_f <- Proj_C(p_f - v_f / L), L >= lambda_max(H)
//      (Gershgorin), with the exact Euclidean projection onto C.
//   3. s recovered: s = max(0, -min_k v_f,k). Derivation: if the cone is not
//      saturated, s = 0 by complementarity and then v_f >= 0 (the minimum is
//      >= 0, giving 0); if it is saturated (s > 0 allowed), every active
//      direction has v_f,k + s = 0 and every other v_f,k + s >= 0, so
//      s = -min_k v_f,k. With mu p_n = 0 (C = {0}) the smallest s making
//      v_f + s >= 0 is the same formula.
// Convergence: residuals (SolverResult) measured on w = A z + b recomputed
// from scratch every few sweeps; Solved when within the tolerance,
// MaxIterations (z the last iterate) otherwise. Default 500 sweeps.
#pragma once

#include "solvers/lcp.hpp"

#include <vector>

namespace pegsim {

class PgsSolver final : public LcpSolver {
 public:
  explicit PgsSolver(const SolverOptions& options) : options_(options) {}
  std::string_view name() const override { return "pgs"; }
  SolverResult solve(const LcpProblem& problem, VecX& z) override;

  static constexpr int kDefaultMaxSweeps = 500;

 private:
  SolverOptions options_;
};

// Euclidean projection of y onto {x >= 0, sum x <= cap} (cap >= 0), in place.
void project_onto_capped_simplex(VecX& y, double cap);
void project_onto_capped_simplex(VecX& y, double cap, std::vector<double>& scratch);

}  // namespace pegsim
