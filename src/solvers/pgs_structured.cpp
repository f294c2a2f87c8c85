// The velocity engine of PGS (see pgs.hpp): rows of A = G'M^-1G + C worked on
// through u = M^-1 G z, never through A.
//
//   w_i = G_i' u + b_i + (C z)_i,  G_i' u = ja . u_a + jb . u_b   (eq. 2.26)
//   z_i += dz   =>   u_a += dz M_a^-1 ja,  u_b += dz M_b^-1 jb     (eq. 2.30)
//   A_ij = sum over the bodies rows i and j share of j_i' M^-1 j_j (+ C_ij)
//
// "never through A": A is read only to compare its diagonal with the
// structure's, when it is given (an O(n) check that the two describe the same
// problem). The eq. 6.1 entries of C (U, E, -E') are checked, not stored: the
// contact update works on friction velocities without the slip term, and slip
// rows are not swept; the residuals use all of C. Other entries of C (PEG's
// slack rows, thesis 4.7) stay in the sweep's rows, and keep them out of the
// subspace step. For the subspace step a contact's friction rows, when they
// share their bodies, also give two tangent rows K G_f' (pgs_friction.cpp).
#include "solvers/pgs.hpp"

#include <algorithm>
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
  bool symmetric = true;  // then A_ij = A_ji: friction blocks computed by halves
  for (std::size_t b = 0; b < nb; ++b) {
    if (!st.inverse_mass[b].allFinite()) return "inverse mass of body " + std::to_string(b) + " is not finite";
    symmetric = symmetric && st.inverse_mass[b].isApprox(st.inverse_mass[b].transpose(), 1e-14);
  }
  const auto dummy = static_cast<std::uint32_t>(nb);

  // rows: bodies, Jacobians, M^-1 j, diagonal G_i'M^-1G_i
  rows_.resize(n);
  diag_.resize(n);
  auto side = [&](std::uint32_t body, const Vec6& j, std::uint32_t& idx, Vec6& jj, Vec6& mj) {
    idx = body == kNoBody ? dummy : body;
    if (body == kNoBody) {
      jj.setZero();
      mj.setZero();
      return true;
    }
    if (body >= nb) return false;
    jj = j;
    mj.noalias() = st.inverse_mass[body] * j;
    return true;
  };
  for (int i = 0; i < n; ++i) {
    const JacobianRow& r = st.rows[i];
    Row& row = rows_[i];
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
  std::vector<int>& friction_contact = scratch_.friction_contact;
  std::vector<int>& local = scratch_.local;
  friction_contact.assign(n, -1);
  local.assign(n, -1);
  for (std::size_t c = 0; c < s.contacts.size(); ++c)
    for (std::size_t k = 0; k < s.contacts[c].friction.size(); ++k) {
      friction_contact[s.contacts[c].friction[k]] = static_cast<int>(c);
      local[s.contacts[c].friction[k]] = static_cast<int>(k);
    }
  std::vector<double>& mu = scratch_.mu;
  std::vector<double>& e_row = scratch_.e_row;
  std::vector<double>& e_col = scratch_.e_col;
  std::vector<LcpStructure::Entry>& rest = scratch_.rest;
  mu.assign(s.contacts.size(), 0.0);
  e_row.assign(n, 0.0);
  e_col.assign(n, 0.0);
  rest.clear();
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
  // what PEG's rows measure beyond their own column (R - G): x_i' M^-1 g_j
  // for every column j acting on the bodies of x_i, kept as entries of that C
  const int measuring = std::min(n, static_cast<int>(st.measures.size()));
  if (measuring > 0) by_body_.assign(st, n);
  for (int i = 0; i < measuring; ++i) {
    const JacobianRow& x = st.measures[static_cast<std::size_t>(i)];
    if ((x.body_a != kNoBody && x.body_a >= nb) || (x.body_b != kNoBody && x.body_b >= nb) || !x.ja.allFinite() ||
        !x.jb.allFinite())
      return "row " + std::to_string(i) + "'s measure names a body outside the inverse masses or is not finite";
    for (const auto& [body, xb] : {std::pair{x.body_a, &x.ja}, std::pair{x.body_b, &x.jb}}) {
      if (body == kNoBody) continue;
      for (int k = by_body_.start[body]; k < by_body_.start[body + 1]; ++k) {
        const auto& [j, g] = by_body_.rows[static_cast<std::size_t>(k)];
        const double v = xb->dot(st.inverse_mass[body] * g);
        if (v == 0.0) continue;
        if (s.contact_of_slip[i] >= 0 || s.contact_of_slip[j] >= 0)
          return "row " + std::to_string(i) + " measures in a slip row or column (eq. 6.1: A_ss = 0)";
        rest.push_back({i, j, v});  // one entry per body: the sweep's sums add them
        if (i == j) diag_[i] += v;
      }
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
  std::vector<int>& next = scratch_.next;
  next.assign(start_.begin(), start_.end() - 1);
  for (const LcpStructure::Entry& e : rest) {
    col_[next[e.row]] = e.col;
    val_[next[e.row]++] = e.value;
  }

  // friction blocks H = A_ff: the rows' shared bodies plus C within the block
  MatX& H = scratch_.H;
  for (std::size_t c = 0; c < s.contacts.size(); ++c) {
    const std::vector<int>& f = s.contacts[c].friction;
    const int m = static_cast<int>(f.size());
    H.resize(m, m);
    for (int k = 0; k < m; ++k)
      for (int l = symmetric ? k : 0; l < m; ++l) H(k, l) = entry(f[k], f[l]);
    if (symmetric) H.triangularView<Eigen::StrictlyLower>() = H.transpose();
    for (const LcpStructure::Entry& e : rest)
      if (friction_contact[e.row] == static_cast<int>(c) && friction_contact[e.col] == static_cast<int>(c))
        H(local[e.row], local[e.col]) += e.value;
    s.contacts[c].block.reset(H);
  }

  // the subspace step's variables: rows outside the rest of C; per contact
  // whose friction rows share their bodies, the tangent rows K G_f'
  coupled_.assign(n, 0);
  for (const LcpStructure::Entry& e : rest) coupled_[e.row] = coupled_[e.col] = 1;
  tangent_.resize(2 * s.contacts.size());
  tangent_ok_.assign(s.contacts.size(), 0);
  for (std::size_t c = 0; c < s.contacts.size(); ++c) {
    const ContactBlock& b = s.contacts[c];
    const int rank = b.block.rank();
    if (b.friction.empty() || rank < 1 || rank > 2) continue;
    const Row& first = rows_[b.friction[0]];
    bool shared = true;
    for (int f : b.friction) shared = shared && !coupled_[f] && rows_[f].a == first.a && rows_[f].b == first.b;
    if (!shared) continue;
    tangent_ok_[c] = 1;
    for (int r = 0; r < 2; ++r) {
      Row& t = tangent_[2 * c + r];
      t = Row{};
      t.a = first.a;
      t.b = first.b;
      for (std::size_t k = 0; k < b.friction.size(); ++k) {
        const double kr = b.block.K()(r, static_cast<Eigen::Index>(k));
        const Row& f = rows_[b.friction[k]];
        t.ja += kr * f.ja;
        t.jb += kr * f.jb;
        t.ma += kr * f.ma;
        t.mb += kr * f.mb;
      }
    }
  }

  u_.assign(nb + 1, Vec6::Zero());
  du_.assign(nb + 1, Vec6::Zero());
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
  solver_detail::add_measured_rates(p.structure, n, u_, w);  // PEG's (R - G)' u
  for (const LcpStructure::Entry& e : p.structure.coupling) w(e.row) += e.value * z(e.col);
}

void StructuredRows::prepare(const std::vector<SubspaceVar>& vars, const Schedule&) {
  packed_.resize(vars.size());
  for (std::size_t j = 0; j < vars.size(); ++j)
    packed_[j] = vars[j].row >= 0 ? rows_[vars[j].row] : tangent_[2 * vars[j].contact + vars[j].coord];
}

void StructuredRows::multiply(const std::vector<SubspaceVar>&, const VecX& x, VecX& y) {
  const std::size_t k = packed_.size();
  for (Vec6& d : du_) d.setZero();
  for (std::size_t j = 0; j < k; ++j) {  // du = M^-1 S x
    const Row& r = packed_[j];
    du_[r.a] += x(j) * r.ma;
    du_[r.b] += x(j) * r.mb;
  }
  du_.back().setZero();
  y.resize(static_cast<Eigen::Index>(k));
  for (std::size_t j = 0; j < k; ++j) {  // y = S'G' du
    const Row& r = packed_[j];
    y(j) = r.ja.dot(du_[r.a]) + r.jb.dot(du_[r.b]);
  }
}

}  // namespace pegsim::pgs_detail
