// "path": a PATH-like solver for the (mixed) LCP, for the PEG formulation
// whose matrices are not copositive (thesis 4.8: Lemke's method may end on a
// secondary ray there; the thesis used PATH, ch. 5).
//
// PATH (Dirkse & Ferris 1995, Optim. Methods Softw. 5; Ferris & Munson 1999,
// Comput. Optim. Appl. 12) finds a starting active set by a crash technique,
// then runs a stabilised Newton method: each step follows a piecewise-linear
// path of the linearised problem computed by pivoting, accepted by a
// nonmonotone line search with a watchdog. This solver keeps that
// architecture and replaces the path search by a nonsmooth Newton step:
//   1. start: newton_detail::starting_point (the warm start, or z = 0);
//      within the target already: Solved, 0 iterations.
//   2. crash (PATH offers a projected Newton crash, option crash_method
//      pnewton): at most kCrashSteps active-set steps. J = the Free rows and
//      the rows with z_i > w_i (scaled as in nonsmooth_newton.hpp); z_J solves
//      A_JJ z_J = -b_J, z = 0 off J, then z_J is projected onto z >= 0 on
//      NonNegative rows. A step is kept while it lowers the Fischer-Burmeister
//      merit; the crash ends when J repeats. From a warm start whose active
//      set is still right (a resting contact) this is the solution at once.
//   3. Newton on the Fischer-Burmeister reformulation (nonsmooth_newton.hpp)
//      with the nonmonotone line search over the last kMemory merits, the
//      watchdog after kWatchdog iterations without a new least merit, and a
//      stop after kStall iterations without a 10% smaller residual or at the
//      iteration limit (SolverOptions::max_iterations, default
//      kDefaultMaxIterations).
//   4. fall back: when 3 ends outside the threshold, Lemke's method
//      (make_solver("lemke", options)) from the best point so far: Lemke's
//      warm start first solves the active set of that point's support
//      (lemke.hpp, step 2), then pivots if it must. With Free rows, Lemke runs
//      on the Schur complement of the Free block (free_rows.hpp; dependent
//      Free rows of redundant joints are dropped there).
//   5. restart: when 4 does not end within the threshold either and Lemke
//      did not certify infeasibility, the monotone Newton method of
//      "fischer-newton" from z = 0, without the crash (PATH, too, restarts
//      with other settings, among them no crash, when a run fails: its
//      option "restart limit", default 3, GAMS/AIMMS PATH 4.x manuals): the
//      crash or the nonmonotone steps can lead the first run to a stationary
//      point of the merit that this one avoids (seen on small random
//      non-copositive problems).
// Result: the point of least residual of 1.-5., Solved when its residuals
// (on the original problem) are within SolverOptions::tolerance (1 + |b|_inf).
// Otherwise Lemke's status (RayTermination, Infeasible with Lemke's Farkas
// certificate, MaxIterations, ...) or, without a fall back, MaxIterations at
// the iteration limit and NumericalFailure when the Newton method stalled.
// SolverOptions::max_iterations caps each phase on its own: the Newton
// iterations of 3 and of 5, and Lemke's pivots (0: each its default).
// Message: empty when the Newton method solved the problem alone; whenever
// Lemke was used it says so and what Lemke gave, also when the problem was
// solved (the one exception to "empty when Solved" of lcp.hpp); when Lemke
// could not be used, it says why.
// Iterations: crash steps + Newton iterations (3 and 5) + Lemke's (pivots and
// active-set exchanges). Deterministic: no randomness, Lemke with its default seed.
#pragma once

#include "solvers/lcp.hpp"

namespace pegsim {

class PathSolver final : public LcpSolver {
 public:
  explicit PathSolver(const SolverOptions& options) : options_(options) {}
  std::string_view name() const override { return "path"; }
  SolverResult solve(const LcpProblem& problem, VecX& z) override;

  static constexpr int kCrashSteps = 8;
  static constexpr int kMemory = 10;
  static constexpr int kWatchdog = 10;
  static constexpr int kStall = 30;
  static constexpr int kDefaultMaxIterations = 100;

 private:
  SolverOptions options_;
};

}  // namespace pegsim
