// The complementary pivoting core of Lemke's method (internal to the solvers
// stage; lemke.cpp wraps it with shortcuts, regularisation and certificates).
//
// Tableau (Cottle-Pang-Stone, "The Linear Complementarity Problem", 4.4):
//   w - M z - c z0 = q,   w, z, z0 >= 0,   w_i z_i = 0,
// with covering vector c = ones. Starting from the basis of all w, z0 enters
// at the level that makes q + c z0 >= 0; then the complement of each leaving
// variable enters, until z0 leaves (a solution) or an entering column has no
// blocking row (a secondary ray).
#pragma once

#include "math/types.hpp"
#include "solvers/lcp.hpp"  // SolveDeadline

#include <cstdint>
#include <string>
#include <vector>

namespace pegsim::lemke_detail {

enum class PivotOutcome { Solution, Ray, PivotLimit, NumericalTrouble };

struct PivotRun {
  PivotOutcome outcome = PivotOutcome::NumericalTrouble;
  int pivots = 0;
  VecX z;                   // Solution: the basic solution (z0 = 0)
  VecX ray;                 // Ray: the z part of the unbounded edge's direction
  std::vector<int> active;  // the z variables basic at the end: a guess of the active set
  std::string message;
};

// M = scale * D A D + shift I, read a column at a time (never formed: at
// n = 360 a copy of A costs as much as the pivoting).
struct ScaledMatrix {
  const MatX& A;
  const VecX& D;
  double scale = 1.0;
  double shift = 0.0;

  int size() const { return static_cast<int>(A.rows()); }
  // out = -M e_j
  void negated_column(int j, VecX& out) const {
    out.noalias() = A.col(j).cwiseProduct(D) * (-scale * D(j));
    out(j) -= shift;
  }
};

// Tolerances of the ratio test (lemke_pivoting.cpp explains them). M and q
// should be scaled to entries of order one: the tolerances are relative to the
// largest |d_i| and |qbar_i| but at least to one.
struct PivotRules {
  double pivot = 1e-9;         // d_i <= pivot * max(1, |d|_inf) is no pivot
  double tie = 1e-7;           // ratios <= (1 + tie) theta + tie_absolute tie with the least, theta
  double tie_absolute = 1e-12;
  double degenerate = 1e-12;   // qbar_i <= degenerate * max(1, |qbar|_inf) is a degenerate zero
  std::uint64_t seed = 0;      // of the tie-breaking perturbation r
  const SolveDeadline* deadline = nullptr;  // SolverOptions::time_budget: a path past it ends at the pivot limit

  // For small, well-conditioned problems (contact blocks): the textbook tests
  // at rounding level, exact up to rounding.
  static PivotRules strict() { return {1e-11, 1e-12, 1e-12, 0.0, 0, nullptr}; }

  // For problems whose rows are mostly dependent (a pile: a few bodies under
  // hundreds of rows), the second path of lemke.cpp when the first fails:
  // a larger pivot tolerance (an entry of d that is zero in exact arithmetic
  // comes out as rounding of the size of |B^-1| eps, and taken as a pivot it
  // makes the basis singular) and a larger absolute tie (at a degenerate
  // vertex the lexicographic rule then chooses among all the rows that block
  // there, not only the row whose rounding made it block first). Chosen on
  // the problems of tumbling-cube piles, lemke.cpp.
  static PivotRules dependent_rows() { return {1e-8, 1e-9, 1e-10, 1e-12, 0, nullptr}; }
};

PivotRun complementary_pivoting(const ScaledMatrix& M, const VecX& q, const PivotRules& rules,
                               int max_pivots);

// The tableau's storage, kept between paths by a caller that pivots many
// times (the contact-block sweeps: thousands of small paths a step), so that a
// path of a size seen before allocates nothing. Its contents carry nothing
// from one path to the next: a path gives the same result with a fresh one.
struct PivotWorkspace {
  MatX binv;
  VecX qbar, pbar, d, a;
  std::vector<int> basis, row_of, dense, dense_slot, store, free, ties;
};

// As above, into `run` (reset first), with the tableau in `workspace`.
void complementary_pivoting(const ScaledMatrix& M, const VecX& q, const PivotRules& rules, int max_pivots,
                            PivotWorkspace& workspace, PivotRun& run);

}  // namespace pegsim::lemke_detail
