// Projected Jacobi with over-relaxation (thesis 2.5.2, eq. 2.47):
//   z_i^(k+1) = max(0, z_i^(k) - lambda w_i(z^(k)) / A_ii)
// (eq. 2.47 with its A x >= b written as w = A z + b >= 0), every row from the
// previous iterate, lambda = SolverOptions::relaxation (the thesis found
// lambda ~ 0.5 best on its problems). Free rows skip the max. Converges for
// strictly diagonally dominant A with 0 < lambda <= 1; no guarantee otherwise
// (it then reports MaxIterations, or NumericalFailure as soon as the residual
// exceeds kDiverged times the best one: diverging).
// Stewart-Trinkle contacts (eq. 6.1; slip rows have A_ss = 0) move by
// blocks (diagonal_iteration.hpp); any other row with A_ii <= 0 is Unsupported.
// Warm start: the given z, clamped at 0; at the solution it stops with 0
// iterations. On failure z is the iterate of least residual (the warm start
// when the iteration diverges from it). Default limit 1000 iterations; residuals (SolverResult) every
// iteration, on w = A z + b, which the next iteration needs anyway.
#include "solvers/diagonal_iteration.hpp"
#include "solvers/solver_common.hpp"

#include <cmath>
#include <string>

namespace pegsim {
namespace {

class ProjectedJacobiSolver final : public LcpSolver {
 public:
  explicit ProjectedJacobiSolver(const SolverOptions& options) : options_(options) {}
  std::string_view name() const override { return "projected-jacobi"; }

  SolverResult solve(const LcpProblem& p, VecX& z) override {
    const solver_detail::Stopwatch clock;
    SolverResult result;
    VecX w;
    if (!solver_detail::start_diagonal_iteration(p, name(), options_, z, w, plan_, result))
      return solver_detail::finish(result, clock, result.status, result.message);
    const double lambda = options_.relaxation;
    if (!(lambda > 0.0 && lambda < 2.0))
      return solver_detail::finish(result, clock, SolverStatus::Unsupported,
                                   "projected-jacobi: relaxation outside (0, 2)");
    const int max_iterations = options_.max_iterations > 0 ? options_.max_iterations : kDefaultMaxIterations;
    // the iterate of least residual, returned on failure (the caller applies z
    // even then, and a diverged iterate is no use to it)
    VecX best = z;
    SolverResult best_result = result;
    auto fail = [&](SolverStatus status, std::string message) {
      const int iterations = result.iterations;
      z = best;
      result = best_result;
      result.iterations = iterations;
      return solver_detail::finish(result, clock, status, std::move(message));
    };
    const SolveDeadline deadline(options_);
    for (int k = 1; k <= max_iterations; ++k) {
      if (deadline.expired()) return fail(SolverStatus::MaxIterations, solver_detail::time_budget_message(name(), options_, k - 1));
      solver_detail::diagonal_step(p, plan_, lambda, w, z);  // eq. 2.47
      w.noalias() = p.A * z;
      w += p.b;
      solver_detail::residuals_from_w(p, z, w, result);
      result.iterations = k;
      if (solver_detail::within_tolerance(p, result, options_.tolerance))
        return solver_detail::finish(result, clock, SolverStatus::Solved, {});
      if (!std::isfinite(result.complementarity) ||
          solver_detail::residual_norm(result) > kDiverged * solver_detail::residual_norm(best_result))
        return fail(SolverStatus::NumericalFailure, "projected-jacobi: the iterate diverged");
      if (solver_detail::residual_norm(result) < solver_detail::residual_norm(best_result)) {
        best = z;
        best_result = result;
      }
    }
    return fail(SolverStatus::MaxIterations,
                                 "projected-jacobi: not converged in " + std::to_string(max_iterations) +
                                     " iterations (best residual " +
                                     std::to_string(solver_detail::residual_norm(best_result)) + ")");
  }

  static constexpr int kDefaultMaxIterations = 1000;
  // a residual this many times the best one so far: diverging (the
  // iteration matrix has spectral radius > 1), stop instead of running on
  static constexpr double kDiverged = 1e3;

 private:
  SolverOptions options_;
  solver_detail::DiagonalPlan plan_;
};

}  // namespace

std::unique_ptr<LcpSolver> make_projected_jacobi_solver(const SolverOptions& options) {
  return std::make_unique<ProjectedJacobiSolver>(options);
}

}  // namespace pegsim
