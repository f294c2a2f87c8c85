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
  std::vector<int> coarse_active;  // after a second phase: the first phase's active set
  std::string message;
};

// M (n x n) and q (n) should be scaled to entries of order one: the pivot and
// tie tolerances inside are absolute at that scale.
// q_exact (optional, same size as q): when q is a cleaned version of it, the
// first phase's solution basis is the start of a second phase on q_exact.
PivotRun complementary_pivoting(const MatX& M, const VecX& q, const VecX& q_exact, int max_pivots);

}  // namespace pegsim::lemke_detail
