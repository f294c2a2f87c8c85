// Block Gauss-Seidel sweeps with exact contact blocks (see lemke_sweep.hpp).
#include "solvers/lemke_sweep.hpp"

#include "solvers/lemke_active_set.hpp"
#include "solvers/lemke_pivoting.hpp"
#include "solvers/solver_common.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace pegsim::lemke_detail {

bool solve_small_lcp(const MatX& M, const VecX& q, VecX& z) {
  SmallLcpWorkspace workspace;
  return solve_small_lcp(M, q, z, workspace);
}

bool solve_small_lcp(const MatX& M, const VecX& q, VecX& z, SmallLcpWorkspace& w) {
  const int k = static_cast<int>(q.size());
  z.setZero(k);
  if (k == 0 || q.minCoeff() >= 0.0) return true;
  equilibration(M, w.D, w.row, w.col, w.rest);
  const VecX& D = w.D;
  double alpha = std::numeric_limits<double>::min();
  for (int j = 0; j < k; ++j)
    alpha = std::max(alpha, M.col(j).cwiseAbs().cwiseProduct(D).maxCoeff() * D(j));
  VecX& qs = w.qs;
  qs = D.cwiseProduct(q);
  const double beta = qs.cwiseAbs().maxCoeff() / alpha;
  qs /= alpha * beta;
  PivotRun& run = w.run;
  complementary_pivoting(ScaledMatrix{M, D, 1.0 / alpha, 0.0}, qs, PivotRules::strict(), 50 * k + 10, w.pivoting,
                         run);
  if (run.outcome != PivotOutcome::Solution || !run.z.allFinite()) return false;
  z = beta * D.cwiseProduct(run.z);
  return true;
}

template <class Matrix>
void BlockSweeper<Matrix>::assign(const Matrix& A) {
  A_ = &A;
  const LcpProblem& p = A.problem();
  const int n = p.size();
  const ContactLayout* layout = contact_layout(p, layout_, why_);
  if (!layout) layout = &layout_;  // roles without eq. 6.1's form: every row on its own
  rows_.clear();
  starts_.assign(1, 0);
  for (int i = 0; i < n; ++i) {
    const int k = layout->contact_at.empty() ? -1 : layout->contact_at[static_cast<std::size_t>(i)];
    if (k >= 0) {
      const ContactRows& c = layout->contacts[static_cast<std::size_t>(k)];
      if (i != c.normal) continue;  // a member row: swept with its contact's block
      rows_.push_back(c.normal);
      rows_.insert(rows_.end(), layout->friction.begin() + c.friction_begin, layout->friction.begin() + c.friction_end);
      rows_.push_back(c.slip);
    } else if (A.diagonal(i) > 0.0) {
      rows_.push_back(i);
    } else {
      continue;
    }
    starts_.push_back(static_cast<int>(rows_.size()));
  }
  // room for every block's A_bb up front: which blocks a solve visits changes
  // from step to step, their total does not while the contact set stays
  std::size_t room = 0;
  for (std::size_t b = 0; b + 1 < starts_.size(); ++b) {
    const auto k = static_cast<std::size_t>(starts_[b + 1] - starts_[b]);
    room += k * k;
  }
  stored_.clear();
  stored_.reserve(room);
  stored_at_.assign(starts_.size() - 1, -1);
}

template <class Matrix>
double* BlockSweeper<Matrix>::block_matrix(std::size_t b) const {
  const int* block = rows_.data() + starts_[b];
  const int k = starts_[b + 1] - starts_[b];
  if (stored_at_[b] < 0) {
    stored_at_[b] = static_cast<int>(stored_.size());
    stored_.resize(stored_.size() + static_cast<std::size_t>(k * k));
    A_->block(block, k, stored_.data() + stored_at_[b]);
  }
  return stored_.data() + stored_at_[b];
}

template <class Matrix>
void BlockSweeper<Matrix>::sweep(VecX& z, VecX& w, double skip_below) const {
  const Matrix& A = *A_;
  MatX& Mb = Mb_;
  VecX& qb = qb_;
  VecX& zb = zb_;
  for (std::size_t b = 0; b + 1 < starts_.size(); ++b) {
    const int* block = rows_.data() + starts_[b];
    const int k = starts_[b + 1] - starts_[b];
    double violation = 0.0;
    for (int r = 0; r < k; ++r) {
      const int i = block[r];
      violation = std::max({violation, -z(i), -w(i), std::abs(std::min(z(i), w(i)))});
    }
    if (violation <= skip_below) continue;
    if (k == 1) {
      const int i = block[0];
      const double dz = std::max(0.0, z(i) - w(i) / A.diagonal(i)) - z(i);
      if (dz != 0.0) {
        A.add_column(i, dz, w);
        z(i) += dz;
      }
      continue;
    }
    Mb.resize(k, k);
    qb.resize(k);
    double* stored = block_matrix(b);  // A_bb, read from A on the block's first visit
    for (int c = 0; c < k; ++c)
      for (int r = 0; r < k; ++r) Mb(r, c) = stored[c * k + r];
    for (int r = 0; r < k; ++r) {
      qb(r) = w(block[r]);
      for (int c = 0; c < k; ++c) qb(r) -= Mb(r, c) * z(block[c]);
    }
    if (!solve_small_lcp(Mb, qb, zb, small_)) continue;
    dz_.resize(static_cast<std::size_t>(k));
    for (int c = 0; c < k; ++c) {
      dz_[static_cast<std::size_t>(c)] = zb(c) - z(block[c]);
      z(block[c]) = zb(c);
    }
    A.add_columns(block, dz_.data(), k, w);
  }
}

template class BlockSweeper<solver_detail::DenseMatrix>;
template class BlockSweeper<solver_detail::StructuredMatrix>;

}  // namespace pegsim::lemke_detail
