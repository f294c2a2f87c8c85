// The nonsmooth Newton core shared by "fischer-newton", "minmap-newton"
// (newton_solvers.hpp) and "path" (path.hpp). Internal to the solvers stage.
//
// Reformulation. The (mixed) LCP of lcp.hpp is the square nonsmooth system
// Phi(z) = 0, row by row with w = A z + b:
//   Fischer-Burmeister (Fischer 1992, Optimization 24; Facchinei & Pang 2003,
//   "Finite-Dimensional Variational Inequalities and Complementarity
//   Problems", ch. 9):
//     NonNegative rows  Phi_i = phi(z_i, w_i),  phi(a, b) = a + b - sqrt(a^2 + b^2),
//     Free rows         Phi_i = w_i;
//   phi(a, b) = 0 exactly when a >= 0, b >= 0, ab = 0. Evaluated without
//   cancellation as 2ab / (a + b + r) when a + b > 0 (Munson, Facchinei,
//   Ferris, Fischer & Kanzow 2001, INFORMS J. Comput. 13).
//   min-map (Pang 1990, Math. Oper. Res. 15; as an active-set method:
//   Hintermueller, Ito & Kunisch 2002, SIAM J. Optim. 13):
//     NonNegative rows  Phi_i = min(z_i, w_i),   Free rows  Phi_i = w_i.
// Generalized Jacobian: one element H of the (B- or Clarke) generalized
// Jacobian, row by row H_i = da_i e_i' + db_i A_i:
//   FB:  (da, db) = (1 - a / r, 1 - b / r), r = sqrt(a^2 + b^2) > 0; at the
//        kink a = b = 0 the standard choice (1 - 1/sqrt 2, 1 - 1/sqrt 2), the
//        element of the Clarke gradient {(1 - x, 1 - y) : x^2 + y^2 <= 1} for
//        the direction (1, 1) (De Luca, Facchinei & Kanzow 1996, Math.
//        Program. 75, sec. 3: any element of that set keeps the method's
//        convergence properties);
//   min: (1, 0) where z_i <= w_i (z_i = 0 is the equation), else (0, 1);
//   Free rows: (0, 1).
// Merit: psi = 1/2 |Phi|^2. For FB it is continuously differentiable with
// gradient H' Phi (De Luca-Facchinei-Kanzow 1996, sec. 3); for the min-map
// H' Phi is used as the (generalized) gradient.
//
// One iteration (the semismooth Newton method of De Luca-Facchinei-Kanzow
// 1996, sec. 3, with the safeguards below):
//   1. Directions. First, Newton: H d = -Phi.
//      FB: with H replaced by the Jacobian H_mu of the smoothed function
//      phi_mu(a, b) = a + b - sqrt(a^2 + b^2 + 2 mu^2) while Phi stays
//      unsmoothed (the Jacobian smoothing method of Kanzow & Pieper 1999,
//      SIAM J. Optim. 9), mu = kSmoothing |Phi|_2 / sqrt(2n), so that
//      |Phi - Phi_mu| <= sqrt(2n) mu = kSmoothing |Phi|; mu -> 0 with Phi and
//      the fast local convergence stays. Why: contact problems at rest are
//      degenerate (the captured stack3d steps: 316 of 360 rows with z_i and
//      w_i both ~0, a non-isolated solution set), and the plain FB Jacobian
//      flips between e_i and A_i near the kink of every such row: plain
//      Newton stalled there at residuals ~2e-4 after 100 iterations, the
//      smoothed one solves them in 10-12 (kSmoothing from 0.01 to 1 alike).
//      Rows with db_i = 0 exactly (FB: z_i = 0 and w_i >> mu; min: z_i <=
//      w_i) decouple, d_i = -Phi_i / da_i, and the rest is solved as one
//      smaller system (the same d, cheaper; for the min-map this is the
//      active-set system A_JJ d_J = -w_J - A_JI d_I). LU with partial
//      pivoting; when its rcond estimate is below 1e-12 (redundant contacts
//      make H singular): for the min-map, the dependent rows (LU pivots below
//      1e-10) leave J with d_i = -z_i, as Lemke's active-set polish drops
//      them (lemke_active_set.hpp); then, or for FB, the basic solution of
//      solve_basic below. Second, the Levenberg-Marquardt direction
//      (H'H + mu I) d = -H' Phi with mu = |H|^2 min(1, |Phi|_2) (Fan & Yuan
//      2005, Computing 74: mu ~ |F|^delta, delta = 1). Third, the
//      steepest-descent direction -grad, scaled to the minimiser of the
//      merit's Gauss-Newton model along it.
//   2. Each direction in turn must pass the descent test grad'd <= -rho |d|^p,
//      rho = 1e-8, p = 2.1 (the test and the values of DFK 1996; grad = H'Phi
//      with the unsmoothed H; steepest descent: grad'd < 0) and the line
//      search 3; the first that passes makes the step.
//   3. Armijo backtracking psi(y + t d) <= R + sigma t grad'd, sigma = 1e-4,
//      t = 1, 1/2, 1/4, ... (at most kMaxHalvings). R is psi at the current
//      point (monotone), or the largest of the last `memory` accepted merits
//      (the nonmonotone rule of Grippo, Lampariello & Lucidi 1986, SIAM J.
//      Numer. Anal. 23, as PATH uses it: Dirkse & Ferris 1995, Optim. Methods
//      Softw. 5; Ferris & Munson 1999, Comput. Optim. Appl. 12).
//   4. Watchdog (Chamberlain, Powell, Lemarechal & Pedersen 1982, Math.
//      Program. Study 16; PATH's nonmonotone stabilization): when `watchdog`
//      iterations pass without a new least merit, the iterate returns to the
//      point of least merit and the memory restarts there (so the next step
//      from it is monotone).
// Scaling: the method runs on y = D^-1 z, v = D w = (D A D) y + D b with D of
// lemke_detail::equilibration (A_ii^-1/2): the complementarity of (y_i, v_i)
// is that of (z_i, w_i), and rows of bodies of very different masses weigh
// alike in the merit. Residuals (SolverResult) are always those of z on the
// original problem, measured on w = A z + b recomputed from scratch at every
// accepted iterate.
// Stopping: at a residual within `target`; once within `threshold`, after
// `extra_iterations` more towards the target; at max_iterations; when `stall`
// iterations give no residual 10% below the best; when no direction passes 2.
// The result is the point of least residual seen (z clamped at 0 on
// NonNegative rows when that does not make it worse).
#pragma once

#include "solvers/lcp.hpp"

#include <cstdint>
#include <vector>

namespace pegsim::newton_detail {

enum class Reformulation : std::uint8_t { FischerBurmeister, MinMap };

// The problem in the scaled variables (see above), with its thresholds.
struct ScaledProblem {
  const LcpProblem* original = nullptr;
  VecX D;                  // z = D y
  MatX M;                  // D A D
  VecX q;                  // D b
  std::vector<char> free;  // per row: Free (1) or NonNegative (0)
  double threshold = 0.0;  // residual_threshold(original, tolerance)
  double target = 0.0;     // where the iteration stops (<= threshold)
};

// Builds the scaled problem. target: see lemke.cpp (residuals left near the
// threshold come back as noise in the next step's b): min(1e-3 threshold,
// 1e-13 (1 + |b|_inf)).
ScaledProblem scale_problem(const LcpProblem& p, double tolerance);

// Phi at (y, v) for a reformulation; returns the merit 1/2 |Phi|^2.
double evaluate(const ScaledProblem& s, Reformulation r, const VecX& y, const VecX& v, VecX& phi);

// Solves S x = rhs: LU with partial pivoting when its reciprocal condition
// estimate is at least 1e-12; otherwise a basic solution by LU with complete
// pivoting, pivots below 1e-10 of the largest counting as zero: the columns
// beyond the rank get x = 0 and the rows beyond it are dropped, so a
// consistent singular system (redundant contacts: four on a box face carry
// three dofs; n_d friction directions span a plane) is solved exactly, as
// Lemke's active-set polish does by dropping dependent rows
// (lemke_active_set.hpp). False when no finite x comes out.
bool solve_basic(const MatX& S, const VecX& rhs, VecX& x);

// The active-set point of (y, v), path's crash step (path.hpp): J = the Free rows and the rows with y_i > v_i (the equations
// w_i = 0 the min-map picks), y_J from M_JJ y_J = -q_J (solve_basic), y = 0
// off J, then y_J clamped at 0 on NonNegative rows; v_new = M y_new + q.
// `active` (optional) receives J. False when no finite point comes out.
bool active_set_point(const ScaledProblem& s, const VecX& y, const VecX& v, VecX& y_new, VecX& v_new,
                      std::vector<int>* active = nullptr);

// z clamped at 0 on NonNegative rows.
VecX clamp_bounded(const ScaledProblem& s, const VecX& z);

// The starting point of every method here: the warm start (clamped at 0 on
// NonNegative rows), or z = 0 when the warm start is not a finite vector of
// the problem's size or leaves a larger residual (after an impact, last
// step's impulses can be far off). `residuals` receives its residuals.
VecX starting_point(const ScaledProblem& s, const VecX& warm, SolverResult& residuals);

struct NewtonSettings {
  Reformulation reformulation = Reformulation::FischerBurmeister;
  int max_iterations = 100;
  int memory = 1;    // nonmonotone reference over the last `memory` merits; 1: monotone Armijo
  int watchdog = 0;  // iterations without a new least merit before returning to it; 0: never
  int stall = 0;     // iterations without a new least residual before stopping; 0: never
  int extra_iterations = 1;  // once within the threshold, at most this many more towards the target
  const SolveDeadline* deadline = nullptr;  // SolverOptions::time_budget; nullptr: none
};

enum class NewtonStop : std::uint8_t {
  Converged,      // within the target, or within the threshold and no closer after extra iterations
  MaxIterations,  // at the iteration limit
  TimeBudget,     // SolverOptions::time_budget spent
  Stalled,        // `stall` iterations without progress
  NoDescent,      // no direction gives a decrease of the merit (a stationary point of it)
};

struct NewtonRun {
  VecX z;                   // the point of least residual seen
  SolverResult residuals;   // its residuals on the original problem
  NewtonStop stop = NewtonStop::NoDescent;
  int iterations = 0;       // directions computed
  int gradient_steps = 0;   // of which steepest descent
  int damped_steps = 0;     // of which Levenberg-Marquardt
  int watchdog_returns = 0;
  bool within = false;      // residuals within the threshold
};

// Runs the method from z0 (any finite point of the problem's size).
NewtonRun nonsmooth_newton(const ScaledProblem& s, const VecX& z0, const NewtonSettings& settings);

// Residuals of z on the original problem (w = A z + b from scratch).
SolverResult measure(const ScaledProblem& s, const VecX& z);

const char* to_string(NewtonStop stop);

}  // namespace pegsim::newton_detail
