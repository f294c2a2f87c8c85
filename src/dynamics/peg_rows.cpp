// Time stepping with PEG (thesis 4.7, eqs. 4.41-4.51): the Stewart-Trinkle
// LCP of eq. 6.1 extended by I- and X-constraints.
//
// With rho_k = G_k' nu^{l+1} + psi_k / h for sub-contact k (eq. 2.25
// substituted) and nu^{l+1} = nu* + M^-1 (G_n p_n + G_f p_f) (eq. 4.41: the
// impulses of every force variable), an I-constraint over the sub-contacts
// [1 .. m | m+1 .. K] (C_iota first, sub-contact 1 carrying eq. 4.11; layout in
// contact/constraint_set.hpp) contributes:
//   c_j, j = 2..K  (eqs. 4.10, 4.44; E_I1 lower triangular with unit diagonal)
//     0 <= c_2 + .. + c_j + rho_1 - rho_j        perp c_j >= 0
//   p_1  (eqs. 4.14, 4.45; E_I2 a row of ones)
//     0 <= c_2 + .. + c_K + rho_1                perp p_1 >= 0
//   d_i, i = 2..m  (eq. 4.12)
//     0 <= d_i + rho_i                           perp d_i >= 0
//   p_i, i = 2..m  (eq. 4.13)
//     0 <= c_2 + .. + c_K + rho_1 + d_i          perp p_i >= 0
// p_i pushes along sub-contact i's normal (G_nI of eq. 4.41); c and d push
// nothing. By Lemmas 4.1.1-4.1.2, c_2 + .. + c_K + rho_1 = max_k rho_k, so p_1's
// row is eq. 4.1, max_k rho_k >= 0, and by Lemmas 4.1.3-4.1.4 p_i's row lets
// p_i > 0 only when rho_i = 0 is that maximum. An X-constraint is the same with
// m = 1 (eqs. 4.46-4.47). A U-constraint is the plain normal row of eq. 6.1.
// Friction (eqs. 4.48-4.49) is eq. 6.1's, on the sub-contacts the constraints
// list (the primary ones), its slip row bounding mu times the sum of every
// normal impulse on that sub-contact (U p_nIX: an I- and an X-constraint may
// both push on one sub-contact).
//
// Variables: [p_n | p_f | s | c, d], p_n in constraint order (U: 1, I: m,
// X: 1), the slacks per constraint (its c's, then its d's), RowRole::PegSlack.
// Matrix: A = G' M^-1 G + (R - G)' M^-1 G + C with G the force Jacobians
// (none for s, c, d), R what each row measures (c, d and p_i for i >= 2
// measure other sub-contacts than their own column pushes on; kept as
// LcpStructure::measures, R - G on the constraint's pair of bodies, not
// expanded: the resting pyramid's 720 rows held 18,000 such entries of C,
// whose building and reading were over half of its step) and C the E blocks
// and eq. 6.1's U, E, -E'. A is neither symmetric nor copositive (thesis 4.8):
// Lemke's method may end on a ray.
//
// Decision F2 (which sub-contact of an X-constraint carries its force): the
// one whose gap is predicted largest at the end of the step,
// psi/h + G' nu* (ties, within rounding: the sub-contact of least identity,
// force_carrier below). An X-constraint is a mask; its
// one force (eq. 4.14 form) may act whenever max(rho_a, rho_b) = 0, also when
// the other sub-contact holds that maximum. On the sub-contact expected to
// hold it, that extra solution disappears: with the force on the other one,
// the triangle-drop run found a spurious impulse where two collinear edges
// met (rho_a = -rho_b), the force holding the other gap at zero.
//
// Decision F1 (Anitescu-Potra): U rows drop psi/h as in eq. 6.1; I and X rows
// keep it, since eq. 4.1 compares gaps, which velocities alone cannot (thesis
// Fig. 5.1: psi_1 is deep, its velocity is not). Thesis 4.7 writes PEG for
// Stewart-Trinkle only.
#include "dynamics/formulation_detail.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>
#include <tuple>
#include <utility>

namespace pegsim::formulation_detail {
namespace {

// Adds j on `body` to a row of at most two bodies (those of one constraint's pair).
void accumulate(JacobianRow& r, std::uint32_t body, const Vec6& j) {
  if (body == kNoBody) return;
  if (r.body_a == body) r.ja += j;
  else if (r.body_b == body) r.jb += j;
  else if (r.body_a == kNoBody) r.body_a = body, r.ja = j;
  else if (r.body_b == kNoBody) r.body_b = body, r.jb = j;
  else throw std::logic_error("PEG constraint: sub-contacts span more than two bodies");
}

// x - y, matched by body (sub-contacts of one pair may name the bodies in either order)
JacobianRow difference(const JacobianRow& x, const JacobianRow& y) {
  JacobianRow r;
  accumulate(r, x.body_a, x.ja);
  accumulate(r, x.body_b, x.jb);
  accumulate(r, y.body_a, -y.ja);
  accumulate(r, y.body_b, -y.jb);
  r.prescribed = x.prescribed - y.prescribed;
  return r;
}

// C's entries as they are written; finish() sums each (row, column)'s in that
// order and leaves the sums, zeros dropped, in row-major order: the same
// numbers, bit for bit, as summing into a dense n x n matrix and scanning it.
// The order is a stable sort's by (row, column), made by two stable counting
// sorts, by column and then by row (least significant key first): O(entries
// + n), where a stable_sort of all entries was 17% of the resting pyramid's step.
class CouplingBuilder {
 public:
  void clear() { entries_.clear(); }
  void add(int row, int col, double value) { entries_.push_back({row, col, value}); }
  void finish(int n, std::vector<LcpStructure::Entry>& out) {
    by_column_.resize(entries_.size());
    sorted_.resize(entries_.size());
    counting_sort(entries_, by_column_, n, [](const LcpStructure::Entry& e) { return e.col; });
    counting_sort(by_column_, sorted_, n, [](const LcpStructure::Entry& e) { return e.row; });
    out.clear();
    for (std::size_t k = 0; k < sorted_.size();) {
      LcpStructure::Entry sum{sorted_[k].row, sorted_[k].col, 0.0};
      for (; k < sorted_.size() && sorted_[k].row == sum.row && sorted_[k].col == sum.col; ++k)
        sum.value += sorted_[k].value;
      if (sum.value != 0.0) out.push_back(sum);
    }
  }

 private:
  template <class Key>
  void counting_sort(const std::vector<LcpStructure::Entry>& in, std::vector<LcpStructure::Entry>& out, int n,
                     Key key) {
    next_.assign(static_cast<std::size_t>(n) + 1, 0);
    for (const LcpStructure::Entry& e : in) ++next_[static_cast<std::size_t>(key(e)) + 1];
    for (int r = 0; r < n; ++r) next_[r + 1] += next_[r];
    for (const LcpStructure::Entry& e : in) out[static_cast<std::size_t>(next_[key(e)]++)] = e;
  }

  std::vector<LcpStructure::Entry> entries_, by_column_, sorted_;
  std::vector<int> next_;
};

// Predicted gap rates (m/s) closer than this, relative to 1 + |largest|, tie
// in F2: far above rounding (1e-13 in a resting pyramid), far below a rate
// that moves a gap visibly within a step.
constexpr double kCarrierTie = 1e-10;

void check(const ContactConstraint& k, int nc) {
  const int K = static_cast<int>(k.contacts.size());
  const int m = k.kind == ConstraintKind::I ? k.primaries : 1;
  bool ok = K >= 1 && m >= 1 && m <= K && (k.kind != ConstraintKind::U || K == 1);
  for (int c : k.contacts) ok = ok && c >= 0 && c < nc;
  if (!ok) throw std::logic_error("malformed contact constraint (" + std::to_string(K) + " sub-contacts, " +
                                  std::to_string(m) + " primaries)");
}

}  // namespace

void build_peg_problem(FormulationKind kind, const FormulationInput& in, const ConstraintSet& set,
                       StepProblem& out) {
  const Model& model = *in.model;
  const State& state = *in.state;
  const Dimension dim = model.options.dimension;
  const int nd = dim == Dimension::Planar ? 2 : model.options.friction_directions;
  const int nc = static_cast<int>(set.contacts.size());
  const bool stabilize_u = kind == FormulationKind::StewartTrinkle;  // F1
  auto psi_h = [&](int c) { return set.contacts[c].contact.gap / in.h; };

  // the per-call lists below are the thread's, kept from step to step (issue
  // 11 item 5: no allocation in a steady step)
  thread_local std::vector<char> has_friction;
  has_friction.assign(static_cast<std::size_t>(nc), 0);
  int n_normal = 0, n_slack = 0;
  for (const ContactConstraint& k : set.constraints) {
    check(k, nc);
    const int K = static_cast<int>(k.contacts.size());
    const int m = k.kind == ConstraintKind::I ? k.primaries : 1;  // U, X: one force
    n_normal += m;
    n_slack += (K - 1) + (m - 1);
    for (int c : k.friction)
      if (set.contacts[c].mu > 0.0) has_friction[c] = 1;
  }
  int n_frictional = 0;
  for (char f : has_friction) n_frictional += f;
  const int n_friction = n_frictional * nd;
  const int n_forces = n_normal + n_friction;
  const int n = n_forces + n_frictional + n_slack;

  out.friction_directions = nd;
  out.normal_var.assign(nc, -1);
  out.first_friction_var.assign(nc, -1);
  out.slip_var.assign(nc, -1);
  out.next_normal_var.assign(n, -1);
  out.var_contact.assign(n, -1);
  out.friction_direction.assign(n, Vec3::Zero());
  LcpProblem& lcp = out.lcp;
  LcpStructure& structure = lcp.structure;
  structure.rows.assign(n, JacobianRow{});
  structure.coupling.clear();
  structure.dense_only = false;
  if (in.matrix) lcp.A.setZero(n, n);
  else lcp.A.resize(0, 0);
  lcp.b.setZero(n);
  lcp.bound.assign(n, RowBound::NonNegative);
  lcp.role.assign(n, RowRole::Normal);
  lcp.contact_of.assign(n, -1);
  lcp.layout.clear(n);
  // per row: what it measures beyond its own column's Jacobian (R - G) and its psi / h terms
  std::vector<JacobianRow>& extra = structure.measures;
  extra.assign(static_cast<std::size_t>(n), JacobianRow{});
  thread_local std::vector<double> gap;
  gap.assign(static_cast<std::size_t>(n), 0.0);
  // the C of A = G'M^-1G + C while assembling: its entries in the order they
  // are written, summed per (row, column) at the end (CouplingBuilder below)
  thread_local CouplingBuilder C;  // its storage kept from step to step (issue 11: no allocation in a steady step)
  C.clear();

  thread_local std::vector<JacobianRow> normal_row;
  normal_row.resize(static_cast<std::size_t>(nc));
  for (int c = 0; c < nc; ++c) {
    const Contact& contact = set.contacts[c].contact;
    normal_row[c] = contact_row(contact, contact.normal, model, state);
  }
  thread_local std::vector<int> last_normal;
  last_normal.assign(static_cast<std::size_t>(nc), -1);
  auto add_normal_var = [&](int v, int c) {
    structure.rows[v] = normal_row[c];
    out.var_contact[v] = c;
    if (last_normal[c] < 0) out.normal_var[c] = v;
    else out.next_normal_var[last_normal[c]] = v;
    last_normal[c] = v;
  };

  int next_normal = 0;
  int next_slack = n_forces + n_frictional;
  auto predicted = [&](int c) { return psi_h(c) + row_rate(normal_row[c], in); };
  // F2's choice: the largest predicted gap; predictions within kCarrierTie of
  // it tie, and the tie goes to the sub-contact whose identity (contact_key)
  // is least, not to the first listed: at rest every prediction is rounding
  // noise and the model's order of a pair's contacts may change from step to
  // step, so either rule would move the force, and with it the names of last
  // step's impulses (sim/warm_start.hpp), back and forth.
  auto force_carrier = [&](const std::vector<int>& subs) {
    double top = predicted(subs[0]);
    for (int c : subs) top = std::max(top, predicted(c));
    const double tie = kCarrierTie * (1.0 + std::abs(top));
    std::size_t best = subs.size();
    for (std::size_t j = 0; j < subs.size(); ++j)
      if (predicted(subs[j]) >= top - tie &&
          (best == subs.size() || contact_key(set.contacts[subs[j]].contact) <
                                      contact_key(set.contacts[subs[best]].contact)))
        best = j;
    return best;
  };
  thread_local std::vector<int> s;
  for (const ContactConstraint& k : set.constraints) {
    s.assign(k.contacts.begin(), k.contacts.end());
    if (k.kind == ConstraintKind::X) std::swap(s[0], s[force_carrier(s)]);  // F2
    const int first = s[0];
    if (k.kind == ConstraintKind::U) {  // eq. 4.43
      add_normal_var(next_normal, first);
      if (stabilize_u) gap[next_normal] = psi_h(first);
      ++next_normal;
      continue;
    }
    const int K = static_cast<int>(s.size());
    const int m = k.kind == ConstraintKind::I ? k.primaries : 1;
    const int c0 = next_slack;   // c_j is variable c0 + j - 2, j = 2..K
    const int d0 = c0 + K - 1;   // d_i is variable d0 + i - 2, i = 2..m
    next_slack = d0 + m - 1;
    for (int j = 2; j <= K; ++j) {  // eqs. 4.10, 4.44
      const int v = c0 + j - 2;
      lcp.role[v] = RowRole::PegSlack;
      out.var_contact[v] = s[j - 1];
      extra[v] = difference(normal_row[first], normal_row[s[j - 1]]);
      gap[v] = psi_h(first) - psi_h(s[j - 1]);
      for (int t = 2; t <= j; ++t) C.add(v, c0 + t - 2, 1.0);  // E_I1
    }
    for (int i = 1; i <= m; ++i) {  // eqs. 4.13-4.14, 4.45
      const int v = next_normal++;
      add_normal_var(v, s[i - 1]);
      gap[v] = psi_h(first);
      for (int t = 2; t <= K; ++t) C.add(v, c0 + t - 2, 1.0);  // E_I2
      if (i == 1) continue;
      const int d = d0 + i - 2;
      extra[v] = difference(normal_row[first], normal_row[s[i - 1]]);
      C.add(v, d, 1.0);
      lcp.role[d] = RowRole::PegSlack;  // eq. 4.12
      out.var_contact[d] = s[i - 1];
      extra[d] = normal_row[s[i - 1]];
      gap[d] = psi_h(s[i - 1]);
      C.add(d, d, 1.0);
    }
  }

  // friction on the listed (primary) sub-contacts, eqs. 4.48-4.49
  thread_local std::vector<Vec3> dirs;
  int next_friction = n_normal;
  int next_slip = n_forces;
  for (int c = 0; c < nc; ++c) {
    if (!has_friction[c]) continue;
    if (out.normal_var[c] < 0) throw std::logic_error("PEG: friction listed on a sub-contact without a force");
    const Contact& contact = set.contacts[c].contact;
    out.first_friction_var[c] = next_friction;
    out.slip_var[c] = next_slip;
    add_friction_rows(contact, set.contacts[c].drift_rate, c, out.normal_var[c], next_friction, next_slip, nd, in, dirs, out);
    for (int k = 0; k < nd; ++k) {
      C.add(next_friction + k, next_slip, 1.0);   // E
      C.add(next_slip, next_friction + k, -1.0);  // -E'
    }
    for (int p = out.normal_var[c]; p >= 0; p = out.next_normal_var[p]) C.add(next_slip, p, set.contacts[c].mu);
    next_friction += nd;
    ++next_slip;
  }

  // b: R' nu*, kinematic bodies' surface velocities and the gap terms (rows still name scene bodies here)
  for (int v = 0; v < n; ++v)
    lcp.b(v) = row_rate(structure.rows[v], in) + row_rate(extra[v], in) + gap[v];
  // only U-constraints: every row measures its own column (R = G)
  auto none = [](const JacobianRow& x) { return x.body_a == kNoBody && x.body_b == kNoBody && x.prescribed == 0.0; };
  if (std::all_of(extra.begin(), extra.end(), none)) extra.clear();
  // the island's own body numbers from here on, for the rows and their measures
  number_island_bodies(structure, *in.inverse_mass, 0);

  // the dense A, summed in the order every reader sums it (solvers/lcp.hpp, LcpStructure)
  C.finish(n, structure.coupling);
  if (!in.matrix) return;
  solver_detail::add_delassus(structure, n_forces, lcp.A);
  solver_detail::add_measures(structure, n, lcp.A);
  for (const LcpStructure::Entry& e : structure.coupling) lcp.A(e.row, e.col) += e.value;
}

}  // namespace pegsim::formulation_detail
