// A read from the structure (see structured_matrix.hpp).
#include "solvers/structured_matrix.hpp"

#include <algorithm>
#include <cmath>

namespace pegsim::solver_detail {
namespace {

// A counting sort: `order` lists the items key by key (in item order within
// a key), key k's at order[start[k] .. start[k + 1]).
template <class KeyOf>
void bucket(std::size_t keys, std::size_t items, KeyOf key_of, std::vector<int>& start, std::vector<int>& order,
            std::vector<int>& cursor) {
  start.assign(keys + 1, 0);
  for (std::size_t k = 0; k < items; ++k) ++start[static_cast<std::size_t>(key_of(k)) + 1];
  for (std::size_t b = 0; b < keys; ++b) start[b + 1] += start[b];
  order.resize(items);
  cursor.assign(start.begin(), start.end() - 1);
  for (std::size_t k = 0; k < items; ++k)
    order[static_cast<std::size_t>(cursor[static_cast<std::size_t>(key_of(k))]++)] = static_cast<int>(k);
}

}  // namespace

bool StructuredMatrix::describes(const LcpProblem& p) {
  StructuredMatrix reader;
  return reader.assign(p);
}

bool StructuredMatrix::assign(const LcpProblem& p) {
  p_ = nullptr;
  const LcpStructure& st = p.structure;
  const int n = p.size();
  if (st.dense_only || static_cast<int>(st.rows.size()) != n) return false;
  for (const LcpStructure::Entry& e : st.coupling)
    if (e.row < 0 || e.row >= n || e.col < 0 || e.col >= n) return false;
  // x * 0 is 0 for finite x and NaN otherwise: one sum over the data read
  // below (as check_problem tests the dense A)
  double nan_test = 0.0;
  world_form_.resize(st.inverse_mass.size());
  for (std::size_t b = 0; b < st.inverse_mass.size(); ++b) {
    const Mat6& m = st.inverse_mass[b];
    nan_test += (m.array() * 0.0).sum();
    world_form_[b] = is_world_form(m);
  }
  for (const LcpStructure::Entry& e : st.coupling) nan_test += e.value * 0.0;
  bodies_ = st.inverse_mass.size();
  measuring_ = std::min(n, static_cast<int>(st.measures.size()));
  for (int i = 0; i < measuring_; ++i) {
    const JacobianRow& x = st.measures[static_cast<std::size_t>(i)];
    nan_test += (x.ja.array() * 0.0).sum() + (x.jb.array() * 0.0).sum();
  }
  p_ = &p;  // add_measured reads it; cleared again below if a value is not finite
  scaled_a_.resize(static_cast<std::size_t>(n));
  scaled_b_.resize(static_cast<std::size_t>(n));
  diagonal_.setZero(n);
  position_.assign(static_cast<std::size_t>(n), -1);
  by_body_.assign(st, n);
  if (measuring_ > 0) measured_by_body_.assign(st.measures, measuring_, bodies_);  // read only then
  for (int i = 0; i < n; ++i) {
    const JacobianRow& r = st.rows[static_cast<std::size_t>(i)];
    nan_test += (r.ja.array() * 0.0).sum() + (r.jb.array() * 0.0).sum();
    scaled_a_[i].setZero();
    scaled_b_[i].setZero();
    if (r.body_a < bodies_) {
      scaled_a_[i] = inverse_mass_times(st.inverse_mass[r.body_a], r.ja, world_form_[r.body_a] != 0);
      diagonal_(i) += r.ja.dot(scaled_a_[i]);
    }
    if (r.body_b < bodies_) {
      scaled_b_[i] = inverse_mass_times(st.inverse_mass[r.body_b], r.jb, world_form_[r.body_b] != 0);
      diagonal_(i) += r.jb.dot(scaled_b_[i]);
    }
  }
  for (int i = 0; i < measuring_; ++i) add_measured(i, i, diagonal_(i));
  if (std::isnan(nan_test)) {
    p_ = nullptr;
    return false;
  }
  // coupling by row and by column
  const std::vector<LcpStructure::Entry>& c = st.coupling;
  const auto un = static_cast<std::size_t>(n);
  bucket(un, c.size(), [&](std::size_t k) { return c[k].row; }, row_start_, by_row_, cursor_);
  bucket(un, c.size(), [&](std::size_t k) { return c[k].col; }, col_start_, by_col_, cursor_);
  for (const LcpStructure::Entry& e : c)
    if (e.row == e.col) diagonal_(e.row) += e.value;
  p_ = &p;
  return true;
}

double StructuredMatrix::delassus(int i, int j) const {
  const JacobianRow& ri = p_->structure.rows[static_cast<std::size_t>(i)];
  const JacobianRow& rj = p_->structure.rows[static_cast<std::size_t>(j)];
  double v = 0.0;
  if (ri.body_a < bodies_) {
    if (ri.body_a == rj.body_a) v += ri.ja.dot(scaled_a_[j]);
    if (ri.body_a == rj.body_b) v += ri.ja.dot(scaled_b_[j]);
  }
  if (ri.body_b < bodies_) {
    if (ri.body_b == rj.body_a) v += ri.jb.dot(scaled_a_[j]);
    if (ri.body_b == rj.body_b) v += ri.jb.dot(scaled_b_[j]);
  }
  return v;
}

void StructuredMatrix::add_measured(int i, int j, double& v) const {
  if (i >= measuring_) return;
  const JacobianRow& x = p_->structure.measures[static_cast<std::size_t>(i)];
  const JacobianRow& rj = p_->structure.rows[static_cast<std::size_t>(j)];
  for (const auto& [body, xb] : {std::pair{x.body_a, &x.ja}, std::pair{x.body_b, &x.jb}}) {
    if (body >= bodies_) continue;
    if (rj.body_a == body) v += xb->dot(scaled_a_[j]);
    if (rj.body_b == body) v += xb->dot(scaled_b_[j]);
  }
}

double StructuredMatrix::operator()(int i, int j) const {
  if (i == j) return diagonal_(i);
  double v = i < j ? delassus(i, j) : delassus(j, i);  // j_i' M^-1 j_j with i < j: the dense fill's bits
  add_measured(i, j, v);
  const std::vector<LcpStructure::Entry>& c = p_->structure.coupling;
  for (int k = row_start_[i]; k < row_start_[i + 1]; ++k) {
    const LcpStructure::Entry& e = c[static_cast<std::size_t>(by_row_[k])];
    if (e.col == j) v += e.value;
  }
  return v;
}

void StructuredMatrix::block(const int* rows, int k, double* out) const {
  for (int c = 0; c < k; ++c) {
    out[c * k + c] = diagonal_(rows[c]);
    for (int r = c + 1; r < k; ++r) {  // the body terms: j_i' M^-1 j_j with i < j, both entries
      const int i = std::min(rows[r], rows[c]), j = std::max(rows[r], rows[c]);
      out[c * k + r] = out[r * k + c] = delassus(i, j);
    }
  }
  if (measuring_ > 0)  // then the measures' terms, entry by entry (not symmetric)
    for (int c = 0; c < k; ++c)
      for (int r = 0; r < k; ++r)
        if (r != c) add_measured(rows[r], rows[c], out[c * k + r]);
  // C's entries between the rows, in coupling order (as operator() adds them),
  // each placed through the block position of its column
  const std::vector<LcpStructure::Entry>& coupling = p_->structure.coupling;
  for (int c = 0; c < k; ++c) position_[static_cast<std::size_t>(rows[c])] = c;
  for (int r = 0; r < k; ++r) {
    const int i = rows[r];
    for (int e = row_start_[i]; e < row_start_[i + 1]; ++e) {
      const LcpStructure::Entry& entry = coupling[static_cast<std::size_t>(by_row_[e])];
      const int c = position_[static_cast<std::size_t>(entry.col)];
      if (entry.col != i && c >= 0) out[c * k + r] += entry.value;  // the diagonal has its own already
    }
  }
  for (int c = 0; c < k; ++c) position_[static_cast<std::size_t>(rows[c])] = -1;
}

void StructuredMatrix::add_columns(const int* cols, const double* s, int k, VecX& w) const {
  moved_.clear();
  auto move = [&](std::uint32_t body, const Vec6& dv) {
    if (body >= bodies_) return;
    for (auto& [b, sum] : moved_)
      if (b == body) {
        sum += dv;
        return;
      }
    moved_.emplace_back(body, dv);
  };
  const std::vector<LcpStructure::Entry>& coupling = p_->structure.coupling;
  for (int c = 0; c < k; ++c) {
    if (s[c] == 0.0) continue;
    const auto j = static_cast<std::size_t>(cols[c]);
    const JacobianRow& r = p_->structure.rows[j];
    move(r.body_a, s[c] * scaled_a_[j]);
    move(r.body_b, s[c] * scaled_b_[j]);
    for (int e = col_start_[j]; e < col_start_[j + 1]; ++e) {
      const LcpStructure::Entry& entry = coupling[static_cast<std::size_t>(by_col_[e])];
      w(entry.row) += s[c] * entry.value;
    }
  }
  for (const auto& [body, dv] : moved_) {  // w_i += j_i(b)' dv_b, then x_i(b)' dv_b, over the rows on b
    for (int e = by_body_.start[body]; e < by_body_.start[body + 1]; ++e) {
      const auto& [row, j] = by_body_.rows[static_cast<std::size_t>(e)];
      w(row) += j.dot(dv);
    }
    if (measuring_ == 0) continue;
    for (int e = measured_by_body_.start[body]; e < measured_by_body_.start[body + 1]; ++e) {
      const auto& [row, x] = measured_by_body_.rows[static_cast<std::size_t>(e)];
      w(row) += x.dot(dv);
    }
  }
}

void StructuredMatrix::product(const VecX& z, VecX& w) const {
  const LcpStructure& st = p_->structure;
  const int n = p_->size();
  impulse_.assign(bodies_, Vec6::Zero());  // G z per body
  for (int i = 0; i < n; ++i) {
    if (z(i) == 0.0) continue;
    const JacobianRow& r = st.rows[static_cast<std::size_t>(i)];
    if (r.body_a < bodies_) impulse_[r.body_a] += z(i) * r.ja;
    if (r.body_b < bodies_) impulse_[r.body_b] += z(i) * r.jb;
  }
  for (std::size_t b = 0; b < bodies_; ++b) impulse_[b] = st.inverse_mass[b] * impulse_[b];  // M^-1 G z
  w = p_->b;
  for (int i = 0; i < n; ++i) {
    const JacobianRow& r = st.rows[static_cast<std::size_t>(i)];
    if (r.body_a < bodies_) w(i) += r.ja.dot(impulse_[r.body_a]);
    if (r.body_b < bodies_) w(i) += r.jb.dot(impulse_[r.body_b]);
  }
  add_measured_rates(st, n, impulse_, w);  // (R - G)' M^-1 G z
  for (const LcpStructure::Entry& e : st.coupling) w(e.row) += e.value * z(e.col);
}

void StructuredMatrix::equilibration(VecX& D) const {
  const int n = p_->size();
  D.setZero(n);
  for (int i = 0; i < n; ++i)
    if (diagonal_(i) > 0.0) D(i) = 1.0 / std::sqrt(diagonal_(i));
  // the rest: the largest |A_ij| D_j over row i and |A_ji| D_j over column i,
  // among the rows that share a body with i and its coupling entries (D is
  // zero on the rest, so they add nothing, as in the dense version)
  const std::vector<LcpStructure::Entry>& c = p_->structure.coupling;
  // C's entries of row (or column) i in coupling order, as (column (or row), value), into entries_
  const auto copy_entries = [&](const std::vector<int>& start, const std::vector<int>& order, int i,
                                int LcpStructure::Entry::*index) -> const std::vector<std::pair<int, double>>& {
    entries_.clear();
    for (int k = start[i]; k < start[i + 1]; ++k) {
      const LcpStructure::Entry& e = c[static_cast<std::size_t>(order[k])];
      entries_.emplace_back(e.*index, e.value);
    }
    return entries_;
  };
  // max over the listed indices j of |the sum of j's values, in list order| D_j
  // (an index listed once: its value; position_ marks the indices seen)
  const auto largest_sum = [&](const std::vector<std::pair<int, double>>& list) {
    bool repeats = false;
    for (const auto& [j, unused] : list) {
      repeats = repeats || position_[static_cast<std::size_t>(j)] >= 0;
      position_[static_cast<std::size_t>(j)] = 0;
    }
    for (const auto& [j, unused] : list) position_[static_cast<std::size_t>(j)] = -1;
    double top = 0.0;
    for (const auto& [j, value] : list) {
      double v = value;
      if (repeats) {
        v = 0.0;
        for (const auto& [k, other] : list)
          if (k == j) v += other;
      }
      top = std::max(top, std::abs(v) * D(j));
    }
    return top;
  };
  for (int i = 0; i < n; ++i) {
    if (diagonal_(i) > 0.0) continue;
    double row = 0.0, col = 0.0;
    const JacobianRow& r = p_->structure.rows[static_cast<std::size_t>(i)];
    const JacobianRow* x = i < measuring_ ? &p_->structure.measures[static_cast<std::size_t>(i)] : nullptr;
    const auto off_bodies = [&](const JacobianRow& j) { return j.body_a >= bodies_ && j.body_b >= bodies_; };
    if (off_bodies(r) && (x == nullptr || off_bodies(*x))) {
      // a row that pushes and measures no body (a slip row): A's row i and
      // column i are C's alone, A_ij = 0 + the C_ij entries in coupling order
      // (operator()'s sum, and the diagonal's), read from copies of C's row
      // and column instead of scanning C for each entry (a tenth of the
      // resting pyramid's step)
      row = largest_sum(copy_entries(row_start_, by_row_, i, &LcpStructure::Entry::col));
      col = largest_sum(copy_entries(col_start_, by_col_, i, &LcpStructure::Entry::row));
      D(i) = row > 0.0 && col > 0.0 ? 1.0 / std::sqrt(row * col) : 1.0;
      continue;
    }
    // the columns acting on the bodies row i measures (its own, and its measure's)
    auto over_measured_columns = [&](auto&& visit) {
      if (x == nullptr) return;
      for (std::uint32_t body : {x->body_a, x->body_b}) {
        if (body >= bodies_) continue;
        for (int k = by_body_.start[body]; k < by_body_.start[body + 1]; ++k)
          visit(by_body_.rows[static_cast<std::size_t>(k)].first);
      }
    };
    if (r.body_a >= bodies_ && r.body_b >= bodies_) {  // a slip or slack row: A's column i is C's
      for (int k = row_start_[i]; k < row_start_[i + 1]; ++k) {
        const LcpStructure::Entry& e = c[static_cast<std::size_t>(by_row_[k])];
        row = std::max(row, std::abs((*this)(i, e.col)) * D(e.col));
      }
      over_measured_columns([&](int j) { row = std::max(row, std::abs((*this)(i, j)) * D(j)); });
      for (int k = col_start_[i]; k < col_start_[i + 1]; ++k) {
        const LcpStructure::Entry& e = c[static_cast<std::size_t>(by_col_[k])];
        col = std::max(col, std::abs((*this)(e.row, i)) * D(e.row));
      }
      D(i) = row > 0.0 && col > 0.0 ? 1.0 / std::sqrt(row * col) : 1.0;
      continue;
    }
    auto consider = [&](int j) {
      row = std::max(row, std::abs((*this)(i, j)) * D(j));
      col = std::max(col, std::abs((*this)(j, i)) * D(j));
    };
    for (std::uint32_t body : {r.body_a, r.body_b}) {  // rows acting on i's bodies, and measuring them
      if (body >= bodies_) continue;
      for (int k = by_body_.start[body]; k < by_body_.start[body + 1]; ++k)
        consider(by_body_.rows[static_cast<std::size_t>(k)].first);
      if (measuring_ == 0) continue;
      for (int k = measured_by_body_.start[body]; k < measured_by_body_.start[body + 1]; ++k)
        consider(measured_by_body_.rows[static_cast<std::size_t>(k)].first);
    }
    over_measured_columns(consider);
    for (int k = row_start_[i]; k < row_start_[i + 1]; ++k) consider(c[static_cast<std::size_t>(by_row_[k])].col);
    for (int k = col_start_[i]; k < col_start_[i + 1]; ++k) consider(c[static_cast<std::size_t>(by_col_[k])].row);
    D(i) = row > 0.0 && col > 0.0 ? 1.0 / std::sqrt(row * col) : 1.0;
  }
}

}  // namespace pegsim::solver_detail
