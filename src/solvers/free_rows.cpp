// Elimination of the Free rows of an MLCP (see free_rows.hpp).
#include "solvers/free_rows.hpp"

#include "solvers/solver_common.hpp"

#include <algorithm>

namespace pegsim::solver_detail {
namespace {

constexpr double kMinRcond = 1e-12;   // A_FF accepted by its LU above this
constexpr double kDependent = 1e-10;  // complete-pivoting LU: pivots below this (relative) are zero

MatX gather(const MatX& A, const std::vector<int>& rows, const std::vector<int>& cols) {
  MatX m(rows.size(), cols.size());
  for (std::size_t c = 0; c < cols.size(); ++c)
    for (std::size_t r = 0; r < rows.size(); ++r) m(r, c) = A(rows[r], cols[c]);
  return m;
}

}  // namespace

FreeRowElimination eliminate_free_rows(const LcpProblem& p) {
  FreeRowElimination e;
  const int n = p.size();
  std::vector<int> index(n, -1);  // row -> position in N
  for (int i = 0; i < n; ++i) {
    if (is_free(p, i)) {
      e.free.push_back(i);
    } else {
      index[i] = static_cast<int>(e.bounded.size());
      e.bounded.push_back(i);
    }
  }
  // dependent Free rows (redundant joints): the independent columns of A_FF
  // stay, the others get z = 0 and leave F
  if (!e.free.empty()) {
    const MatX A_FF = gather(p.A, e.free, e.free);
    if (!(Eigen::PartialPivLU<MatX>(A_FF).rcond() >= kMinRcond)) {
      Eigen::FullPivLU<MatX> full;
      full.setThreshold(kDependent);
      full.compute(A_FF);
      std::vector<int> kept;
      for (int k = 0; k < full.rank(); ++k) kept.push_back(e.free[full.permutationQ().indices()(k)]);
      std::sort(kept.begin(), kept.end());
      for (int i : e.free)
        if (!std::binary_search(kept.begin(), kept.end(), i)) e.dropped.push_back(i);
      e.free.swap(kept);
    }
  }
  const MatX A_NN = gather(p.A, e.bounded, e.bounded);
  VecX b_N(e.bounded.size());
  for (std::size_t k = 0; k < e.bounded.size(); ++k) b_N(k) = p.b(e.bounded[k]);
  LcpProblem& q = e.reduced;
  if (!e.free.empty()) {
    e.lu.compute(gather(p.A, e.free, e.free));
    if (!(e.lu.rcond() >= kMinRcond)) {
      e.issue = "the Free rows' block A_FF is singular";
      return e;
    }
    e.A_FN = gather(p.A, e.free, e.bounded);
    e.b_F.resize(e.free.size());
    for (std::size_t k = 0; k < e.free.size(); ++k) e.b_F(k) = p.b(e.free[k]);
    if (e.bounded.empty()) {  // Free rows only: nothing left to complement (and no 0-column product)
      q.A = A_NN;
      q.b = b_N;
    } else {
      const MatX A_NF = gather(p.A, e.bounded, e.free);
      q.A = A_NN - A_NF * e.lu.solve(e.A_FN);
      q.b = b_N - A_NF * e.lu.solve(e.b_F);
    }
  } else {
    q.A = A_NN;
    q.b = b_N;
  }
  if (!q.A.allFinite() || !q.b.allFinite()) {
    e.issue = "the Schur complement of A_FF is not finite";
    return e;
  }
  if (!p.role.empty())
    for (int i : e.bounded) q.role.push_back(p.role[i]);
  if (!p.contact_of.empty())
    for (int i : e.bounded) q.contact_of.push_back(p.contact_of[i] >= 0 ? index[p.contact_of[i]] : -1);
  // the reduced problem's contact blocks, derived once here rather than by
  // each piece of the solver that reads them (a failed derivation leaves none)
  std::string why;
  if (!contact_layout(q, q.layout, why)) q.layout = ContactLayout{};
  return e;
}

VecX FreeRowElimination::expand(const VecX& z_bounded) const {
  const int n = static_cast<int>(free.size() + dropped.size() + bounded.size());
  VecX z = VecX::Zero(n);  // dropped Free rows: 0
  for (std::size_t k = 0; k < bounded.size(); ++k) z(bounded[k]) = z_bounded(static_cast<Eigen::Index>(k));
  if (!free.empty()) {
    const VecX z_F = bounded.empty() ? VecX(-lu.solve(b_F)) : VecX(-lu.solve(A_FN * z_bounded + b_F));
    for (std::size_t k = 0; k < free.size(); ++k) z(free[k]) = z_F(static_cast<Eigen::Index>(k));
  }
  return z;
}

VecX FreeRowElimination::restrict_to_bounded(const VecX& z) const {
  VecX z_bounded(static_cast<Eigen::Index>(bounded.size()));
  for (std::size_t k = 0; k < bounded.size(); ++k) z_bounded(static_cast<Eigen::Index>(k)) = z(bounded[k]);
  return z_bounded;
}

}  // namespace pegsim::solver_detail
