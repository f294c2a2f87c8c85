// G' M^-1 G summed one way (see delassus.hpp).
#include "solvers/delassus.hpp"

#include <algorithm>

namespace pegsim::solver_detail {

bool is_world_form(const Mat6& m) {
  return m.topRightCorner<3, 3>().isZero(0.0) && m.bottomLeftCorner<3, 3>().isZero(0.0) && m(0, 1) == 0.0 &&
         m(0, 2) == 0.0 && m(1, 0) == 0.0 && m(1, 2) == 0.0 && m(2, 0) == 0.0 && m(2, 1) == 0.0;
}

Vec6 inverse_mass_times(const Mat6& m, const Vec6& j) { return inverse_mass_times(m, j, is_world_form(m)); }

void RowsByBody::assign(const LcpStructure& structure, int n_rows) {
  assign(structure.rows, n_rows, structure.inverse_mass.size());
}

void RowsByBody::assign(const std::vector<JacobianRow>& list, int n_rows, std::size_t nb) {
  start.assign(nb + 1, 0);
  for (int i = 0; i < n_rows; ++i) {
    const JacobianRow& r = list[static_cast<std::size_t>(i)];
    if (r.body_a < nb) ++start[r.body_a + 1];
    if (r.body_b < nb) ++start[r.body_b + 1];
  }
  for (std::size_t b = 0; b < nb; ++b) start[b + 1] += start[b];
  rows.resize(static_cast<std::size_t>(start[nb]));
  cursor.assign(start.begin(), start.end() - 1);
  for (int i = 0; i < n_rows; ++i) {
    const JacobianRow& r = list[static_cast<std::size_t>(i)];
    if (r.body_a < nb) rows[static_cast<std::size_t>(cursor[r.body_a]++)] = {i, r.ja};
    if (r.body_b < nb) rows[static_cast<std::size_t>(cursor[r.body_b]++)] = {i, r.jb};
  }
}

void add_delassus(const LcpStructure& structure, int n_rows, MatX& A) {
  thread_local RowsByBody by_body;
  thread_local std::vector<Vec6> scaled;  // M_b^-1 j of one body's rows
  by_body.assign(structure, n_rows);
  const std::size_t nb = structure.inverse_mass.size();
  for (std::size_t b = 0; b < nb; ++b) {
    const int first = by_body.start[b], count = by_body.start[b + 1] - first;
    const std::pair<int, Vec6>* list = by_body.rows.data() + first;
    scaled.resize(static_cast<std::size_t>(count));
    const bool world_form = is_world_form(structure.inverse_mass[b]);
    for (int k = 0; k < count; ++k)
      scaled[static_cast<std::size_t>(k)] = inverse_mass_times(structure.inverse_mass[b], list[k].second, world_form);
    for (int k = 0; k < count; ++k) {
      const int i = list[k].first;
      for (int l = k; l < count; ++l) {
        const int j = list[l].first;
        const double v = list[k].second.dot(scaled[static_cast<std::size_t>(l)]);
        A(i, j) += v;
        if (i != j) A(j, i) += v;
      }
    }
  }
}

void add_measures(const LcpStructure& structure, int n_rows, MatX& A) {
  const int measuring = std::min(n_rows, static_cast<int>(structure.measures.size()));
  if (measuring == 0) return;
  thread_local RowsByBody by_body;
  thread_local std::vector<Vec6> scaled;  // M_b^-1 g_j(b) per entry of by_body
  by_body.assign(structure, n_rows);
  const std::size_t nb = structure.inverse_mass.size();
  scaled.resize(by_body.rows.size());
  for (std::size_t b = 0; b < nb; ++b) {
    const bool world_form = is_world_form(structure.inverse_mass[b]);
    for (int k = by_body.start[b]; k < by_body.start[b + 1]; ++k)
      scaled[static_cast<std::size_t>(k)] =
          inverse_mass_times(structure.inverse_mass[b], by_body.rows[static_cast<std::size_t>(k)].second, world_form);
  }
  for (int i = 0; i < measuring; ++i) {
    const JacobianRow& x = structure.measures[static_cast<std::size_t>(i)];
    for (const auto& [body, xb] : {std::pair{x.body_a, &x.ja}, std::pair{x.body_b, &x.jb}}) {
      if (body >= nb) continue;
      for (int k = by_body.start[body]; k < by_body.start[body + 1]; ++k)
        A(i, by_body.rows[static_cast<std::size_t>(k)].first) += xb->dot(scaled[static_cast<std::size_t>(k)]);
    }
  }
}

void add_measured_rates(const LcpStructure& structure, int n_rows, const std::vector<Vec6>& u, VecX& w) {
  const int measuring = std::min(n_rows, static_cast<int>(structure.measures.size()));
  const std::size_t nb = structure.inverse_mass.size();
  for (int i = 0; i < measuring; ++i) {
    const JacobianRow& x = structure.measures[static_cast<std::size_t>(i)];
    if (x.body_a < nb) w(i) += x.ja.dot(u[x.body_a]);
    if (x.body_b < nb) w(i) += x.jb.dot(u[x.body_b]);
  }
}

}  // namespace pegsim::solver_detail
