// Elimination of the Free rows of an MLCP (see free_rows.hpp).
#include "solvers/free_rows.hpp"

#include "solvers/solver_common.hpp"

namespace pegsim::solver_detail {

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
  const int nf = static_cast<int>(e.free.size());
  const int nb = static_cast<int>(e.bounded.size());
  MatX A_FF(nf, nf), A_NF(nb, nf), A_NN(nb, nb);
  e.A_FN.resize(nf, nb);
  e.b_F.resize(nf);
  VecX b_N(nb);
  for (int c = 0; c < nf; ++c) {
    for (int r = 0; r < nf; ++r) A_FF(r, c) = p.A(e.free[r], e.free[c]);
    for (int r = 0; r < nb; ++r) A_NF(r, c) = p.A(e.bounded[r], e.free[c]);
    e.b_F(c) = p.b(e.free[c]);
  }
  for (int c = 0; c < nb; ++c) {
    for (int r = 0; r < nf; ++r) e.A_FN(r, c) = p.A(e.free[r], e.bounded[c]);
    for (int r = 0; r < nb; ++r) A_NN(r, c) = p.A(e.bounded[r], e.bounded[c]);
    b_N(c) = p.b(e.bounded[c]);
  }
  LcpProblem& q = e.reduced;
  q.role.clear();
  q.contact_of.clear();
  if (nf > 0) {
    e.lu.compute(A_FF);
    if (!(e.lu.rcond() >= 1e-12)) {
      e.issue = "the Free rows' block A_FF is singular";
      return e;
    }
    q.A = A_NN - A_NF * e.lu.solve(e.A_FN);
    q.b = b_N - A_NF * e.lu.solve(e.b_F);
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
  return e;
}

VecX FreeRowElimination::expand(const VecX& z_bounded) const {
  const int n = static_cast<int>(free.size() + bounded.size());
  VecX z = VecX::Zero(n);
  for (std::size_t k = 0; k < bounded.size(); ++k) z(bounded[k]) = z_bounded(static_cast<Eigen::Index>(k));
  if (!free.empty()) {
    const VecX z_F = -lu.solve(A_FN * z_bounded + b_F);
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
