// The convex-optimization impulse model of Drumwright & Shell, "A robust and
// tractable contact model for dynamic robotic simulation" (reference 000,
// section 3; reading guide shared/notes/drumwright-shell.md, Part A), on the
// contact-space matrices alone: with G the 3n x m stack [N; S_1; T_1; S_2;
// T_2; ...] (the paper's ordering, l.76-80, fixed by the indices of f_i),
//   A = G P G' = [A_N B; B' A_T],   b = G v = [b_N; b_T]           (l.76-80)
// (P = M^-1 without joint rows), every contact approaching or at rest (b_N <= 0).
//
// Phase 1, eq. (1): A_N w- = -b_N by the SVD pseudo-inverse (minimum norm,
// singular values below 1e-12 of the largest dropped), w_s = (1 + e) w-,
// w = [w_s; 0]: post-impulse normal velocities u_N = -e b_N (Newton's law).
// Phase 2, eq. (2) and l.123: x = w + R y with R a basis of null(C), C = [A_N B]
// (the normal rows of A; guide A.4 "use C"), so C x = C w: the normal
// velocities stay those of phase 1. Over y,
//   minimize   f0(y) = y'U y + v'y,   U = R'D'D R,   v = 2 R'D'(D w + b_T)  (D = [B' A_T]; guide A.9-3)
//   subject to f_i(y) = (r_{n+2i-1}'y)^2 + (r_{n+2i}'y)^2 - mu_i^2 (w_i + r_i'y)^2 <= 0   (the cone)
//              g(y)   = (2 w_s + R_N y)'(R_N y) <= 0,   i.e. ||x_N|| <= ||w_s||      (l.100-102)
// by the log-barrier method (solvers/log_barrier.hpp; 000 l.133-141). The
// pyramid variant replaces f_i by the four faces +-x_s +-x_t <= mu_i x_N.
// Choices the paper leaves open (guide A.4, A.9), made here:
//   - contacts with mu_i = 0, or whose phase-1 impulse w_i is not positive
//     (the pseudo-inverse can give adhesive impulses, guide A.9-2: counted in
//     negative_normals), get no tangential impulse: R is restricted to x_T,i = 0;
//     mu_i = infinity: no cone;
//   - when R_N' w_s = 0 on the search space, g <= 0 forces R_N y = 0: R is
//     restricted to null(R_N) and g dropped (the normals are fixed, e.g. one
//     sphere on a plane); otherwise the strictly feasible start is
//     y0 = -s R_N' w_s, s halved from g's minimiser along that line until
//     every f_i < 0 (f_i(0) = -mu_i^2 w_i^2 < 0);
//   - ||x_N|| <= kappa ||w_s|| with kappa = ConvexImpulseInput::normal_bound
//     (1: the paper; see there);
//   - the barrier stops at a duality-gap bound of 1e-12 (1 + |b|^2) (m/s)^2:
//     the tangential kinetic objective is that close to its optimum.
#pragma once

#include "math/types.hpp"

namespace pegsim {

struct ConvexImpulseInput {
  MatX A;  // 3n x 3n
  VecX b;  // 3n
  VecX mu; // n (infinity: no cone)
  double restitution = 0.0;
  bool circular_cone = true;
  // kappa of ||x_N|| <= kappa ||w_s||: 1 is the paper's g (l.100-102). With
  // kappa = 1 and w_s the minimum-norm solution, every redistribution of the
  // normal impulses that C x = C w allows is orthogonal to w_s when the
  // contacts are symmetric (a box's four corners), so g forbids it: friction
  // that needs a different normal split (the moment of friction below the
  // centre of mass) is impossible, and a box on an incline slides whatever
  // mu (tests/sim/convex_impulse_test.cpp). kappa > 1 is a deviation that
  // allows it (y = 0 is then strictly inside g).
  double normal_bound = 1.0;
};

struct ConvexImpulseResult {
  VecX x;                        // [x_N (n); x_s1, x_t1, ... (2n)]
  VecX w_s;                      // phase-1 normal impulses
  int negative_normals = 0;      // contacts with w_i < 0 (A.9-2)
  int newton_steps = 0;
  bool converged = true;         // the barrier reached its gap bound (true when phase 2 had nothing to do)
  double gap_bound = 0.0;
  int search_dimension = 0;      // columns of R after the restrictions
  double tangential_start = 0.0; // ||D w + b_T||: the post-phase-1 tangential velocity
  double tangential = 0.0;       // ||D x + b_T||
  double restitution_residual = 0.0;  // max_i |u_N,i + e b_N,i|
  double cone_violation = 0.0;   // max_i ||x_T,i|| - mu_i x_N,i (pyramid: |x_s| + |x_t| - mu x_N), clamped at 0
  double normal_norm_excess = 0.0;    // max(0, ||x_N|| - ||w_s||)
};

void solve_convex_impulse(const ConvexImpulseInput& in, ConvexImpulseResult& out);

}  // namespace pegsim
