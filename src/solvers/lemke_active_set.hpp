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
// Refinement (block principal pivoting, Judice-Pires, with a single-pivot
// fallback): from the point of J, rows of J with z_i < 0 leave, rows off J with
// w_i < 0 enter (friction rows: only the most violated direction of a contact
// per round, as the others are usually fixed by it), and J is solved again;
// the first rounds move every violated row, later rounds only the worst one.
// The best point seen is kept; z is clamped to z >= 0 before it is measured.
#pragma once

#include "solvers/lcp.hpp"

#include <vector>

namespace pegsim::lemke_detail {

// Positive diagonal scaling D for D A D (w' = D w, z = D y keeps the LCP):
// D_i = A_ii^-1/2 on rows with a positive diagonal (unit diagonal after
// scaling; this evens out bodies of very different masses), then on the rest
// (slip rows: A_ss = 0) the geometric mean of the row and column sizes.
VecX equilibration(const MatX& A);

// The support of a warm start z, plus, for a Stewart-Trinkle contact whose slip
// s > 0 but whose friction impulses are all zero (a separating contact that
// slides: p_n = 0), its friction row of least w. That row's w_f = v_f + s = 0
// is the equation that fixes s (eq. 2.21); without it the slip row of A_JJ is
// zero and the system singular.
std::vector<int> guess_active_set(const LcpProblem& p, const VecX& z);

struct Refined {
  VecX z;                  // the best point seen, z >= 0 (zero when none)
  SolverResult residuals;  // its complementarity and feasibility on p
  int solves = 0;          // linear systems solved
  int exchanges = 0;       // rows moved in or out of J (principal pivots)
  bool within = false;     // residuals within the threshold
};

// Solves the system of J and refines J for at most `rounds` systems; stops as
// soon as the residuals are within `threshold` (measured on p itself).
Refined refine_active_set(const LcpProblem& p, const VecX& D, std::vector<int> J,
                          double threshold, int rounds);

}  // namespace pegsim::lemke_detail
