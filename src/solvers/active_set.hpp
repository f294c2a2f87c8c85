// The fast exact path (issue 11, part 6): an active-set method on the
// factored form A = G' M^-1 G + C (LcpStructure), warm-started from the
// previous step's contact set, meant as the head of the chain
// [active-set, lemke]: it certifies what it can and escalates the rest.
//
// An active set J (rows whose z may be positive; Free rows always belong)
// defines the point
//   A_JJ z_J = -b_J,  z_i = 0 off J,
// and it is the solution when z_J >= 0 and w_i = (A z + b)_i >= 0 off J.
// A_JJ is never formed densely. It is the Schur complement of the augmented
// (saddle-point) system over the bodies J's rows touch,
//   [ I          -M^-1 G_J D ] [u]   [    0    ]
//   [ D R_J'    D C_JJ D + eI ] [y] = [ -D b_J ],   z_J = D y,
// (u: the bodies' velocity change, thesis eq. 2.30; R = G but for PEG's rows
// that measure other sub-contacts, LcpStructure::measures), whose non-zeros are
// 6 per body (the identity) plus 12 per row plus C_JJ: a stack or a pile, where each
// row touches at most two bodies, factorizes in near-linear time with a
// fill-reducing ordering (COLAMD) and sparse LU (Eigen::SparseLU; the
// Stewart-Trinkle E, -E' and U blocks of eq. 6.1 make the system
// nonsymmetric, its slip rows have a zero diagonal, hence LU with pivoting).
// D is the diagonal scaling D_i = A_ii^-1/2 (slip rows: A_nn^1/2 of their
// contact's normal row), as in Lemke's (lemke.hpp).
//
// Redundant contacts (four on a box face carry three dofs) make A_JJ
// singular. The system carries a tiny Tikhonov term e = 1e-10 on the scaled
// diagonal (unit diagonal after scaling), and the point is then refined
// against the exact residual w_J = (A z + b)_J, computed through the
// structure (structure_w): refinement with the regularized factors is
// the proximal-point iteration, which converges to a solution of a
// consistent singular system and leaves at most e |z| after the first step.
// The regularization never certifies anything by itself: acceptance is
// always the residual measured on the full, unregularized problem.
//
// The set is refined by block principal pivoting (Kostreva 1978; Judice and
// Pires 1994, "A block principal pivoting algorithm for large-scale strictly
// monotone linear complementarity problems", Comput. Oper. Res. 21): rows of
// J with z_j < 0 leave, rows off J with w_i < 0 enter, all at once while the
// number of violations falls (or for three rounds after it last fell), then
// one row at a time (the largest index, Murty's rule), or, when the systems
// left cannot remove the violations one at a time, not at all (escalation).
// Entering rows: the most violated one per pair of bodies per round, as the
// redundant rows of a pair (the corners of a face, the directions of a
// friction cone) are usually fixed by it, and entering them together makes
// sets of dependent rows whose equations the data's noise makes inconsistent.
// Only violations above 100 thresholds move rows ("structural", as in
// lemke_active_set.hpp). At rest the data are degenerate at the level of their
// noise (the gap terms of the corners of a face are coplanar to ~1e-12 m):
// the noise-level violations left are removed by four block Gauss-Seidel
// sweeps with exact contact blocks on the structure (the "pgs" solver's
// velocity engine, pgs.hpp) aiming at Lemke's polish target. Accepting them
// at the threshold instead lets them grow step by step through b (a contact
// that approaches at 1e-10 m/s is 5e-13 m closer in the next step's gap
// term): in the box-stack-3d run, the residual rose by ~2e-10 a step until
// the set failed every fifth step.
//
// The guess from the warm start is lemke_detail::guess_active_set's: the
// support of z (entries above 1e-9 max z), plus, for a contact that slides
// (s > 0) with all friction impulses zero, its friction row of least w (the
// equation that fixes s). Without a warm start (z = 0) the guess is the
// non-friction rows with b_i < -100 thresholds.
//
// Result: Solved only when the clamped point (z >= 0) has residuals within
// SolverOptions::tolerance (scaled by 1 + |b|_inf) on the full problem,
// measured through the structure (structure_w, never the dense A); it aims
// at Lemke's polish target min(1e-3 threshold, 1e-13 (1 + |b|_inf)) with at
// most three refinement steps per set. Otherwise MaxIterations after at most
// max_iterations linear systems (default 12), z the best clamped point seen,
// for the chain's next solver to start from. Unsupported: a problem without
// the structure (unless its warm start already solves it), and PEG problems
// (RowRole::PegSlack rows, thesis 4.7): the world warm-starts only impulses,
// and the slack rows' sets, together with the X-constraints' carrier
// switching (formulation F2), made the pivots cycle on the pyramid-10 scene
// (docs/solvers.md); the chain's next solver takes them at no extra cost.
#pragma once

#include "solvers/lcp.hpp"

#include <memory>
#include <vector>

namespace pegsim {

class ActiveSetSolver final : public LcpSolver {
 public:
  explicit ActiveSetSolver(const SolverOptions& options);
  std::string_view name() const override { return "active-set"; }
  SolverResult solve(const LcpProblem& problem, VecX& z) override;
  bool needs_matrix() const override { return false; }

 private:
  SolverOptions options_;
  std::unique_ptr<LcpSolver> sweeps_;  // the polish: "pgs", its workspace kept from call to call
};

namespace active_set_detail {

// The diagonal of A = G' M^-1 G + C from the structure, O(n + nnz(C)).
VecX structure_diagonal(const LcpProblem& p);

// The scaling D of the header comment.
VecX row_scaling(const LcpProblem& p, const ContactLayout& layout, const VecX& diagonal);

// The reduced system of one active set, factorized. solve() maps the scaled
// right-hand side -D_J r_J (r: a residual on all n rows) to the correction of
// z on J (z_J += D_J y). False when the factorization failed.
class ReducedSystem {
 public:
  bool factorize(const LcpProblem& p, const VecX& D, const std::vector<int>& J, double regularization);
  // dz (size n, zero off J) with A_JJ dz_J ~ -r_J
  bool correction(const VecX& r, VecX& dz) const;
  int nonzeros() const { return nonzeros_; }

 private:
  struct Impl;
  std::shared_ptr<Impl> impl_;
  int nonzeros_ = 0;
};

}  // namespace active_set_detail
}  // namespace pegsim
