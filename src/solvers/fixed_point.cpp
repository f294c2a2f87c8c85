// Fixed-point (proximal-map) iteration for the LCP: the splitting of thesis
// eq. 2.44 with M = D / alpha (D = diag A, N = M - A), i.e.
//   z^(k+1) = max(0, z^(k) - r .* (A z^(k) + b)),   r_i = alpha / A_ii   (eq. 2.45)
// the "Fixed-point" row of the thesis's RPI-MATLAB-Simulator solver table
// (Table 6.2): z is a solution exactly when it is a fixed point of this map
// (for any r > 0). Unlike projected Jacobi (eq. 2.47, a fixed lambda) the
// step alpha adapts (an r-factor strategy): a step that does not lower the
// merit |phi(z)|_2, phi_i = min(z_i, w_i) (w_i on Free rows), is rejected and
// alpha halved; an accepted one lets alpha grow by 1.25 up to kMaxStep. When
// alpha falls below kMinStep the step is taken anyway and alpha restarts at 1
// (the merit need not decrease along the projected direction when A is not
// symmetric). Converges on symmetric positive definite A; on other matrices
// it reports MaxIterations honestly. Stewart-Trinkle contacts move by blocks
// (diagonal_iteration.hpp); any other row with A_ii <= 0 is Unsupported.
// Warm start: the given z, clamped; at the solution it stops with 0
// iterations. Iterations count trial steps, accepted or not (default 2000).
#include "solvers/diagonal_iteration.hpp"
#include "solvers/solver_common.hpp"

#include <algorithm>
#include <cmath>
#include <string>

namespace pegsim {
namespace {

constexpr double kMaxStep = 1.9;  // below 2: at alpha = 2 a row alone would overshoot to the mirror of its solution
constexpr double kMinStep = 1e-10;

double merit(const LcpProblem& p, const VecX& z, const VecX& w) {
  double sum = 0.0;
  for (int i = 0; i < p.size(); ++i) {
    const double phi = solver_detail::is_free(p, i) ? w(i) : std::min(z(i), w(i));
    sum += phi * phi;
  }
  return std::sqrt(sum);
}

class FixedPointSolver final : public LcpSolver {
 public:
  explicit FixedPointSolver(const SolverOptions& options) : options_(options) {}
  std::string_view name() const override { return "fixed-point"; }

  SolverResult solve(const LcpProblem& p, VecX& z) override {
    const solver_detail::Stopwatch clock;
    SolverResult result;
    VecX w;
    if (!solver_detail::start_diagonal_iteration(p, name(), options_, z, w, plan_, result))
      return solver_detail::finish(result, clock, result.status, result.message);
    const int max_iterations = options_.max_iterations > 0 ? options_.max_iterations : kDefaultMaxIterations;
    double alpha = 1.0;
    double current = merit(p, z, w);
    VecX z_trial(z.size()), w_trial(z.size());
    const SolveDeadline deadline(options_);
    for (int k = 1; k <= max_iterations; ++k) {
      if (deadline.expired()) {
        solver_detail::residuals_from_w(p, z, w, result);
        return solver_detail::finish(result, clock, SolverStatus::MaxIterations,
                                     solver_detail::time_budget_message(name(), options_, k - 1));
      }
      result.iterations = k;
      z_trial = z;
      solver_detail::diagonal_step(p, plan_, alpha, w, z_trial);  // eq. 2.45
      w_trial.noalias() = p.A * z_trial;
      w_trial += p.b;
      const double trial = merit(p, z_trial, w_trial);
      if (!std::isfinite(trial))
        return solver_detail::finish(result, clock, SolverStatus::NumericalFailure,
                                     "fixed-point: the iterate diverged");
      if (trial > current && alpha >= kMinStep) {
        alpha *= 0.5;  // rejected: a shorter step
        continue;
      }
      alpha = trial > current ? 1.0 : std::min(kMaxStep, 1.25 * alpha);
      z.swap(z_trial);
      w.swap(w_trial);
      current = trial;
      solver_detail::residuals_from_w(p, z, w, result);
      if (solver_detail::within_tolerance(p, result, options_.tolerance))
        return solver_detail::finish(result, clock, SolverStatus::Solved, {});
    }
    solver_detail::residuals_from_w(p, z, w, result);
    return solver_detail::finish(result, clock, SolverStatus::MaxIterations,
                                 "fixed-point: not converged in " + std::to_string(max_iterations) +
                                     " iterations (residual " +
                                     std::to_string(solver_detail::residual_norm(result)) + ")");
  }

  static constexpr int kDefaultMaxIterations = 2000;

 private:
  SolverOptions options_;
  solver_detail::DiagonalPlan plan_;
};

}  // namespace

std::unique_ptr<LcpSolver> make_fixed_point_solver(const SolverOptions& options) {
  return std::make_unique<FixedPointSolver>(options);
}

}  // namespace pegsim
