// Lemke's complementary pivoting with a lexicographic minimum-ratio test.
//
// Representation. Rather than the full n x (2n+1) tableau we keep the basis
// inverse Binv = B^-1 and qbar = B^-1 q, and form an entering column d = B^-1 a
// on demand (a is the column of [I | -M | -c] of the entering variable). A
// column k of Binv whose w_k is basic (at row p) is exactly the unit vector
// e_p, so only the columns of the *nonbasic* w variables are dense; the others
// are never touched. A pivot then costs O(n * k) and a column O(n * k), k the
// number of z variables in the basis, instead of O(n^2) for the full tableau.
//
// Degeneracy. Ties in the ratio test are broken lexicographically on the rows
// of [qbar | Binv] / d_i (Cottle-Pang-Stone 4.9): this is the exact rule of the
// perturbed problem q + (eps, eps^2, ..., eps^n), which is nondegenerate, so
// no basis repeats and the method terminates. z0 is preferred whenever it is
// among the tied rows (its leaving ends the method with a solution).
#include "solvers/lemke_pivoting.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <cstdint>
#include <cstdio>
#include <cstdlib>

namespace pegsim::lemke_detail {
namespace {

constexpr double kPivotTol = 1e-11;     // |d_i| below this (relative) is no pivot
constexpr double kTieTol = 1e-12;       // ratios closer than this are ties
constexpr double kNegativeTol = 1e-7;   // qbar below -this: the basis went infeasible

class Tableau {
 public:
  Tableau(const MatX& M, const VecX& q)
      : M_(M), n_(static_cast<int>(q.size())), z0_(2 * n_), binv_(MatX::Identity(n_, n_)),
        qbar_(q), basis_(n_), row_of_(2 * n_ + 1, -1), dense_slot_(n_, -1), d_(n_), a_(n_) {
    for (int i = 0; i < n_; ++i) basis_[i] = row_of_[i] = i;  // all w basic
    pbar_.resize(n_);
    std::uint64_t x = 0x9E3779B97F4A7C15ull;
    for (int i = 0; i < n_; ++i) { x ^= x << 13; x ^= x >> 7; x ^= x << 17; pbar_(i) = 0.5 + (x >> 11) * (1.0 / 9007199254740992.0); }
  }
  VecX pbar_;

  int n() const { return n_; }
  int z0() const { return z0_; }
  int complement(int var) const { return var < n_ ? var + n_ : var - n_; }
  const VecX& column() const { return d_; }

  // The first pivot: z0 enters; the row that needs the most z0 leaves
  // (q + c z0 >= 0 with c = ones). Among ties the largest index keeps the rows
  // of [qbar | Binv] lexicographically positive afterwards.
  int first_leaving_row() const {
    int r = 0;
    for (int i = 1; i < n_; ++i)
      if (qbar_(i) < qbar_(r) || (qbar_(i) == qbar_(r) && pbar_(i) <= pbar_(r))) r = i;
    return r;
  }

  // d = B^-1 a for the entering variable `var`.
  void form_column(int var) {
    if (var < n_) {  // w_j: a = e_j, so d is column j of Binv (dense: w_j nonbasic)
      d_ = binv_.col(var);
      return;
    }
    if (var == z0_)
      a_.setConstant(-1.0);
    else
      a_ = -M_.col(var - n_);
    d_.setZero();
    for (int k : dense_)
      if (a_(k) != 0.0) d_.noalias() += a_(k) * binv_.col(k);
    for (int i = 0; i < n_; ++i)
      if (basis_[i] < n_) d_(i) += a_(basis_[i]);
  }

  // Lexicographic minimum-ratio test on the current column. Returns the
  // leaving row, -1 when nothing blocks (a ray), -2 when the basis has lost
  // feasibility (numerical trouble).
  int ratio_test() {
    const double dmax = d_.cwiseAbs().maxCoeff();
    const double piv_tol = kPivotTol * std::max(1.0, dmax);
    const double qmax = qbar_.cwiseAbs().maxCoeff();
    double theta = std::numeric_limits<double>::infinity();
    static const double deg = getenv("DEG") ? atof(getenv("DEG")) : 0.0;
    auto qv = [&](int i) { return qbar_(i) < deg ? 0.0 : qbar_(i); };
    for (int i = 0; i < n_; ++i) {
      if (qbar_(i) < -kNegativeTol * (1.0 + qmax)) return -2;
      if (d_(i) > piv_tol) theta = std::min(theta, qv(i) / d_(i));
    }
    (void)0;
    if (!std::isfinite(theta)) return -1;
    const double tie = kTieTol * (1.0 + theta);
    ties_.clear();
    for (int i = 0; i < n_; ++i) {
      if (d_(i) <= piv_tol || qv(i) / d_(i) > theta + tie) continue;
      if (basis_[i] == z0_) return i;  // z0 can leave: finish
      ties_.push_back(i);
    }
    static const int mode = getenv("TIE") ? atoi(getenv("TIE")) : 0;
    static const double frac = getenv("FRAC") ? atof(getenv("FRAC")) : 0.1;
    if (mode == 3 && ties_.size() > 1) {
      double vmin = std::numeric_limits<double>::infinity();
      for (int i : ties_) vmin = std::min(vmin, pbar_(i) / d_(i));
      const double cut = vmin + 1e-9 * (1.0 + std::abs(vmin));
      std::erase_if(ties_, [&](int i) { return pbar_(i) / d_(i) > cut; });
    }
    if (mode == 1) return *std::max_element(ties_.begin(), ties_.end(), [&](int i, int j) { return d_(i) < d_(j); });
    if (mode == 2 && ties_.size() > 1) {
      double dm = 0; for (int i : ties_) dm = std::max(dm, d_(i));
      std::erase_if(ties_, [&](int i) { return d_(i) < frac * dm; });
    }
    // Break ties on the columns of B^-1 in order (the eps^k perturbation terms).
    for (int k = 0; k < n_ && ties_.size() > 1; ++k) {
      double vmin = std::numeric_limits<double>::infinity();
      for (int i : ties_) vmin = std::min(vmin, binv_(i, k) / d_(i));
      const double cut = vmin + kTieTol * (1.0 + std::abs(vmin));
      std::erase_if(ties_, [&](int i) { return binv_(i, k) / d_(i) > cut; });
    }
    // Exact lexicographic ties cannot happen for a nonsingular B; with rounding
    // they can: take the largest pivot.
    return *std::max_element(ties_.begin(), ties_.end(),
                             [&](int i, int j) { return d_(i) < d_(j); });
  }

  // Pivot `entering` in on row r, with its column in d_. Returns the leaving variable.
  int pivot(int r, int entering) {
    const double piv = d_(r);
    const double theta = qbar_(r) / piv;
    qbar_.noalias() -= theta * d_;
    qbar_(r) = theta;
    { const double pt = pbar_(r) / piv; pbar_.noalias() -= pt * d_; pbar_(r) = pt; }
    if (getenv("DBG2")) { const double dm = d_.cwiseAbs().maxCoeff(); if (std::abs(piv) < 1e-4 * dm || dm > 1e4) std::printf("  small/grow piv %.2e dmax %.2e\n", piv, dm); }
    const int leaving = basis_[r];
    for (int k : dense_) {
      if (k == entering) continue;
      const double rk = binv_(r, k) / piv;
      if (rk == 0.0) continue;
      binv_.col(k).noalias() -= rk * d_;
      binv_(r, k) = rk;
    }
    if (leaving < n_) {  // w_leaving's column was e_r: it becomes dense
      binv_.col(leaving) = d_ * (-1.0 / piv);
      binv_(r, leaving) = 1.0 / piv;
      add_dense(leaving);
    }
    if (entering < n_) {  // w_entering becomes basic at row r: its column is e_r
      binv_.col(entering).setZero();
      binv_(r, entering) = 1.0;
      remove_dense(entering);
    }
    basis_[r] = entering;
    row_of_[entering] = r;
    row_of_[leaving] = -1;
    return leaving;
  }

  void read_solution(PivotRun& run) const {
    run.z = VecX::Zero(n_);
    run.active.clear();
    for (int j = 0; j < n_; ++j) {
      const int r = row_of_[n_ + j];
      if (r < 0) continue;
      run.z(j) = std::max(qbar_(r), 0.0);
      run.active.push_back(j);
    }
  }

  // Along the ray, the entering variable grows by t and the basics move by -t d.
  void read_ray(int entering, PivotRun& run) const {
    run.ray = VecX::Zero(n_);
    if (entering >= n_ && entering < z0_) run.ray(entering - n_) = 1.0;
    for (int i = 0; i < n_; ++i)
      if (basis_[i] >= n_ && basis_[i] < z0_) run.ray(basis_[i] - n_) = -d_(i);
    read_solution(run);
    run.z.setZero();
  }

 private:
  void add_dense(int k) {
    dense_slot_[k] = static_cast<int>(dense_.size());
    dense_.push_back(k);
  }
  void remove_dense(int k) {
    const int slot = dense_slot_[k];
    dense_[slot] = dense_.back();
    dense_slot_[dense_[slot]] = slot;
    dense_.pop_back();
    dense_slot_[k] = -1;
  }

  const MatX& M_;
  int n_;
  int z0_;
  MatX binv_;
  VecX qbar_;
  std::vector<int> basis_;       // variable basic in each row
  std::vector<int> row_of_;      // row of each basic variable, -1 when nonbasic
  std::vector<int> dense_;       // columns of Binv of the nonbasic w variables
  std::vector<int> dense_slot_;  // position in dense_, -1 when absent
  std::vector<int> ties_;
  VecX d_;
  VecX a_;
};

}  // namespace

PivotRun complementary_pivoting(const MatX& M, const VecX& q, int max_pivots) {
  PivotRun run;
  Tableau t(M, q);
  const int n = t.n();
  if (n == 0 || q.minCoeff() >= 0.0) {  // z = 0, w = q is a solution
    run.outcome = PivotOutcome::Solution;
    run.z = VecX::Zero(n);
    return run;
  }
  int entering = t.z0();
  t.form_column(entering);
  int leaving = t.pivot(t.first_leaving_row(), entering);
  run.pivots = 1;
  for (;;) {
    entering = t.complement(leaving);
    t.form_column(entering);
    const int r = t.ratio_test();
    if (r == -1) {
      run.outcome = PivotOutcome::Ray;
      run.message = "secondary ray";
      t.read_ray(entering, run);
      return run;
    }
    if (r == -2) {
      run.outcome = PivotOutcome::NumericalTrouble;
      run.message = "the basis lost feasibility (rounding)";
      return run;
    }
    if (run.pivots >= max_pivots) {
      run.outcome = PivotOutcome::PivotLimit;
      run.message = "pivot limit " + std::to_string(max_pivots) + " reached";
      t.read_solution(run);
      return run;
    }
    leaving = t.pivot(r, entering);
    ++run.pivots;
    if (leaving == t.z0()) {
      run.outcome = PivotOutcome::Solution;
      t.read_solution(run);
      return run;
    }
  }
}

}  // namespace pegsim::lemke_detail
