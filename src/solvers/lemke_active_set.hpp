// Active sets for Lemke's method (internal to the solvers stage): the guess
// from a warm start, the linear system of a set, and its refinement by
// principal pivots. lemke.cpp uses them before pivoting (warm start) and after
// it (polish on the original data).
//
// An active set J is the set of rows whose z may be positive; its point is
//   A_JJ z_J = -b_J,  z_i = 0 off J,
// solved on the equilibrated system D_J A_JJ D_J. Redundant contacts make A_JJ
// singular (four contacts on a box face carry three dofs; n_d friction
// directions span a plane): the partial-pivoting LU then shows a pivot that is
// zero up to rounding for each column that depends on the earlier ones
// (columns keep their order), and those rows leave J. The rest of the system
// is consistent for a solvable problem, and the dropped rows' w come out zero.
//
// Refinement: rows of J with z_i < 0 leave and rows off J with w_i < 0 enter
// (friction rows: only the most violated direction of a contact per round, as
// the others are usually fixed by it), and J is solved again (block principal
// pivoting, Judice-Pires), but only on violations far above the threshold:
// noise-level ones make such pivots chase the noise around the stack. Those
// are left to block Gauss-Seidel sweeps (lemke_sweep.hpp), which start from
// residuals below 1000 thresholds and stop at the target, when three sweeps
// gain less than 5%, or 4 sweeps after the threshold was met (in a box-stack
// run, stopping right at the threshold made 5% of the steps fail, 2 more
// sweeps none: see kTargetShare in lemke.cpp). The best point seen is kept; z
// is clamped to z >= 0 before it is measured.
#pragma once

#include "solvers/lcp.hpp"
#include "solvers/lemke_sweep.hpp"
#include "solvers/structured_matrix.hpp"

#include <Eigen/LU>

#include <string>
#include <vector>

namespace pegsim::lemke_detail {

// Positive diagonal scaling D for D A D (w' = D w, z = D y keeps the LCP):
// D_i = A_ii^-1/2 on rows with a positive diagonal (unit diagonal after
// scaling; this evens out bodies of very different masses), then on the rest
// (slip rows: A_ss = 0) the geometric mean of the row and column sizes.
VecX equilibration(const MatX& A);
// The same into D, with the scratch of the rows without a positive diagonal
// in `row`, `col` and `rest` (kept by callers that scale many small blocks).
void equilibration(const MatX& A, VecX& D, VecX& row, VecX& col, std::vector<int>& rest);

// The support of a warm start z (entries above 1e-9 max z: smaller ones are
// noise-level corrections, not structure), plus, for a Stewart-Trinkle
// contact whose slip s > 0 but whose friction impulses are all zero (a
// separating contact that slides: p_n = 0), its friction row of least w.
// That row's w_f = v_f + s = 0 is the equation that fixes s (eq. 2.21);
// without it the slip row of A_JJ is zero and the system singular.
std::vector<int> guess_active_set(const LcpProblem& p, const VecX& z);

struct Refined {
  VecX z;                  // the best point seen, z >= 0 (zero when none)
  SolverResult residuals;  // its complementarity and feasibility on p
  int solves = 0;          // linear systems solved
  int exchanges = 0;       // rows moved in or out of J (principal pivots)
  int sweeps = 0;          // block Gauss-Seidel sweeps
  bool within = false;     // residuals within the threshold
};

// The storage of the calls below, kept by a solver that refines step after
// step (LemkeSolver): once it has seen a steady step's sizes, the warm start
// allocates little (issue 11 item 5; Eigen reallocates a matrix whose size
// changes). Nothing carries over from one call to the next but J, the set
// the next refinement starts from.
struct RefineWorkspace {
  std::vector<int> J;  // the active set to refine (guess_active_set's answer, or the caller's)
  Refined result;
  // refine's scratch
  std::vector<char> in;
  std::vector<int> enter, moves, keep;
  ContactLayout layout;
  std::string why;
  VecX z, zc, w, pivots, rhs, y;
  MatX S;
  Eigen::PartialPivLU<MatX> lu;
  BlockSweeper<solver_detail::DenseMatrix> dense_sweeper;
  BlockSweeper<solver_detail::StructuredMatrix> structured_sweeper;
};

// guess_active_set into workspace.J.
void guess_active_set(const LcpProblem& p, const VecX& z, RefineWorkspace& workspace);

// Solves the system of workspace.J and refines J for at most `rounds`
// systems, then sweeps at most `sweeps` times; stops as soon as the residuals
// (measured on p itself) are within `target`. Refined::within: the best point
// is within `threshold`. The answer lives in workspace.result.
const Refined& refine_active_set(const LcpProblem& p, const VecX& D, double threshold, double target, int rounds,
                                 int sweeps, RefineWorkspace& workspace);
// The same on the structure (A never formed; D from A.equilibration()).
const Refined& refine_active_set(const solver_detail::StructuredMatrix& A, const VecX& D, double threshold,
                                 double target, int rounds, int sweeps, RefineWorkspace& workspace);

}  // namespace pegsim::lemke_detail
