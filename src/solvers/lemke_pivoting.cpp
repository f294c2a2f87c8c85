// Lemke's complementary pivoting with a perturbed lexicographic ratio test.
//
// Representation. Rather than the full n x (2n+1) tableau we keep the basis
// inverse Binv = B^-1 and qbar = B^-1 q, and form an entering column d = B^-1 a
// on demand (a is the column of [I | -M | -c] of the entering variable; M is
// read a column at a time, never formed). A column k of Binv whose w_k is
// basic (at row p) is exactly the unit vector e_p, so only the columns of the
// *nonbasic* w variables are stored (n x k, k growing with the basis); the
// others are implicit. A pivot then costs O(n * k) and a column O(n * k), k the
// number of z variables in the basis, instead of O(n^2) for the full tableau.
//
// Degeneracy. Contact problems at rest are massively degenerate: most entries
// of q are zero up to noise (resting contacts, friction rows), so ratios tie,
// at zero and elsewhere (hundreds of rows of a box stack reach zero at the
// same step, their ratios equal to 1e-9 relative). Letting the noise decide
// those ties follows it into nearly singular bases (pivots of 1e-10 relative,
// B^-1 growing to 1e10) until the basis loses feasibility or a false ray
// appears (a slip row leaving instead of the normal row it is proportional
// to). So (PivotRules):
//   - qbar_i below `degenerate` counts as exactly zero in the ratio test;
//   - ratios within `tie` (relative) of the least are ties: the step may be
//     that much longer than the exact least ratio (a Harris-type tolerance),
//     leaving basic values negative at that level; the polish on the original
//     data removes them;
//   - pivots below `pivot` (relative to the column) are never taken;
//   - ties are broken by the perturbation q + eps r + eps^2 e_1 + eps^3 e_2 ...
//     with a fixed pseudo-random r in [0.5, 1.5): first on pbar = B^-1 r
//     (rows pbar_i / d_i), then on the columns of B^-1 in order (the classic
//     lexicographic rule, Cottle-Pang-Stone 4.9). The perturbed problem is
//     nondegenerate, so no basis repeats. r matters numerically: pbar_i > 0 on
//     a degenerate row, so a small d_i gives a large ratio and small pivots
//     are avoided, where e_1, e_2, ... would pick rows by index pattern.
//   z0 is preferred whenever it is among the tied rows (it ends the method).
#include "solvers/lemke_pivoting.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>

namespace pegsim::lemke_detail {
namespace {

constexpr double kLexTieTol = 1e-12;  // lexicographic comparisons closer than this (relative) tie
constexpr double kNegativeTol = 1e-6;  // qbar below -this (relative): the basis went infeasible

// The perturbation direction r: deterministic, pseudo-random in [0.5, 1.5)
// (xorshift64 from the seed), so that symmetric contacts do not tie on it.
void perturbation(int n, std::uint64_t seed, VecX& r) {
  r.resize(n);
  std::uint64_t x = 0x9E3779B97F4A7C15ull ^ (seed * 0xD1B54A32D192ED03ull);
  if (x == 0) x = 1;
  for (int i = 0; i < n; ++i) {
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    r(i) = 0.5 + static_cast<double>(x >> 11) * 0x1.0p-53;
  }
}

class Tableau {
 public:
  Tableau(const ScaledMatrix& M, const VecX& q, const PivotRules& rules, PivotWorkspace& w)
      : M_(M), rules_(rules), n_(static_cast<int>(q.size())), z0_(2 * n_), binv_(w.binv), qbar_(w.qbar),
        pbar_(w.pbar), basis_(w.basis), row_of_(w.row_of), dense_(w.dense), dense_slot_(w.dense_slot),
        store_(w.store), free_(w.free), ties_(w.ties), d_(w.d), a_(w.a) {
    // storage of an earlier path is reused as it is (its column count only
    // decides when add_dense grows it, never which column a variable gets)
    if (binv_.rows() != n_ || binv_.cols() < std::min(n_, 32)) binv_.resize(n_, std::min(n_, 32));
    qbar_ = q;
    perturbation(n_, rules.seed, pbar_);
    basis_.resize(static_cast<std::size_t>(n_));
    row_of_.assign(static_cast<std::size_t>(2 * n_ + 1), -1);
    dense_.clear();
    dense_slot_.assign(static_cast<std::size_t>(n_), -1);
    store_.assign(static_cast<std::size_t>(n_), -1);
    free_.clear();
    ties_.clear();
    d_.resize(n_);
    a_.resize(n_);
    for (int i = 0; i < n_; ++i) basis_[i] = row_of_[i] = i;  // all w basic
  }

  int n() const { return n_; }
  int z0() const { return z0_; }
  int complement(int var) const { return var < n_ ? var + n_ : var - n_; }
  int stored_columns() const { return static_cast<int>(dense_.size()); }

  // The first pivot: z0 enters; the row that needs the most z0 leaves
  // (q + c z0 >= 0 with c = ones). Ties go to the least r_i, then the largest
  // index: that keeps every row of [qbar | pbar | Binv] lexicographically
  // positive afterwards.
  int first_leaving_row() const {
    int r = 0;
    for (int i = 1; i < n_; ++i)
      if (qbar_(i) < qbar_(r) || (qbar_(i) == qbar_(r) && pbar_(i) <= pbar_(r))) r = i;
    return r;
  }

  // d = B^-1 a for the entering variable `var`.
  void form_column(int var) {
    if (var < n_) {  // w_j: a = e_j, so d is column j of Binv (dense: w_j nonbasic)
      d_ = binv_.col(store_[var]);
      return;
    }
    if (var == z0_)
      a_.setConstant(-1.0);
    else
      M_.negated_column(var - n_, a_);
    apply_inverse(a_, d_);
  }

  // Minimum-ratio test on the current column, ties broken as in the header
  // comment. Returns the leaving row, -1 when nothing blocks (a ray), -2 when
  // the basis has lost feasibility (numerical trouble).
  int ratio_test() {
    const double dmax = d_.cwiseAbs().maxCoeff();
    const double piv_tol = rules_.pivot * std::max(1.0, dmax);
    const double qmax = std::max(1.0, qbar_.cwiseAbs().maxCoeff());
    const double degenerate = rules_.degenerate * qmax;
    auto level = [&](int i) { return qbar_(i) <= degenerate ? 0.0 : qbar_(i); };
    double theta = std::numeric_limits<double>::infinity();
    for (int i = 0; i < n_; ++i) {
      if (qbar_(i) < -kNegativeTol * qmax) return -2;
      if (d_(i) > piv_tol) theta = std::min(theta, level(i) / d_(i));
    }
    if (!std::isfinite(theta)) return -1;
    const double tie = rules_.tie * theta + rules_.tie_absolute;
    ties_.clear();
    int r = -1;
    for (int i = 0; i < n_ && r < 0; ++i) {
      if (d_(i) <= piv_tol || level(i) / d_(i) > theta + tie) continue;
      if (basis_[i] == z0_) r = i;  // z0 can leave: finish
      ties_.push_back(i);
    }
    if (r < 0) {
      // The eps r term, then the eps^(k+2) terms: the columns of B^-1 in order.
      keep_least_ratio([&](int i) { return pbar_(i); }, 1e-9);
      for (int k = 0; k < n_ && ties_.size() > 1; ++k)
        keep_least_ratio([&](int i) { return inverse_entry(i, k); }, kLexTieTol);
      // Exact lexicographic ties cannot happen for a nonsingular B; with
      // rounding they can: take the largest pivot.
      r = *std::max_element(ties_.begin(), ties_.end(),
                            [&](int i, int j) { return d_(i) < d_(j); });
    }
    return r;
  }

  // Pivot `entering` in on row r, with its column in d_. Returns the leaving variable.
  int pivot(int r, int entering) {
    const double piv = d_(r);
    const double theta = qbar_(r) / piv;
    qbar_.noalias() -= theta * d_;
    qbar_(r) = theta;
    const double ptheta = pbar_(r) / piv;
    pbar_.noalias() -= ptheta * d_;
    pbar_(r) = ptheta;
    const int leaving = basis_[r];
    for (int k : dense_) {
      if (k == entering) continue;
      auto col = binv_.col(store_[k]);
      const double rk = col(r) / piv;
      if (rk == 0.0) continue;
      col.noalias() -= rk * d_;
      col(r) = rk;
    }
    if (leaving < n_) {  // w_leaving's column was e_r: it becomes dense
      add_dense(leaving);
      auto col = binv_.col(store_[leaving]);
      col = d_ * (-1.0 / piv);
      col(r) = 1.0 / piv;
    }
    if (entering < n_) remove_dense(entering);  // w_entering basic at row r: its column is e_r
    basis_[r] = entering;
    row_of_[entering] = r;
    row_of_[leaving] = -1;
    return leaving;
  }

  // The basic z variables and their values (negatives clamped).
  void read_solution(PivotRun& run) const {
    run.z.setZero(n_);
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
    run.ray.setZero(n_);
    if (entering >= n_ && entering < z0_) run.ray(entering - n_) = 1.0;
    for (int i = 0; i < n_; ++i)
      if (basis_[i] >= n_ && basis_[i] < z0_) run.ray(basis_[i] - n_) = -d_(i);
    read_solution(run);
    run.z.setZero();
  }

 private:
  // (B^-1)_ik: the stored column when w_k is nonbasic, else e_(row of w_k).
  double inverse_entry(int i, int k) const {
    return store_[k] >= 0 ? binv_(i, store_[k]) : (row_of_[k] == i ? 1.0 : 0.0);
  }

  // out = B^-1 a, with the unit columns of Binv implicit.
  void apply_inverse(const VecX& a, VecX& out) const {
    out.setZero(n_);
    for (int k : dense_)
      if (a(k) != 0.0) out.noalias() += a(k) * binv_.col(store_[k]);
    for (int i = 0; i < n_; ++i)
      if (basis_[i] < n_) out(i) += a(basis_[i]);
  }

  // Keeps the tied rows whose value(i) / d_i is least (within a relative tolerance).
  template <class Value>
  void keep_least_ratio(Value value, double tolerance) {
    if (ties_.size() < 2) return;
    double vmin = std::numeric_limits<double>::infinity();
    for (int i : ties_) vmin = std::min(vmin, value(i) / d_(i));
    const double cut = vmin + tolerance * (1.0 + std::abs(vmin));
    std::erase_if(ties_, [&](int i) { return value(i) / d_(i) > cut; });
  }

  // w_k nonbasic: a storage column for its column of B^-1 (storage grows
  // as the basis takes in z variables; freed columns are reused).
  void add_dense(int k) {
    if (free_.empty()) {
      if (used_ == binv_.cols())
        binv_.conservativeResize(n_, std::min<Eigen::Index>(n_, 2 * used_ + 1));
      free_.push_back(used_++);
    }
    store_[k] = free_.back();
    free_.pop_back();
    dense_slot_[k] = static_cast<int>(dense_.size());
    dense_.push_back(k);
  }
  void remove_dense(int k) {
    const int slot = dense_slot_[k];
    dense_[slot] = dense_.back();
    dense_slot_[dense_[slot]] = slot;
    dense_.pop_back();
    dense_slot_[k] = -1;
    free_.push_back(store_[k]);
    store_[k] = -1;
  }

  const ScaledMatrix& M_;
  PivotRules rules_;
  int n_;
  int z0_;
  // the storage lives in a PivotWorkspace
  MatX& binv_;  // B^-1's columns of the nonbasic w (see store_); the others are unit vectors
  VecX& qbar_;
  VecX& pbar_;                    // B^-1 r: the first-order perturbation term
  std::vector<int>& basis_;       // variable basic in each row
  std::vector<int>& row_of_;      // row of each basic variable, -1 when nonbasic
  std::vector<int>& dense_;       // columns of Binv of the nonbasic w variables
  std::vector<int>& dense_slot_;  // position in dense_, -1 when absent
  std::vector<int>& store_;       // column of binv_ holding w_k's column of B^-1, -1 when none
  std::vector<int>& free_;        // unused columns of binv_
  int used_ = 0;                  // columns of binv_ ever handed out
  std::vector<int>& ties_;
  VecX& d_;
  VecX& a_;
};

// Work budget of one path, in multiply-adds: a pivot and the next column
// cost about n (k + 2), k the stored columns of B^-1 (the z variables in the
// basis). The pivot limit alone (10 n + 10) allows O(n^3) per path, and
// lemke.cpp runs up to six paths per solve (the default rules, the second
// rules, four rungs): at n = 1000 (a 10-box stack under the standard model,
// 110 contacts) a failing solve took tens of seconds, and `pegsim bench` over
// 400 such steps did not finish (issue 17).
// 4e8 multiply-adds (about 0.3 s) bound a path deterministically (no clock);
// solves that succeed need n / 10 .. 2 n pivots, 1e8 at n = 400.
constexpr double kPathWork = 4e8;

// z0 enters, then complementary pivots until z0 leaves, a ray, trouble, the
// pivot limit or the work budget.
void follow_path(Tableau& t, int max_pivots, const SolveDeadline* deadline, PivotRun& run) {
  double work = 0.0;
  int entering = t.z0();
  t.form_column(entering);
  int leaving = t.pivot(t.first_leaving_row(), entering);
  ++run.pivots;
  for (;;) {
    entering = t.complement(leaving);
    t.form_column(entering);
    const int r = t.ratio_test();
    if (r == -1) {
      run.outcome = PivotOutcome::Ray;
      run.message = "secondary ray";
      t.read_ray(entering, run);
      return;
    }
    if (r == -2) {
      run.outcome = PivotOutcome::NumericalTrouble;
      run.message = "the basis lost feasibility (rounding)";
      t.read_solution(run);
      return;
    }
    if (run.pivots >= max_pivots) {
      run.outcome = PivotOutcome::PivotLimit;
      run.message = "pivot limit " + std::to_string(max_pivots) + " reached";
      t.read_solution(run);
      return;
    }
    work += static_cast<double>(t.n()) * static_cast<double>(t.stored_columns() + 2);
    if (work > kPathWork) {
      run.outcome = PivotOutcome::PivotLimit;
      run.message = "work budget reached after " + std::to_string(run.pivots) + " pivots";
      t.read_solution(run);
      return;
    }
    if (deadline && deadline->expired()) {
      run.outcome = PivotOutcome::PivotLimit;
      run.message = "time budget spent after " + std::to_string(run.pivots) + " pivots";
      t.read_solution(run);
      return;
    }
    leaving = t.pivot(r, entering);
    ++run.pivots;
    if (leaving == t.z0()) {
      run.outcome = PivotOutcome::Solution;
      t.read_solution(run);
      return;
    }
  }
}

}  // namespace

PivotRun complementary_pivoting(const ScaledMatrix& M, const VecX& q, const PivotRules& rules,
                               int max_pivots) {
  PivotWorkspace workspace;
  PivotRun run;
  complementary_pivoting(M, q, rules, max_pivots, workspace, run);
  return run;
}

void complementary_pivoting(const ScaledMatrix& M, const VecX& q, const PivotRules& rules, int max_pivots,
                            PivotWorkspace& workspace, PivotRun& run) {
  run.outcome = PivotOutcome::NumericalTrouble;
  run.pivots = 0;
  run.ray.resize(0);
  run.active.clear();
  run.message.clear();
  const int n = static_cast<int>(q.size());
  if (n == 0 || q.minCoeff() >= 0.0) {  // z = 0, w = q is a solution
    run.outcome = PivotOutcome::Solution;
    run.z.setZero(n);
    return;
  }
  Tableau t(M, q, rules, workspace);
  follow_path(t, max_pivots, rules.deadline, run);
}

}  // namespace pegsim::lemke_detail
