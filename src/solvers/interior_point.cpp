// Primal-dual interior point method for the monotone LCP: the infeasible
// path-following method of Kojima, Megiddo and Mizuno (Kojima et al., "A
// unified approach to interior point algorithms for linear complementarity
// problems", LNCS 538, 1991) with Mehrotra's predictor-corrector (Mehrotra,
// SIAM J. Optim. 2(4), 1992, eqs. for sigma = (mu_aff / mu)^3); the
// "Interior-point" row of the thesis's solver table (Table 6.2).
//
// Free rows are eliminated first (free_rows.hpp, as thesis eqs. 2.37-2.38 do
// for bilateral rows); the rest is the LCP  w = M z + q, z, w >= 0, z'w = 0.
// Iterates z, w > 0 follow the central path z_i w_i = mu. Newton step on
//   r = w - M z - q = 0,   Z W e = sigma mu e:
//   (M + Z^-1 W) dz = Z^-1 rc + r,   dw = M dz - r,
// where M + Z^-1 W is non-singular when M is monotone (M + M' PSD), as for
// Stewart-Trinkle's eq. 6.1 matrix. One step length for z and w (they share
// r), 0.995 of the way to the boundary.
// Finish: once mu is small, each iterate's active-set guess J = {z_i > w_i}
// is solved exactly (M_JJ z_J = -q_J, LU) and kept when its residual is
// within the tolerance: an interior iterate alone reaches 1e-10 only slowly.
// Not monotone (PEG's problems): the step may stall or M + Z^-1 W become
// singular; reported as MaxIterations or NumericalFailure, never Solved
// without the residual check on the original problem. Default 100 iterations.
// Warm start: an interior method cannot reuse a boundary point; a z that
// already solves the problem is returned with 0 iterations.
#include "solvers/free_rows.hpp"
#include "solvers/solver_common.hpp"

#include <Eigen/LU>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

namespace pegsim {
namespace {

constexpr double kToBoundary = 0.995;
constexpr double kPolishBelow = 1e-4;  // mu (relative to the start) from which the active set is tried

// The largest alpha in (0, 1] keeping x + alpha dx >= 0.
double step_to_boundary(const VecX& x, const VecX& dx) {
  double alpha = 1.0;
  for (int i = 0; i < x.size(); ++i)
    if (dx(i) < 0.0) alpha = std::min(alpha, -x(i) / dx(i));
  return alpha;
}

class InteriorPointSolver final : public LcpSolver {
 public:
  explicit InteriorPointSolver(const SolverOptions& options) : options_(options) {}
  std::string_view name() const override { return "interior-point"; }
  SolverResult solve(const LcpProblem& problem, VecX& z) override;
  static constexpr int kDefaultMaxIterations = 100;

 private:
  SolverOptions options_;
};

SolverResult InteriorPointSolver::solve(const LcpProblem& problem, VecX& z) {
  const solver_detail::Stopwatch clock;
  SolverResult result;
  auto finish = [&](SolverStatus s, std::string message) {
    return solver_detail::finish(result, clock, s, std::move(message));
  };
  if (!solver_detail::check_problem(problem, "interior-point", result)) return finish(result.status, result.message);
  const int n = problem.size();
  if (z.size() != n || !z.allFinite()) z = VecX::Zero(n);
  if (n == 0) return finish(SolverStatus::Solved, {});
  measure_residuals(problem, z, result);
  if (solver_detail::within_tolerance(problem, result, options_.tolerance)) return finish(SolverStatus::Solved, {});

  const solver_detail::FreeRowElimination elim = solver_detail::eliminate_free_rows(problem);
  if (!elim.ok()) return finish(SolverStatus::Unsupported, "interior-point: " + elim.issue);
  const MatX& M = elim.reduced.A;
  const VecX& q = elim.reduced.b;
  const int m = static_cast<int>(q.size());
  // z on every row from z_N, kept when its residual on the original problem passes
  auto accept = [&](const VecX& z_bounded) {
    const VecX full = elim.expand(z_bounded);
    SolverResult trial;
    measure_residuals(problem, full, trial);
    if (!solver_detail::within_tolerance(problem, trial, options_.tolerance)) return false;
    z = full;
    result.complementarity = trial.complementarity;
    result.feasibility = trial.feasibility;
    return true;
  };
  if (m == 0) {
    if (accept(VecX::Zero(0))) return finish(SolverStatus::Solved, {});
    return finish(SolverStatus::NumericalFailure, "interior-point: the Free rows' solution fails the residual test");
  }

  const double scale = std::max(1.0, std::sqrt(q.cwiseAbs().maxCoeff()));
  VecX x = VecX::Constant(m, scale), w = VecX::Constant(m, scale);
  const double mu0 = x.dot(w) / m;
  const int max_iterations = options_.max_iterations > 0 ? options_.max_iterations : kDefaultMaxIterations;
  Eigen::PartialPivLU<MatX> lu;
  MatX K(m, m);
  VecX r(m), rc(m), dx(m), dw(m), dx_aff(m), dw_aff(m), x_polish(m);
  std::vector<int> active;
  const SolveDeadline deadline(options_);
  for (int k = 1; k <= max_iterations; ++k) {
    if (deadline.expired()) {
      z = elim.expand(x);
      measure_residuals(problem, z, result);
      return finish(SolverStatus::MaxIterations, solver_detail::time_budget_message("interior-point", options_, k - 1));
    }
    result.iterations = k;
    const double mu = x.dot(w) / m;
    r = w - M * x - q;
    K = M;
    K.diagonal() += w.cwiseQuotient(x);
    lu.compute(K);
    if (!(lu.rcond() > 1e-300) || !std::isfinite(mu))
      return finish(SolverStatus::NumericalFailure, "interior-point: M + Z^-1 W is singular (M not monotone?)");
    // predictor (affine scaling): rc = -Z W e
    rc = -x.cwiseProduct(w);
    dx_aff = lu.solve(rc.cwiseQuotient(x) + r);
    dw_aff = M * dx_aff - r;
    const double a_aff = std::min(step_to_boundary(x, dx_aff), step_to_boundary(w, dw_aff));
    const double mu_aff = (x + a_aff * dx_aff).dot(w + a_aff * dw_aff) / m;
    const double sigma = std::pow(std::max(mu_aff, 0.0) / mu, 3.0);
    // corrector: rc = sigma mu e - Z W e - dZ_aff dW_aff e
    rc.array() += sigma * mu - dx_aff.array() * dw_aff.array();
    dx = lu.solve(rc.cwiseQuotient(x) + r);
    dw = M * dx - r;
    const double alpha = std::min(1.0, kToBoundary * std::min(step_to_boundary(x, dx), step_to_boundary(w, dw)));
    x += alpha * dx;
    w += alpha * dw;
    if (!x.allFinite() || !w.allFinite())
      return finish(SolverStatus::NumericalFailure, "interior-point: the iterate diverged");
    if (x.dot(w) / m > kPolishBelow * mu0) continue;
    // active-set finish: w_J = 0 on J = {x_i > w_i}, x = 0 elsewhere
    active.clear();
    for (int i = 0; i < m; ++i)
      if (x(i) > w(i)) active.push_back(i);
    x_polish.setZero();
    if (!active.empty()) {
      const int a = static_cast<int>(active.size());
      MatX M_JJ(a, a);
      VecX q_J(a);
      for (int j = 0; j < a; ++j) {
        q_J(j) = -q(active[j]);
        for (int i = 0; i < a; ++i) M_JJ(i, j) = M(active[i], active[j]);
      }
      const Eigen::PartialPivLU<MatX> block(M_JJ);
      const VecX x_J = block.solve(q_J);
      for (int j = 0; j < a; ++j) x_polish(active[j]) = x_J(j);
    }
    if (x_polish.allFinite() && accept(x_polish)) return finish(SolverStatus::Solved, {});
    SolverResult interior;
    measure_residuals(problem, elim.expand(x), interior);
    if (solver_detail::within_tolerance(problem, interior, options_.tolerance)) {
      z = elim.expand(x);
      result.complementarity = interior.complementarity;
      result.feasibility = interior.feasibility;
      return finish(SolverStatus::Solved, {});
    }
  }
  z = elim.expand(x);
  measure_residuals(problem, z, result);
  return finish(SolverStatus::MaxIterations, "interior-point: not converged in " + std::to_string(max_iterations) +
                                                 " iterations (residual " +
                                                 std::to_string(solver_detail::residual_norm(result)) + ")");
}

}  // namespace

std::unique_ptr<LcpSolver> make_interior_point_solver(const SolverOptions& options) {
  return std::make_unique<InteriorPointSolver>(options);
}

}  // namespace pegsim
