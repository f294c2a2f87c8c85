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

BlockSweeper::BlockSweeper(const LcpProblem& p) : p_(p) {
  const int n = p.size();
  ContactLayout scratch;
  std::string why;
  const ContactLayout* layout = contact_layout(p, scratch, why);
  if (!layout) layout = &scratch;  // roles without eq. 6.1's form: every row on its own
  starts_.push_back(0);
  for (int i = 0; i < n; ++i) {
    const int k = layout->contact_at.empty() ? -1 : layout->contact_at[static_cast<std::size_t>(i)];
    if (k >= 0) {
      const ContactRows& c = layout->contacts[static_cast<std::size_t>(k)];
      if (i != c.normal) continue;  // a member row: swept with its contact's block
      rows_.push_back(c.normal);
      rows_.insert(rows_.end(), layout->friction.begin() + c.friction_begin, layout->friction.begin() + c.friction_end);
      rows_.push_back(c.slip);
    } else if (p.A(i, i) > 0.0) {
      rows_.push_back(i);
    } else {
      continue;
    }
    starts_.push_back(static_cast<int>(rows_.size()));
  }
}

void BlockSweeper::sweep(VecX& z, VecX& w, double skip_below) const {
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
      const double dz = std::max(0.0, z(i) - w(i) / p_.A(i, i)) - z(i);
      if (dz != 0.0) {
        w.noalias() += dz * p_.A.col(i);
        z(i) += dz;
      }
      continue;
    }
    Mb.resize(k, k);
    qb.resize(k);
    for (int c = 0; c < k; ++c)
      for (int r = 0; r < k; ++r) Mb(r, c) = p_.A(block[r], block[c]);
    for (int r = 0; r < k; ++r) {
      qb(r) = w(block[r]);
      for (int c = 0; c < k; ++c) qb(r) -= Mb(r, c) * z(block[c]);
    }
    if (!solve_small_lcp(Mb, qb, zb, small_)) continue;
    for (int c = 0; c < k; ++c) {
      const double dz = zb(c) - z(block[c]);
      if (dz == 0.0) continue;
      w.noalias() += dz * p_.A.col(block[c]);
      z(block[c]) = zb(c);
    }
  }
}

}  // namespace pegsim::lemke_detail
