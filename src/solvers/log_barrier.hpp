// The logarithmic barrier method (Boyd & Vandenberghe, "Convex Optimization",
// ch. 11, Algorithm 11.1) for a convex quadratic objective under convex
// quadratic (or linear) inequality constraints:
//   minimize  f0(y) = y'U y + v'y   subject to  f_i(y) = y'H_i y + g_i'y + c_i <= 0,
// as the convex-optimization impulse model's phase 2 needs it (reference 000,
// section 3.2, l.133-141: "logarithmic barrier method", Newton steps whose
// length is found by Brent's method).
//
// Centering: minimize  t f0(y) - sum_i log(-f_i(y))  by Newton's method,
//   dy = -[grad^2]^-1 grad   (000 l.137; LDL' with a Tikhonov term of 1e-12
//   of the Hessian's largest diagonal when it is singular, guide A.4),
// the step length alpha = argmin over (0, 0.99 alpha_max] of the barrier
// along dy by Brent's method (Brent 1973, ch. 5: golden section with
// parabolic interpolation, derivative free; 000 ref. [7]), alpha_max the
// first root of any f_i along the line (each f_i is quadratic in alpha), so
// every iterate is strictly feasible. A centering ends when the Newton
// decrement lambda^2 / 2 <= newton_tolerance (scaled), or after
// max_newton_steps.
// Outer loop: t <- growth t until the duality-gap bound m / t (m constraints)
// is below gap_tolerance: the result is then gap_tolerance-suboptimal
// (Boyd & Vandenberghe eq. 11.13). The start y0 must be strictly feasible.
// The feasible set must be convex where the iterates go: a second-order cone
// written as ||x_T||^2 - mu^2 x_N^2 <= 0 is, on the nappe x_N > 0 the start
// lies in, and the barrier never lets an iterate cross the apex.
#pragma once

#include "math/types.hpp"

#include <vector>

namespace pegsim {

struct QuadraticConstraint {
  MatX H;        // empty (0 x 0): linear
  VecX g;
  double c = 0.0;
  double value(const VecX& y) const;
};

struct BarrierOptions {
  double t0 = 1.0;            // initial t, times 1 / max(|f0 scale|)
  double growth = 10.0;       // mu of Boyd & Vandenberghe 11.3.1
  double gap_tolerance = 1e-12;
  double newton_tolerance = 1e-14;
  int max_newton_steps = 50;  // per centering
  int max_outer = 40;
};

struct BarrierResult {
  VecX y;
  bool converged = false;   // gap bound reached with every centering converged or within its cap
  int newton_steps = 0;     // total
  int outer_iterations = 0;
  double gap_bound = 0.0;   // m / t at the end: the suboptimality bound
  double objective = 0.0;   // f0(y)
  double max_constraint = 0.0;  // max_i f_i(y) (< 0: strictly feasible)
};

BarrierResult minimize_log_barrier(const MatX& U, const VecX& v, const std::vector<QuadraticConstraint>& constraints,
                                   const VecX& y0, const BarrierOptions& options);

// Brent's derivative-free minimization of f on [a, b] to a relative tolerance
// (Brent 1973, ch. 5); returns the abscissa. Exposed for the tests.
template <class F>
double brent_minimize(F&& f, double a, double b, double tolerance, int max_iterations);

}  // namespace pegsim

#include "solvers/log_barrier_brent.hpp"
