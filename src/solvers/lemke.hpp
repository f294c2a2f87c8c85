// Lemke's complementary pivoting method for the pure LCP (thesis 6.4, [87]).
//
// Order of work in solve():
//   1. b >= -threshold: z = 0 is within the tolerance (w = b), no pivot.
//   2. warm start: the support of the given z (entries above 1e-9 max z) is
//      the active set J; its linear system is solved on the original data,
//      refined, and swept (3 below); accepted within the tolerance with 0
//      pivots (SolverResult::iterations counts only rows moved in or out of J).
//   3. complementary pivoting (lemke_pivoting.hpp) on the scaled problem with
//      the entries of b within the noise level (|b_i| <= threshold / 2) set to
//      zero: at rest, contact problems are degenerate at the level of their
//      data's noise, which is also the tolerance's level, and pivoting on the
//      noise follows it into nearly singular bases. Then the polish on the
//      ORIGINAL data (lemke_active_set.hpp): the final basis's active set J
//      solved (LU, dependent rows of redundant contacts dropped), structural
//      violations moved in or out of J (block principal pivots), and the
//      noise-level violations removed by block Gauss-Seidel sweeps with exact
//      contact blocks (lemke_sweep.hpp).
//   The polish aims at min(1e-3 threshold, 1e-13 (1 + |b|_inf)) (lemke.cpp:
//   residuals left near the threshold feed back into the next step's b as
//   noise) and accepts anything within the threshold when it gets no closer.
//   4. on a ray, the pivot limit, or numerical trouble (a residual above the
//      tolerance after the polish): the same path again under the rules for
//      mostly dependent rows (PivotRules::dependent_rows: a larger pivot
//      tolerance and absolute tie), polished as in 3. Then, under the
//      default rules, the Tikhonov ladder M + delta I with
//      delta = {1e-12, 1e-10, 1e-8, 1e-6} * |M|_inf, M the equilibrated
//      problem below, recording SolverResult::regularization_level (1..4),
//      each rung polished as in 3. Residuals are always those of the ORIGINAL
//      problem; Solved only when they meet the tolerance, and z is the best
//      point seen otherwise. Of 185 problems that failed in two 16-cube
//      piles, the second rules solve 140 (lemke.cpp).
// Scaling: pivoting runs on M = D A D / alpha, q = D b / (alpha beta) with
// D_i = A_ii^-1/2 (rows with a positive diagonal; slip rows get the geometric
// mean of their row and column sizes), alpha = max |DAD|, beta making
// |q|_inf = 1. This keeps bodies of very different masses comparable; the
// covering vector (ones for M) is D^-1 1 for A. Pivot limit: 10 n + 10 unless
// SolverOptions::max_iterations is set.
// A ray ends with Infeasible only when a Farkas certificate is checked on the
// original data: y >= 0 with A'y <= 0 and b'y < 0 (then y'(Az + b) < 0 for
// every z >= 0, so no feasible z exists). Lemke's ray supplies such a y when A
// is copositive-plus (Cottle-Pang-Stone thm 4.4.13); a row i with b_i < 0 and
// A_i <= 0 is the certificate y = e_i. Otherwise the status is RayTermination.
// Free (bilateral) rows of an MLCP: eliminated first (thesis eqs. 2.37-2.38,
// solvers/free_rows.hpp): Lemke solves the Schur complement's pure LCP on the
// NonNegative rows (warm-started from z's NonNegative entries), the Free rows'
// impulses follow from their equations, and the residuals are measured on the
// whole MLCP. A singular A_FF (redundant joints) drops its dependent Free rows
// (z = 0 there); the residual check says whether that was consistent.
// A problem given by its structure only (A = G' M^-1 G + C not formed; the
// formulation skips it when Lemke heads the chain): steps 1 and 2 run on the
// structure (solve_on_structure: A_JJ, columns and products summed from G,
// M^-1 and C, structured_matrix.hpp), and A is assembled only for a step
// whose warm start misses. At rest on box-stack-3d (n = 360, |J| ~ 22) that
// skips the O(n^2) fill, check, scaling and products of every step.
#pragma once

#include "solvers/lcp.hpp"
#include "solvers/lemke_active_set.hpp"
#include "solvers/structured_matrix.hpp"

#include <cstdint>

namespace pegsim {

class LemkeSolver final : public LcpSolver {
 public:
  // perturbation_seed: of the pseudo-random tie-breaking perturbation
  // (lemke_pivoting.cpp); any seed gives a valid method, tests vary it.
  explicit LemkeSolver(const SolverOptions& options, std::uint64_t perturbation_seed = 0)
      : options_(options), perturbation_seed_(perturbation_seed) {}
  std::string_view name() const override { return "lemke"; }
  SolverResult solve(const LcpProblem& problem, VecX& z) override;
  // The shortcut z = 0 and the warm start (steps 1 and 2 of lemke.hpp) on
  // A = G' M^-1 G + C read from the structure (solvers/structured_matrix.hpp):
  // true when they solve the problem, which at rest is almost every step.
  bool warm_starts_on_structure() const override { return true; }
  bool solve_on_structure(const LcpProblem& problem, VecX& z, SolverResult& result) override;

  // Pivot limit when SolverOptions::max_iterations is 0. Lemke needs about
  // n / 10 .. 2 n pivots here; the tie tolerance of the ratio test (a Harris-
  // type step) gives up the lexicographic rule's guarantee against cycling,
  // and the limit bounds what a cycle costs.
  static int default_pivot_limit(int n) { return 10 * n + 10; }

 private:
  SolverResult solve_mixed(const LcpProblem& problem, VecX& z);
  SolverOptions options_;
  std::uint64_t perturbation_seed_;
  solver_detail::StructuredMatrix structured_;  // solve_on_structure's view of A, storage kept
  VecX scaling_;                                // its equilibration D
  lemke_detail::RefineWorkspace refine_;        // the warm start's and the polish's storage, kept
  LcpProblem dense_;  // a structure-only problem given to solve() with A assembled (the chain assembles in place)
};

}  // namespace pegsim
