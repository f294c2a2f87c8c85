// The velocity engine of PGS (see pgs.hpp): rows of A = G'M^-1G + C worked on
// through u = M^-1 G z, never through A.
//
//   w_i = G_i' u + b_i + (C z)_i,  G_i' u = ja . u_a + jb . u_b   (eq. 2.26)
//   z_i += dz   =>   u_a += dz M_a^-1 ja,  u_b += dz M_b^-1 jb     (eq. 2.30)
//   A_ij = sum over the bodies rows i and j share of j_i' M^-1 j_j (+ C_ij)
//
// The E entries (friction row, slip column) of a contact are left out of the
// sweep's C, since the contact update works on friction velocities without the
// slip term; the residuals use all of C.
#include "solvers/pgs.hpp"

#include <cmath>
#include <string>

namespace pegsim::pgs_detail {
namespace {

constexpr double kStructureTol = 1e-12;  // E, -E' entries: 1 within this
constexpr double kDiagonalTol = 1e-9;    // A_ii against the structure's, when A is given

bool near(double a, double b) { return std::abs(a - b) <= kStructureTol * (1.0 + std::abs(b)); }

}  // namespace

std::string StructuredRows::build(const LcpProblem& p, Schedule& s) {
  const LcpStructure& st = p.structure;
  const int n = p.size();
  if (static_cast<int>(st.rows.size()) != n)
    return "structure has " + std::to_string(st.rows.size()) + " Jacobian rows for " + std::to_string(n) +
           " variables";
  const std::size_t nb = st.inverse_mass.size();
  for (std::size_t b = 0; b < nb; ++b)
    if (!st.inverse_mass[b].allFinite()) return "inverse mass of body " + std::to_string(b) + " is not finite";
  const auto dummy = static_cast<std::uint32_t>(nb);

  // rows: bodies, Jacobians, M^-1 j, diagonal G_i'M^-1G_i
  rows_.assign(n, Row{});
  diag_.assign(n, 0.0);
  auto side = [&](std::uint32_t body, const Vec6& j, std::uint32_t& idx, Vec6& jj, Vec6& mj) {
    if (body == kNoBody) return true;
    if (body >= nb) return false;
    idx = body;
    jj = j;
    mj = st.inverse_mass[body] * j;
    return true;
  };
  for (int i = 0; i < n; ++i) {
    const JacobianRow& r = st.rows[i];
    Row& row = rows_[i];
    row.a = row.b = dummy;
    if (!side(r.body_a, r.ja, row.a, row.ja, row.ma) || !side(r.body_b, r.jb, row.b, row.jb, row.mb))
      return "row " + std::to_string(i) + " names a body outside the " + std::to_string(nb) + " inverse masses";
    if (!row.ja.allFinite() || !row.jb.allFinite()) return "row " + std::to_string(i) + " is not finite";
    if (s.contact_of_slip[i] >= 0 && !(row.ja.isZero(0.0) && row.jb.isZero(0.0)))
      return "slip row " + std::to_string(i) + " has a Jacobian row (eq. 6.1: A_ss = 0)";
  }
  auto entry = [&](int i, int j) {  // G_i'M^-1 G_j
    const Row& ri = rows_[i];
    const Row& rj = rows_[j];
    double v = 0.0;
    if (ri.a != dummy && ri.a == rj.a) v += ri.ja.dot(rj.ma);
    if (ri.a != dummy && ri.a == rj.b) v += ri.ja.dot(rj.mb);
    if (ri.b != dummy && ri.b == rj.a) v += ri.jb.dot(rj.ma);
    if (ri.b != dummy && ri.b == rj.b) v += ri.jb.dot(rj.mb);
    return v;
  };
  for (int i = 0; i < n; ++i) diag_[i] = entry(i, i);

  // C: the eq. 6.1 entries of each contact (U, E, -E') checked, the rest kept
  std::vector<int> friction_contact(n, -1), local(n, -1);
  for (std::size_t c = 0; c < s.contacts.size(); ++c)
    for (std::size_t k = 0; k < s.contacts[c].friction.size(); ++k) {
      friction_contact[s.contacts[c].friction[k]] = static_cast<int>(c);
      local[s.contacts[c].friction[k]] = static_cast<int>(k);
    }
  std::vector<double> mu(s.contacts.size(), 0.0), e_row(n, 0.0), e_col(n, 0.0);
  std::vector<LcpStructure::Entry> rest;
  for (const LcpStructure::Entry& e : st.coupling) {
    if (e.row < 0 || e.row >= n || e.col < 0 || e.col >= n || !std::isfinite(e.value))
      return "coupling entry (" + std::to_string(e.row) + ", " + std::to_string(e.col) + ") out of range or not finite";
    const int cs = s.contact_of_slip[e.col];
    const int rs = s.contact_of_slip[e.row];
    if (cs >= 0) {
      if (friction_contact[e.row] != cs)
        return "C(" + std::to_string(e.row) + ", " + std::to_string(e.col) + ") in a slip column outside E (eq. 6.1)";
      e_col[e.row] += e.value;
    } else if (rs >= 0) {
      if (e.col == s.contacts[rs].normal) mu[rs] += e.value;
      else if (friction_contact[e.col] == rs) e_row[e.col] += e.value;
      else return "C(" + std::to_string(e.row) + ", " + std::to_string(e.col) + ") in a slip row outside U, -E' (eq. 6.1)";
    } else {
      rest.push_back(e);
      if (e.row == e.col) diag_[e.row] += e.value;
    }
  }
  for (std::size_t c = 0; c < s.contacts.size(); ++c) {
    ContactBlock& b = s.contacts[c];
    if (!(mu[c] >= 0.0)) return "negative friction coefficient at slip row " + std::to_string(b.slip);
    b.mu = mu[c];
    for (int f : b.friction)
      if (!near(e_col[f], 1.0) || !near(e_row[f], -1.0))
        return "slip row/column " + std::to_string(b.slip) + " lacks the E, -E' entries of eq. 6.1";
  }
  if (p.A.rows() == n && p.A.cols() == n)
    for (int i = 0; i < n; ++i)
      if (!(std::abs(p.A(i, i) - diag_[i]) <= kDiagonalTol * (1.0 + std::abs(p.A(i, i)))))
        return "A(" + std::to_string(i) + "," + std::to_string(i) + ") = " + std::to_string(p.A(i, i)) +
               " but the structure gives " + std::to_string(diag_[i]);

  // the sweep's C by row (counting sort)
  start_.assign(n + 1, 0);
  for (const LcpStructure::Entry& e : rest) ++start_[e.row + 1];
  for (int i = 0; i < n; ++i) start_[i + 1] += start_[i];
  col_.resize(rest.size());
  val_.resize(rest.size());
  std::vector<int> next(start_.begin(), start_.end() - 1);
  for (const LcpStructure::Entry& e : rest) {
    col_[next[e.row]] = e.col;
    val_[next[e.row]++] = e.value;
  }

  // friction blocks H = A_ff: the rows' shared bodies plus C within the block
  std::vector<MatX> H(s.contacts.size());
  for (std::size_t c = 0; c < s.contacts.size(); ++c) {
    const std::vector<int>& f = s.contacts[c].friction;
    const int m = static_cast<int>(f.size());
    H[c].resize(m, m);
    for (int k = 0; k < m; ++k)
      for (int l = 0; l < m; ++l) H[c](k, l) = entry(f[k], f[l]);
  }
  for (const LcpStructure::Entry& e : rest)
    if (friction_contact[e.row] >= 0 && friction_contact[e.row] == friction_contact[e.col])
      H[friction_contact[e.row]](local[e.row], local[e.col]) += e.value;
  for (std::size_t c = 0; c < s.contacts.size(); ++c) s.contacts[c].block.reset(H[c]);

  u_.assign(nb + 1, Vec6::Zero());
  b_ = &p.b;
  return {};
}

void StructuredRows::refresh(const LcpProblem& p, const VecX& z, VecX& w) {
  const int n = static_cast<int>(rows_.size());
  for (Vec6& u : u_) u.setZero();
  for (int i = 0; i < n; ++i)
    if (z(i) != 0.0) add(i, z(i));
  u_.back().setZero();
  w.resize(n);
  for (int i = 0; i < n; ++i) {
    const Row& r = rows_[i];
    w(i) = p.b(i) + r.ja.dot(u_[r.a]) + r.jb.dot(u_[r.b]);
  }
  for (const LcpStructure::Entry& e : p.structure.coupling) w(e.row) += e.value * z(e.col);
}

}  // namespace pegsim::pgs_detail
