// Primal active-set method for the convex QP whose KKT conditions are a
// symmetric PSD LCP (Nocedal & Wright, "Numerical Optimization", 2nd ed.,
// Algorithm 16.3, specialised to bound constraints):
//   minimize  1/2 z'A z + b'z   subject to  z_i >= 0 (NonNegative rows), z_i free (Free rows),
// whose KKT conditions  w = A z + b >= 0, z >= 0, z'w = 0  (w = 0 on Free rows)
// are the LCP. It is the "active-set QP" Drumwright & Shell compare their
// modified PPM with on the no-slip LCP (reference 002, section VII-A; they
// used MATLAB's quadprog), here the primal method on the dense A.
//
// The free set F (rows whose z may move; Free rows always) defines the
// equality-constrained step: A_FF d_F = -g_F with g = A z + b, solved in the
// least-squares, minimum-norm sense (complete orthogonal decomposition: A_FF
// of a box's four corner rows has rank 3). A step that would leave z >= 0 is
// cut at the first bound it meets, whose row leaves F (one pivot); the step
// length is the exact minimiser of the objective along d (1 for the Newton
// step), so the objective decreases at every step. At a
// stationary point (d = 0) the multipliers of the rows held at zero are
// their g_i: the most negative one below the tolerance enters F (one pivot);
// none, and z is optimal. When g_F is not in the range of A_FF (the QP
// unbounded along F's null space, which a feasible LCP excludes up to
// round-off) the step is the descent direction -r in that null space, cut at
// the first bound. Every iterate stays feasible (z >= 0) and the objective
// never increases, so no active set repeats (the method terminates; Nocedal
// & Wright Theorem 16.5 for strictly convex, and the minimum-norm step here).
// Result: Solved only after the residual check (measure_residuals) within
// the tolerance; MaxIterations after the cap (default 10 n + 100 pivots);
// Unsupported for a non-symmetric A (Stewart-Trinkle's eq. 6.1, PEG).
// Warm start: a z that already solves is returned with 0 pivots; otherwise F
// starts as the Free rows and the rows with z_i > 0.
#include "solvers/solver_common.hpp"

#include <Eigen/QR>

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

namespace pegsim {
namespace {

constexpr double kSymmetryTol = 1e-12;  // |A - A'| relative to max |A| (ppm.cpp's test)

class QpActiveSetSolver final : public LcpSolver {
 public:
  explicit QpActiveSetSolver(const SolverOptions& options) : options_(options) {}
  std::string_view name() const override { return "qp-active-set"; }
  SolverResult solve(const LcpProblem& problem, VecX& z) override;

 private:
  SolverOptions options_;
};

SolverResult QpActiveSetSolver::solve(const LcpProblem& p, VecX& z) {
  const solver_detail::Stopwatch clock;
  SolverResult result;
  if (!solver_detail::check_problem(p, name(), result)) return result;
  const int n = p.size();
  if (n == 0) {
    z.resize(0);
    return solver_detail::finish(result, clock, SolverStatus::Solved, "");
  }
  if (z.size() == n && z.allFinite()) {  // a warm start that already solves: 0 pivots (docs/solvers.md)
    measure_residuals(p, z, result);
    if (solver_detail::within_tolerance(p, result, options_.tolerance))
      return solver_detail::finish(result, clock, SolverStatus::Solved, "");
  }
  const double scale = std::max(1.0, p.A.cwiseAbs().maxCoeff());
  if ((p.A - p.A.transpose()).cwiseAbs().maxCoeff() > kSymmetryTol * scale)
    return solver_detail::finish(result, clock, SolverStatus::Unsupported,
                                 "qp-active-set needs a symmetric matrix (a convex QP's Hessian)");
  if (z.size() != n || !z.allFinite()) z.setZero(n);
  std::vector<char> in_free(n, 0);
  for (int i = 0; i < n; ++i) {
    if (solver_detail::is_free(p, i)) in_free[i] = 1;
    else z(i) = std::max(z(i), 0.0);
    if (z(i) > 0.0) in_free[i] = 1;
  }
  const double tol = solver_detail::residual_threshold(p, options_.tolerance);
  const int max_pivots = options_.max_iterations > 0 ? options_.max_iterations : 10 * n + 100;
  std::vector<int> F;
  VecX g(n);
  int pivots = 0;
  bool unbounded = false, out_of_time = false;
  const SolveDeadline deadline(options_);
  for (int round = 0; round < 4 * max_pivots; ++round) {
    if (deadline.expired()) {
      out_of_time = true;
      break;
    }
    g.noalias() = p.A * z + p.b;
    F.clear();
    for (int i = 0; i < n; ++i)
      if (in_free[i]) F.push_back(i);
    const int k = static_cast<int>(F.size());
    VecX d = VecX::Zero(k);
    double curvature = 0.0, slope = 0.0;  // d'A_FF d and g_F'd: the objective along d
    if (k > 0) {
      MatX AFF(k, k);
      VecX gF(k);
      for (int r = 0; r < k; ++r) {
        gF(r) = g(F[r]);
        for (int c = 0; c < k; ++c) AFF(r, c) = p.A(F[r], F[c]);
      }
      Eigen::CompleteOrthogonalDecomposition<MatX> cod;
      cod.setThreshold(1e-11);  // ppm.cpp's rank tolerance, relative
      cod.compute(AFF);
      d = cod.solve(-gF);
      const VecX r = AFF * d + gF;  // non-zero: g_F has a part in null(A_FF)
      if (r.cwiseAbs().maxCoeff() > tol) d = -r;
      curvature = d.dot(AFF * d);
      slope = gF.dot(d);
      if (!(slope < 0.0)) d.setZero();  // no descent left on F: stationary
    }
    const double step_norm = k > 0 ? d.cwiseAbs().maxCoeff() : 0.0;  // F empty: stationary
    if (step_norm <= 1e-15 * (1.0 + z.cwiseAbs().maxCoeff())) {
      // stationary on F: the multipliers of the rows held at zero are g_i
      int enter = -1;
      double most = -tol;
      for (int i = 0; i < n; ++i)
        if (!in_free[i] && g(i) < most) {
          most = g(i);
          enter = i;
        }
      if (enter < 0) break;
      if (++pivots > max_pivots) break;
      in_free[enter] = 1;
      continue;
    }
    // the exact minimiser along d (1 for the Newton step), cut at the first bound
    double alpha = curvature > 0.0 ? -slope / curvature : std::numeric_limits<double>::infinity();
    int block = -1;
    for (int r = 0; r < k; ++r)
      if (!solver_detail::is_free(p, F[r]) && d(r) < 0.0) {
        const double a = -z(F[r]) / d(r);
        if (a < alpha) {
          alpha = a;
          block = F[r];
        }
      }
    if (std::isinf(alpha)) {  // unbounded along d: the LCP has no solution (not for a solvable PSD LCP)
      unbounded = true;
      break;
    }
    for (int r = 0; r < k; ++r) z(F[r]) += alpha * d(r);
    if (block >= 0) {
      z(block) = 0.0;
      in_free[block] = 0;
      if (++pivots > max_pivots) break;
    }
  }
  result.iterations = pivots;
  measure_residuals(p, z, result);
  if (solver_detail::within_tolerance(p, result, options_.tolerance))
    return solver_detail::finish(result, clock, SolverStatus::Solved, "");
  if (unbounded)
    return solver_detail::finish(result, clock, SolverStatus::Infeasible,
                                 "the QP is unbounded below on z >= 0: the LCP has no solution");
  if (out_of_time)
    return solver_detail::finish(result, clock, SolverStatus::MaxIterations,
                                 solver_detail::time_budget_message(name(), options_, pivots));
  return solver_detail::finish(result, clock, SolverStatus::MaxIterations,
                               pivots > max_pivots ? "pivot limit reached" : "residual above tolerance at the optimum found");
}

}  // namespace

std::unique_ptr<LcpSolver> make_qp_active_set_solver(const SolverOptions& options) {
  return std::make_unique<QpActiveSetSolver>(options);
}

}  // namespace pegsim
