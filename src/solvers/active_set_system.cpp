// The reduced system of an active set as a sparse augmented system over the
// bodies (see active_set.hpp): never A_JJ, never anything n x n.
#include "solvers/active_set.hpp"

#include "solvers/solver_common.hpp"

#include <Eigen/OrderingMethods>
#include <Eigen/SparseCore>
#include <Eigen/SparseLU>

#include <algorithm>
#include <cmath>

namespace pegsim::active_set_detail {

struct ReducedSystem::Impl {
  using Sparse = Eigen::SparseMatrix<double, Eigen::ColMajor, int>;
  Eigen::SparseLU<Sparse, Eigen::COLAMDOrdering<int>> lu;
  std::vector<int> rows;  // J
  VecX scale;             // D_J
  int body_unknowns = 0;  // 6 per body J touches
};

namespace {

// The body a row side names, or -1 for none (static bodies, slip and slack rows).
int body_index(std::uint32_t body, std::size_t bodies) {
  return body == kNoBody || body >= bodies ? -1 : static_cast<int>(body);
}

}  // namespace

VecX structure_diagonal(const LcpProblem& p) {
  const LcpStructure& st = p.structure;
  const std::size_t nb = st.inverse_mass.size();
  VecX d = VecX::Zero(p.size());
  for (int i = 0; i < p.size(); ++i) {
    const JacobianRow& r = st.rows[static_cast<std::size_t>(i)];
    if (const int a = body_index(r.body_a, nb); a >= 0) d(i) += r.ja.dot(st.inverse_mass[a] * r.ja);
    if (const int b = body_index(r.body_b, nb); b >= 0) d(i) += r.jb.dot(st.inverse_mass[b] * r.jb);
  }
  // two sides on one body (a row measuring a body against itself) add a cross term
  for (int i = 0; i < p.size(); ++i) {
    const JacobianRow& r = st.rows[static_cast<std::size_t>(i)];
    if (r.body_a == r.body_b && body_index(r.body_a, nb) >= 0)
      d(i) += 2.0 * r.ja.dot(st.inverse_mass[r.body_a] * r.jb);
  }
  // what a row measures beyond its own column (PEG's R - G) against that column
  const int measuring = std::min(p.size(), static_cast<int>(st.measures.size()));
  for (int i = 0; i < measuring; ++i) {
    const JacobianRow& x = st.measures[static_cast<std::size_t>(i)];
    const JacobianRow& r = st.rows[static_cast<std::size_t>(i)];
    for (const auto& [xbody, xj] : {std::pair{x.body_a, &x.ja}, std::pair{x.body_b, &x.jb}}) {
      const int b = body_index(xbody, nb);
      if (b < 0) continue;
      if (r.body_a == xbody) d(i) += xj->dot(st.inverse_mass[b] * r.ja);
      if (r.body_b == xbody) d(i) += xj->dot(st.inverse_mass[b] * r.jb);
    }
  }
  for (const LcpStructure::Entry& e : st.coupling)
    if (e.row == e.col) d(e.row) += e.value;
  return d;
}

VecX row_scaling(const LcpProblem& p, const ContactLayout& layout, const VecX& diagonal) {
  const int n = p.size();
  VecX D = VecX::Ones(n);
  for (int i = 0; i < n; ++i)
    if (diagonal(i) > 0.0) D(i) = 1.0 / std::sqrt(diagonal(i));
  // slip rows (A_ss = 0): their entries are mu and -1 against p_n and p_f, and
  // +1 in the friction rows: D_s = A_nn^1/2 keeps those near one
  for (const ContactRows& c : layout.contacts)
    if (!(diagonal(c.slip) > 0.0) && diagonal(c.normal) > 0.0) D(c.slip) = std::sqrt(diagonal(c.normal));
  return D;
}

bool ReducedSystem::factorize(const LcpProblem& p, const VecX& D, const std::vector<int>& J,
                              double regularization) {
  if (!impl_) impl_ = std::make_shared<Impl>();
  Impl& s = *impl_;
  const LcpStructure& st = p.structure;
  const std::size_t nb = st.inverse_mass.size();
  const int n = p.size();
  const int k = static_cast<int>(J.size());
  s.rows = J;
  s.scale.resize(k);
  for (int c = 0; c < k; ++c) s.scale(c) = D(J[c]);

  // bodies in the order J's rows first name them (deterministic)
  std::vector<int> local(nb, -1);
  int m = 0;
  for (int i : J) {
    const JacobianRow& r = st.rows[static_cast<std::size_t>(i)];
    for (std::uint32_t body : {r.body_a, r.body_b})
      if (const int b = body_index(body, nb); b >= 0 && local[b] < 0) local[b] = m++;
    if (const JacobianRow* x = st.measure(i))
      for (std::uint32_t body : {x->body_a, x->body_b})
        if (const int b = body_index(body, nb); b >= 0 && local[b] < 0) local[b] = m++;
  }
  s.body_unknowns = 6 * m;
  const int size = 6 * m + k;

  std::vector<Eigen::Triplet<double, int>> entries;
  entries.reserve(static_cast<std::size_t>(6 * m + 25 * k));
  for (int a = 0; a < 6 * m; ++a) entries.emplace_back(a, a, 1.0);
  for (int c = 0; c < k; ++c) {
    const int i = J[c];
    const int col = 6 * m + c;
    const JacobianRow& r = st.rows[static_cast<std::size_t>(i)];
    for (const auto& [body, g] : {std::pair{r.body_a, &r.ja}, std::pair{r.body_b, &r.jb}}) {
      const int b = body_index(body, nb);
      if (b < 0) continue;
      const Vec6 mg = st.inverse_mass[b] * (*g);
      for (int a = 0; a < 6; ++a) {
        if (mg(a) != 0.0) entries.emplace_back(6 * local[b] + a, col, -mg(a) * D(i));  // u - M^-1 G D y
        if ((*g)(a) != 0.0) entries.emplace_back(col, 6 * local[b] + a, D(i) * (*g)(a));  // D G' u
      }
    }
    if (const JacobianRow* x = st.measure(i))  // the row measures R' u = (G + R - G)' u
      for (const auto& [body, xj] : {std::pair{x->body_a, &x->ja}, std::pair{x->body_b, &x->jb}}) {
        const int b = body_index(body, nb);
        if (b < 0) continue;
        for (int a = 0; a < 6; ++a)
          if ((*xj)(a) != 0.0) entries.emplace_back(col, 6 * local[b] + a, D(i) * (*xj)(a));
      }
    entries.emplace_back(col, col, regularization);
  }
  std::vector<int> position(n, -1);
  for (int c = 0; c < k; ++c) position[J[c]] = c;
  for (const LcpStructure::Entry& e : st.coupling) {
    const int r = position[e.row], c = position[e.col];
    if (r >= 0 && c >= 0 && e.value != 0.0)
      entries.emplace_back(6 * m + r, 6 * m + c, D(e.row) * e.value * D(e.col));
  }
  Impl::Sparse K(size, size);
  K.setFromTriplets(entries.begin(), entries.end());
  K.makeCompressed();
  nonzeros_ = static_cast<int>(K.nonZeros());
  s.lu.analyzePattern(K);
  s.lu.factorize(K);
  return s.lu.info() == Eigen::Success;
}

bool ReducedSystem::correction(const VecX& r, VecX& dz) const {
  if (!impl_) return false;
  const Impl& s = *impl_;
  const int k = static_cast<int>(s.rows.size());
  VecX rhs = VecX::Zero(s.body_unknowns + k);
  for (int c = 0; c < k; ++c) rhs(s.body_unknowns + c) = -s.scale(c) * r(s.rows[c]);
  const VecX x = s.lu.solve(rhs);
  if (!x.allFinite()) return false;
  dz.setZero(r.size());
  for (int c = 0; c < k; ++c) dz(s.rows[c]) = s.scale(c) * x(s.body_unknowns + c);
  return true;
}

}  // namespace pegsim::active_set_detail
