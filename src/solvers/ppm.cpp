// Modified principal pivoting method (PPM I) for LCPs with a symmetric
// positive semi-definite matrix, after Drumwright & Shell, "Rapidly
// computable viscous friction and no-slip rigid contact models" (reference
// 002, section V-1, Algorithm 1; Cottle's PPM I [5], Murty's book [15]).
//
// The working set J holds the rows whose z is basic (w_J = 0); every other
// row has z_i = 0 and w_i basic. For a given J:
//   A_JJ z_J = -b_J,   w = A_:J z_J + b                       (the block solve)
// which needs only A's columns J (never the full principal pivot transform).
// Pivots: a row outside J with w_i < 0 enters J; a NonNegative row of J with
// z_j < 0 leaves it (the w violation first, the most negative of each; after
// kDantzigPivots pivots, Murty's least-index rule, which cannot cycle on
// P-matrices). Free rows of an MLCP are in J from the start and never leave.
// Rank limit (the paper's Theorem 1: A = G'M^-1G has a solution with at most
// rank(A) non-zero z): J never holds dependent rows. A row whose column lies
// in the span of J's (zero Schur complement, A_JJ would be singular) is
// exchanged for a row j of J that carries it (A_Ji = A_JJ c with c_j > 0: the
// ratio test min z_j / c_j picks j); the new block stays non-singular.
// Factorization: a Cholesky factor L of A_JJ, updated between pivots - a row
// entering appends one row of L (forward substitution, O(|J|^2)), a row
// leaving drops its row of L and restores the triangle with Givens rotations
// (O(|J|^2)) - so no pivot refactors A_JJ. Each pivot costs O(n |J|) for w.
// Limits: A not symmetric (Stewart-Trinkle eq. 6.1, PEG) or not PSD (a
// negative Schur complement) is Unsupported; no exchange possible, or the
// iteration limit (default 10 n + 100 pivots), is reported, never Solved
// without the residual check. Warm start: J starts as the Free rows and the
// rows with z_i > 0 on entry; a z that already solves stops with 0 pivots.
#include "solvers/solver_common.hpp"

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

namespace pegsim {
namespace {

constexpr double kSymmetryTol = 1e-12;  // |A - A'| relative to max |A|
constexpr double kRankTol = 1e-11;      // Schur complement below this (relative to max A_ii): dependent
constexpr int kDantzigPivots = 50;      // most-negative pivots before the least-index rule

// L L' = A_JJ for the rows `rows` (in J's order), updated by appends and removals.
class UpdatedCholesky {
 public:
  void reset(int capacity) {
    L_.setZero(capacity, capacity);
    rows_.clear();
  }
  int size() const { return static_cast<int>(rows_.size()); }
  const std::vector<int>& rows() const { return rows_; }
  // l = L^-1 A_J,i and the Schur complement A_ii - l'l.
  double schur(const MatX& A, int i, VecX& l) const {
    const int k = size();
    l.resize(k);
    for (int r = 0; r < k; ++r) l(r) = A(rows_[r], i);
    if (k > 0) L_.topLeftCorner(k, k).triangularView<Eigen::Lower>().solveInPlace(l);
    return A(i, i) - l.squaredNorm();
  }
  void append(int i, const VecX& l, double schur) {
    const int k = size();
    L_.row(k).head(k) = l.transpose();
    L_(k, k) = std::sqrt(schur);
    rows_.push_back(i);
  }
  // Drops position p: its row of L goes, Givens rotations on column pairs
  // (r, r + 1) zero the super-diagonal the shift leaves.
  void remove(int p) {
    const int k = size();
    for (int r = p; r + 1 < k; ++r) L_.row(r).head(k) = L_.row(r + 1).head(k);
    for (int r = p; r + 1 < k; ++r) {
      const double a = L_(r, r), b = L_(r, r + 1);
      const double h = std::hypot(a, b);
      if (h == 0.0) continue;
      const double c = a / h, s = b / h;
      for (int q = r; q + 1 < k; ++q) {
        const double x = L_(q, r), y = L_(q, r + 1);
        L_(q, r) = c * x + s * y;
        L_(q, r + 1) = -s * x + c * y;
      }
    }
    L_.row(k - 1).setZero();
    L_.col(k - 1).setZero();
    rows_.erase(rows_.begin() + p);
  }
  // x = A_JJ^-1 rhs.
  void solve(VecX& x) const {
    const int k = size();
    if (k == 0) return;
    const auto L = L_.topLeftCorner(k, k);
    L.triangularView<Eigen::Lower>().solveInPlace(x);
    L.transpose().triangularView<Eigen::Upper>().solveInPlace(x);
  }
  // x = L'^-1 rhs (with schur()'s l: A_JJ^-1 A_J,i).
  void solve_upper(VecX& x) const {
    const int k = size();
    L_.topLeftCorner(k, k).transpose().triangularView<Eigen::Upper>().solveInPlace(x);
  }

 private:
  MatX L_;
  std::vector<int> rows_;
};

class PpmSolver final : public LcpSolver {
 public:
  explicit PpmSolver(const SolverOptions& options) : options_(options) {}
  std::string_view name() const override { return "ppm"; }
  SolverResult solve(const LcpProblem& problem, VecX& z) override;

 private:
  SolverOptions options_;
  UpdatedCholesky chol_;
};

SolverResult PpmSolver::solve(const LcpProblem& p, VecX& z) {
  using solver_detail::is_free;
  const solver_detail::Stopwatch clock;
  SolverResult result;
  auto finish = [&](SolverStatus s, std::string message) {
    return solver_detail::finish(result, clock, s, std::move(message));
  };
  if (!solver_detail::check_problem(p, "ppm", result)) return finish(result.status, result.message);
  const int n = p.size();
  if (z.size() != n || !z.allFinite()) z = VecX::Zero(n);
  if (n == 0) return finish(SolverStatus::Solved, {});
  measure_residuals(p, z, result);
  if (solver_detail::within_tolerance(p, result, options_.tolerance)) return finish(SolverStatus::Solved, {});
  const double a_max = p.A.cwiseAbs().maxCoeff();
  if ((p.A - p.A.transpose()).cwiseAbs().maxCoeff() > kSymmetryTol * (1.0 + a_max))
    return finish(SolverStatus::Unsupported, "ppm: A is not symmetric (PPM needs a symmetric PSD matrix)");
  const double rank_tol = kRankTol * std::max(p.A.diagonal().cwiseAbs().maxCoeff(), 1e-300);
  const double pivot_tol = 0.25 * solver_detail::residual_threshold(p, options_.tolerance);

  std::vector<char> in_set(n, 0);
  VecX l, c, z_J;
  chol_.reset(n);
  auto try_append = [&](int i) {  // false: dependent (or A not PSD: not_psd set)
    const double s = chol_.schur(p.A, i, l);
    if (s <= rank_tol) return false;
    chol_.append(i, l, s);
    in_set[i] = 1;
    return true;
  };
  auto not_psd = [&](int i) { return chol_.schur(p.A, i, l) < -1e3 * rank_tol; };
  auto remove_row = [&](int i) {
    const auto& rows = chol_.rows();
    chol_.remove(static_cast<int>(std::find(rows.begin(), rows.end(), i) - rows.begin()));
    in_set[i] = 0;
  };
  // warm start: Free rows, then the rows with z_i > 0
  for (int pass = 0; pass < 2; ++pass)
    for (int i = 0; i < n; ++i)
      if ((pass == 0) == is_free(p, i) && (pass == 0 || z(i) > 0.0)) {
        if (not_psd(i)) return finish(SolverStatus::Unsupported, "ppm: A is not positive semi-definite");
        try_append(i);  // a dependent row stays out (z_i = 0)
      }

  VecX w(n);
  const int max_pivots = options_.max_iterations > 0 ? options_.max_iterations : 10 * n + 100;
  const SolveDeadline deadline(options_);
  for (int pivot = 0;; ++pivot) {
    // the block solve for this J
    const std::vector<int>& rows = chol_.rows();
    const int k = chol_.size();
    z_J.resize(k);
    for (int r = 0; r < k; ++r) z_J(r) = -p.b(rows[r]);
    chol_.solve(z_J);
    z.setZero();
    for (int r = 0; r < k; ++r) z(rows[r]) = z_J(r);
    w = p.b;
    for (int r = 0; r < k; ++r) w.noalias() += z_J(r) * p.A.col(rows[r]);
    result.iterations = pivot;
    // violations: w_i < 0 outside J, z_j < 0 in J (NonNegative rows)
    int enter = -1, leave = -1;
    const bool least_index = pivot >= kDantzigPivots;
    for (int i = 0; i < n; ++i) {
      if (is_free(p, i)) continue;
      if (!in_set[i] && w(i) < -pivot_tol && (enter < 0 || (!least_index && w(i) < w(enter)))) enter = i;
      if (in_set[i] && z(i) < -pivot_tol && (leave < 0 || (!least_index && z(i) < z(leave)))) leave = i;
    }
    if (enter < 0 && leave < 0) {
      solver_detail::residuals_from_w(p, z, w, result);
      if (solver_detail::within_tolerance(p, result, options_.tolerance)) return finish(SolverStatus::Solved, {});
      return finish(SolverStatus::NumericalFailure, "ppm: the block solution fails the residual test");
    }
    if (pivot >= max_pivots) {
      solver_detail::residuals_from_w(p, z, w, result);
      return finish(SolverStatus::MaxIterations, "ppm: not solved in " + std::to_string(max_pivots) + " pivots");
    }
    if (deadline.expired()) {
      solver_detail::residuals_from_w(p, z, w, result);
      return finish(SolverStatus::MaxIterations, solver_detail::time_budget_message("ppm", options_, pivot));
    }
    if (least_index && enter >= 0 && leave >= 0) (enter < leave ? leave : enter) = -1;
    if (enter < 0) {
      remove_row(leave);
      continue;
    }
    if (not_psd(enter)) return finish(SolverStatus::Unsupported, "ppm: A is not positive semi-definite");
    if (try_append(enter)) continue;
    // A's column `enter` lies in the span of J's: exchange it for a row j
    // with c_j > 0, A_J,enter = A_JJ c, by the ratio test min z_j / c_j
    c = l;  // L^-1 A_J,enter from schur()
    if (k > 0) chol_.solve_upper(c);
    int out = -1;
    for (int r = 0; r < k; ++r) {
      const int j = chol_.rows()[r];
      if (is_free(p, j) || !(c(r) > 1e-9)) continue;
      if (out < 0 || z(j) / c(r) < z(chol_.rows()[out]) / c(out)) out = r;
    }
    if (out < 0)
      return finish(SolverStatus::NumericalFailure,
                    "ppm: row " + std::to_string(enter) + " cannot enter: no row of the working set carries it");
    remove_row(chol_.rows()[out]);
    if (!try_append(enter)) return finish(SolverStatus::NumericalFailure, "ppm: the exchange left a singular block");
  }
}

}  // namespace

std::unique_ptr<LcpSolver> make_ppm_solver(const SolverOptions& options) { return std::make_unique<PpmSolver>(options); }

}  // namespace pegsim
