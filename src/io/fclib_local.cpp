#include "io/fclib_local.hpp"

#include <cmath>

namespace pegsim {
namespace {

// the contact's linear direction of a row: its body B part (+d) or, when B is
// static, its body A part (-d); the same slot for every row of one contact
Vec3 linear_part(const JacobianRow& row, bool use_b) { return use_b ? Vec3(row.jb.head<3>()) : Vec3(row.ja.head<3>()); }

JacobianRow combine(const JacobianRow& dj, double a, const JacobianRow& d1, double s) {
  JacobianRow t = dj;
  t.ja = (dj.ja - a * d1.ja) / s;
  t.jb = (dj.jb - a * d1.jb) / s;
  return t;
}

// W_ij = H_i M^-1 H_j' over the bodies the rows share (symmetric: upper half, mirrored)
MatX delassus(const std::vector<JacobianRow>& h, const std::vector<Mat6>& minv) {
  const int m = static_cast<int>(h.size());
  MatX W = MatX::Zero(m, m);
  auto apply = [&](std::uint32_t body, const Vec6& j) -> Vec6 {
    return body < minv.size() ? Vec6(minv[body] * j) : Vec6(Vec6::Zero());
  };
  for (int i = 0; i < m; ++i)
    for (int j = i; j < m; ++j) {
      double v = 0.0;
      for (int side_i = 0; side_i < 2; ++side_i)
        for (int side_j = 0; side_j < 2; ++side_j) {
          const std::uint32_t bi = side_i ? h[i].body_b : h[i].body_a;
          const std::uint32_t bj = side_j ? h[j].body_b : h[j].body_a;
          if (bi == kNoBody || bi != bj) continue;
          v += (side_i ? h[i].jb : h[i].ja).dot(apply(bj, side_j ? h[j].jb : h[j].ja));
        }
      W(i, j) = v;
      W(j, i) = v;
    }
  return W;
}

SparseCsc compress(const MatX& W) {
  SparseCsc s;
  s.m = static_cast<int>(W.rows());
  s.n = static_cast<int>(W.cols());
  s.p.push_back(0);
  for (int c = 0; c < s.n; ++c) {
    for (int r = 0; r < s.m; ++r)
      if (W(r, c) != 0.0) {
        s.i.push_back(r);
        s.x.push_back(W(r, c));
      }
    s.p.push_back(static_cast<std::int32_t>(s.x.size()));
  }
  return s;
}

}  // namespace

MatX SparseCsc::dense() const {
  MatX out = MatX::Zero(m, n);
  for (int c = 0; c < n; ++c)
    for (std::int32_t k = p[c]; k < p[c + 1]; ++k) out(i[k], c) = x[k];
  return out;
}

bool make_fclib_local(const LcpProblem& lcp, int spacedim, FclibLocal& out, std::string& why) {
  const int n = lcp.size();
  const LcpStructure& st = lcp.structure;
  auto reject = [&](std::string text) {
    why = std::move(text);
    return false;
  };
  if (spacedim != 2 && spacedim != 3) return reject("spacedim must be 2 or 3");
  if (st.empty() || static_cast<int>(st.rows.size()) != n) return reject("no Jacobian rows (LcpStructure)");
  if (static_cast<int>(lcp.role.size()) != n || static_cast<int>(lcp.contact_of.size()) != n)
    return reject("rows without roles or contacts");
  if (!lcp.is_pure_lcp()) return reject("Free (bilateral) rows");
  for (const JacobianRow& x : st.measures)
    if (x.body_a != kNoBody || x.body_b != kNoBody) return reject("PEG rows that measure other sub-contacts (R != G)");

  // per contact: its friction rows and slip row, in row order
  std::vector<std::vector<int>> friction(n);
  std::vector<int> slip(n, -1);
  out = FclibLocal{};
  out.spacedim = spacedim;
  for (int r = 0; r < n; ++r) {
    const RowRole role = lcp.role[r];
    const int c = lcp.contact_of[r];
    if (role == RowRole::Normal) out.normal_row.push_back(r);
    else if (role == RowRole::Friction && c >= 0 && lcp.role[c] == RowRole::Normal) friction[c].push_back(r);
    else if (role == RowRole::Slip && c >= 0 && lcp.role[c] == RowRole::Normal) slip[c] = r;
    else return reject("row " + std::to_string(r) + " is not a Stewart-Trinkle normal, friction or slip row");
  }
  // mu: the U entry (slip row, normal column) of eq. 6.1
  std::vector<double> mu(n, -1.0);
  for (const LcpStructure::Entry& e : st.coupling)
    if (e.row >= 0 && e.row < n && e.col >= 0 && e.col < n && e.row == slip[e.col]) mu[e.col] = e.value;

  std::vector<JacobianRow> h;
  for (int c : out.normal_row) {
    const std::vector<int>& f = friction[c];
    if (f.size() < 2 || slip[c] < 0 || mu[c] < 0.0)
      return reject("contact of row " + std::to_string(c) + " has no friction rows (mu = 0?)");
    const JacobianRow& d1 = st.rows[f[0]];
    const bool use_b = d1.body_b != kNoBody;
    if (!use_b && d1.body_a == kNoBody) return reject("friction row " + std::to_string(f[0]) + " has no body");
    h.push_back(st.rows[c]);
    h.push_back(d1);
    out.q.push_back(lcp.b(c));
    out.q.push_back(lcp.b(f[0]));
    if (spacedim == 3) {
      // t2: the direction farthest from parallel to d_1, its part orthogonal to d_1
      const Vec3 l1 = linear_part(d1, use_b);
      int best = -1;
      double best_sin = 0.0, best_cos = 0.0;
      for (std::size_t k = 1; k < f.size(); ++k) {
        const Vec3 lk = linear_part(st.rows[f[k]], use_b);
        const double a = lk.dot(l1);
        const double s = (lk - a * l1).norm();
        if (s > best_sin) best = f[k], best_sin = s, best_cos = a;
      }
      if (best < 0 || best_sin < 0.1) return reject("contact of row " + std::to_string(c) + ": friction directions are parallel");
      h.push_back(combine(st.rows[best], best_cos, d1, best_sin));
      out.q.push_back((lcp.b(best) - best_cos * lcp.b(f[0])) / best_sin);
    }
    out.mu.push_back(mu[c]);
  }
  out.contacts = static_cast<int>(out.normal_row.size());
  if (out.contacts == 0) return reject("no contacts");
  out.W = compress(delassus(h, st.inverse_mass));
  return true;
}

}  // namespace pegsim
