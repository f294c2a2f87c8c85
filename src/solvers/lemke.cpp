// Lemke's method: shortcuts, polish, regularisation ladder and certificates
// around the pivoting core (see lemke.hpp for the order of work).
#include "solvers/lemke.hpp"

#include "solvers/lemke_pivoting.hpp"
#include "solvers/solver_common.hpp"

#include <Eigen/LU>
#include <Eigen/QR>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <limits>
#include <string>

namespace pegsim {
namespace {

using lemke_detail::PivotOutcome;
using lemke_detail::PivotRun;
using solver_detail::residual_norm;

constexpr std::array<double, 4> kLadder = {1e-12, 1e-10, 1e-8, 1e-6};

// How the linear system of an active set is solved.
enum class Polish {
  Lu,             // A_JJ z_J = -b_J by partial-pivoting LU
  RankRevealing,  // minimum-norm least squares (complete orthogonal decomposition):
                  // exact on a consistent singular system (redundant contacts)
  Regularised,    // (A + shift)_JJ z_J = -b_J, the system a ladder rung pivoted on
};

// z with the active set J's system solved and zero elsewhere, negatives
// clamped to zero. False when no finite z comes out.
bool solve_active_set(const LcpProblem& p, const std::vector<int>& J, VecX& z,
                      Polish how = Polish::Lu, const VecX& shift = VecX()) {
  const int k = static_cast<int>(J.size());
  z = VecX::Zero(p.size());
  if (k == 0) return true;
  MatX AJ(k, k);
  VecX bJ(k);
  for (int c = 0; c < k; ++c) {
    bJ(c) = p.b(J[c]);
    for (int r = 0; r < k; ++r) AJ(r, c) = p.A(J[r], J[c]);
    if (how == Polish::Regularised) AJ(c, c) += shift(J[c]);
  }
  const VecX zJ = how == Polish::RankRevealing
                      ? VecX(Eigen::CompleteOrthogonalDecomposition<MatX>(AJ).solve(-bJ))
                      : VecX(Eigen::PartialPivLU<MatX>(AJ).solve(-bJ));
  if (!zJ.allFinite()) return false;
  for (int c = 0; c < k; ++c) z(J[c]) = std::max(zJ(c), 0.0);
  return true;
}

// The active set guessed from a warm start: the support of z, plus, for a
// Stewart-Trinkle contact whose slip s > 0 but whose friction impulses are all
// zero (a separating contact that slides: p_n = 0), its friction row of least
// w. That row's w_f = v_f + s = 0 is the equation that fixes s (eq. 2.21);
// without it the slip row of A_JJ is zero and the system singular.
std::vector<int> guess_active_set(const LcpProblem& p, const VecX& z) {
  const int n = p.size();
  std::vector<int> J;
  for (int i = 0; i < n; ++i)
    if (z(i) > 0.0) J.push_back(i);
  if (p.role.empty() || p.contact_of.empty()) return J;
  std::vector<int> slip_of_normal(n, -1);
  for (int i = 0; i < n; ++i)
    if (p.role[i] == RowRole::Slip && z(i) > 0.0 && p.contact_of[i] >= 0)
      slip_of_normal[p.contact_of[i]] = i;
  std::vector<int> least(n, -1);  // per normal row: friction row of least w, -1 if any p_f > 0
  std::vector<char> has_impulse(n, 0);
  const VecX w = p.A * z + p.b;
  for (int f = 0; f < n; ++f) {
    const int c = p.contact_of[f];
    if (p.role[f] != RowRole::Friction || c < 0 || slip_of_normal[c] < 0) continue;
    if (z(f) > 0.0) has_impulse[c] = 1;
    if (least[c] < 0 || w(f) < w(least[c])) least[c] = f;
  }
  for (int c = 0; c < n; ++c)
    if (least[c] >= 0 && !has_impulse[c]) J.push_back(least[c]);
  std::sort(J.begin(), J.end());
  return J;
}

// y >= 0, A'y <= 0, b'y < 0 up to rounding (see lemke.hpp).
bool is_farkas_certificate(const LcpProblem& p, VecX y) {
  y = y.cwiseMax(0.0);
  const double ymax = y.maxCoeff();
  if (!(ymax > 0.0) || !std::isfinite(ymax)) return false;
  y /= ymax;
  y = (y.array() < 1e-13).select(0.0, y);  // rounding noise is not part of the certificate
  const double amax = p.A.cwiseAbs().maxCoeff();
  const double bmax = p.b.cwiseAbs().maxCoeff();
  const double ysum = y.sum();
  const double slack = 1e-12 * amax * ysum;
  return (p.A.transpose() * y).maxCoeff() <= slack && p.b.dot(y) < -1e-9 * bmax * ysum;
}

bool has_row_certificate(const LcpProblem& p) {
  for (int i = 0; i < p.size(); ++i)
    if (p.b(i) < 0.0 && p.A.row(i).maxCoeff() <= 0.0) return true;
  return false;
}

// Positive diagonal scaling D for D A D (w' = D w, z = D y keeps the LCP):
// D_i = A_ii^-1/2 on rows with a positive diagonal (unit diagonal after
// scaling; this evens out bodies of very different masses), then on the rest
// (slip rows: A_ss = 0) the geometric mean of the row and column sizes.
VecX equilibration(const MatX& A) {
  const int n = static_cast<int>(A.rows());
  VecX D = VecX::Zero(n);
  for (int i = 0; i < n; ++i)
    if (A(i, i) > 0.0) D(i) = 1.0 / std::sqrt(A(i, i));
  for (int i = 0; i < n; ++i) {
    if (D(i) > 0.0) continue;
    double row = 0.0, col = 0.0;
    for (int j = 0; j < n; ++j) {
      if (!(D(j) > 0.0)) continue;
      row = std::max(row, std::abs(A(i, j)) * D(j));
      col = std::max(col, std::abs(A(j, i)) * D(j));
    }
    D(i) = row > 0.0 && col > 0.0 ? 1.0 / std::sqrt(row * col) : 1.0;
  }
  return D;
}

std::string scientific(double x) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.3g", x);
  return buf;
}

SolverStatus failure_status(PivotOutcome o) {
  switch (o) {
    case PivotOutcome::Ray: return SolverStatus::RayTermination;
    case PivotOutcome::PivotLimit: return SolverStatus::MaxIterations;
    default: return SolverStatus::NumericalFailure;
  }
}

}  // namespace

SolverResult LemkeSolver::solve(const LcpProblem& problem, VecX& z) {
  const solver_detail::Stopwatch clock;
  SolverResult result;
  auto finish = [&](SolverStatus status, std::string message) {
    result.status = status;
    result.message = status == SolverStatus::Solved ? std::string() : std::move(message);
    result.seconds = clock.seconds();
    return result;
  };
  if (!solver_detail::check_problem(problem, "lemke", result)) {
    result.seconds = clock.seconds();
    return result;
  }
  if (!problem.is_pure_lcp())
    return finish(SolverStatus::Unsupported,
                  "lemke: Free (bilateral) rows are not supported; eliminate them first (eq. 2.37)");
  const int n = problem.size();
  const double tol = options_.tolerance;
  if (n == 0) {
    z.resize(0);
    measure_residuals(problem, z, result);
    return finish(SolverStatus::Solved, {});
  }
  if (z.size() != n || !z.allFinite()) z = VecX::Zero(n);

  // 1. trivial solution
  if (problem.b.minCoeff() >= 0.0) {
    z.setZero();
    measure_residuals(problem, z, result);
    return finish(SolverStatus::Solved, {});
  }

  // 2. warm start: the active set guessed from the support of z
  VecX candidate;
  SolverResult trial;
  if ((z.array() > 0.0).any()) {
    if (solve_active_set(problem, guess_active_set(problem, z), candidate)) {
      measure_residuals(problem, candidate, trial);
      if (solver_detail::within_tolerance(problem, trial, tol)) {
        z = candidate;
        result.complementarity = trial.complementarity;
        result.feasibility = trial.feasibility;
        return finish(SolverStatus::Solved, {});
      }
    }
  }

  // 3./4. pivoting on the scaled problem M = D A D / alpha, q = D b / (alpha beta),
  // z = beta D y (see equilibration()): entries of M and q at most one, so the
  // pivot tolerances are absolute; Lemke's covering vector of ones in y is the
  // covering vector D^-1 1 in z.
  const VecX D = equilibration(problem.A);
  MatX M = D.asDiagonal() * problem.A * D.asDiagonal();
  VecX q = D.cwiseProduct(problem.b);
  const double alpha = std::max(M.cwiseAbs().maxCoeff(), std::numeric_limits<double>::min());
  const double beta = q.cwiseAbs().maxCoeff() / alpha;
  M /= alpha;
  q /= alpha * beta;
  if (getenv("QZERO")) { const double e = atof(getenv("QZERO")); for (int i = 0; i < n; ++i) if (std::abs(q(i)) < e) q(i) = 0.0; }
  const double m_inf = M.cwiseAbs().rowwise().sum().maxCoeff();
  const int limit =
      options_.max_iterations > 0 ? options_.max_iterations : default_pivot_limit(n);

  VecX best = VecX::Zero(n);
  SolverResult best_res;
  measure_residuals(problem, best, best_res);
  SolverStatus first_failure = SolverStatus::NumericalFailure;
  std::string log;
  double applied = 0.0;
  for (int level = 0; level <= static_cast<int>(kLadder.size()); ++level) {
    if (level > 0) {
      const double delta = kLadder[level - 1] * m_inf;
      M.diagonal().array() += delta - applied;
      applied = delta;
    }
    const PivotRun run = lemke_detail::complementary_pivoting(M, q, limit);
    result.iterations += run.pivots;
    result.regularization_level = level;
    if (run.outcome == PivotOutcome::Solution) {
      // the pivoted point, and the polish of its active set on the original data
      candidate = beta * D.cwiseProduct(run.z);
      measure_residuals(problem, candidate, trial);
      // the rung's shift in the original variables: alpha delta D^-2
      const VecX shift = (alpha * applied) * D.cwiseProduct(D).cwiseInverse();
      for (const Polish how : {Polish::Lu, Polish::RankRevealing, Polish::Regularised}) {
        if (solver_detail::within_tolerance(problem, trial, tol)) break;
        if (how == Polish::Regularised && level == 0) break;
        VecX polished;
        SolverResult polished_res;
        if (!solve_active_set(problem, run.active, polished, how, shift)) continue;
        measure_residuals(problem, polished, polished_res);
        if (residual_norm(polished_res) < residual_norm(trial)) {
          candidate = polished;
          trial = polished_res;
        }
      }
      if (residual_norm(trial) < residual_norm(best_res)) {
        best = candidate;
        best_res = trial;
      }
      if (solver_detail::within_tolerance(problem, trial, tol)) {
        z = candidate;
        result.complementarity = trial.complementarity;
        result.feasibility = trial.feasibility;
        return finish(SolverStatus::Solved, {});
      }
      if (getenv("DBG3")) {
        const VecX w = problem.A * candidate + problem.b;
        std::vector<char> inJ(n, 0); for (int j : run.active) inJ[j] = 1;
        for (int i = 0; i < n; ++i) if (std::min(candidate(i), w(i)) < -1e-11 || std::abs(std::min(candidate(i), w(i))) > 1e-11)
          std::printf("  row %d role %d c %d inJ %d z %.3e w %.3e\n", i, int(problem.role[i]), problem.contact_of[i], inJ[i], candidate(i), w(i));
        VecX zz; solve_active_set(problem, run.active, zz); VecX ww = problem.A*zz+problem.b;
        std::printf("  |J| %zu, LU-polish: min zJ raw?, w min %.3e\n", run.active.size(), ww.minCoeff());
      }
      log += " level " + std::to_string(level) + ": residual " + scientific(residual_norm(trial)) +
             " above tolerance;";
    } else {
      if (run.outcome == PivotOutcome::Ray &&
          (has_row_certificate(problem) ||
           is_farkas_certificate(problem, D.cwiseProduct(run.ray)))) {
        z = VecX::Zero(n);
        measure_residuals(problem, z, result);
        return finish(SolverStatus::Infeasible,
                      "lemke: infeasible (Farkas certificate y >= 0, A'y <= 0, b'y < 0)");
      }
      log += " level " + std::to_string(level) + ": " + run.message + ";";
    }
    if (level == 0)
      first_failure = run.outcome == PivotOutcome::Solution ? SolverStatus::NumericalFailure
                                                            : failure_status(run.outcome);
  }
  z = best;
  result.complementarity = best_res.complementarity;
  result.feasibility = best_res.feasibility;
  return finish(first_failure, "lemke:" + log);
}

std::unique_ptr<LcpSolver> make_lemke_solver(const SolverOptions& options) {
  return std::make_unique<LemkeSolver>(options);
}

}  // namespace pegsim
