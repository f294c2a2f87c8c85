// Random Stewart-Trinkle steps (lcp_fixtures.hpp) with their factored form
// A = G'M^-1G + C (LcpStructure), for the solvers that work on the structure
// (pgs_structured_test.cpp, active_set_test.cpp).
#pragma once

#include "solvers/lcp_fixtures.hpp"

namespace pegsim::test {

// The structure of a fixture step (eq. 6.1): one Jacobian row per column of
// [Gn Gf] (its two non-zero 6-blocks), none for slip rows, the inverse mass
// blocks, and C = E, -E', U.
inline LcpStructure structure_of(const StewartTrinkleStep& st) {
  LcpStructure s;
  const int nc = st.contacts, nf = nc * st.directions, n = nc + nf + nc;
  s.rows.resize(n);
  for (int v = 0; v < nc + nf; ++v) {
    const VecX g = v < nc ? VecX(st.Gn.col(v)) : VecX(st.Gf.col(v - nc));
    JacobianRow& r = s.rows[v];
    for (int b = 0; b < st.bodies; ++b) {
      if (g.segment<6>(6 * b).isZero(0.0)) continue;
      if (r.body_a == kNoBody) r.body_a = b, r.ja = g.segment<6>(6 * b);
      else r.body_b = b, r.jb = g.segment<6>(6 * b);
    }
  }
  for (int b = 0; b < st.bodies; ++b) s.inverse_mass.push_back(st.Minv.block<6, 6>(6 * b, 6 * b));
  for (int c = 0; c < nc; ++c) {
    const int slip = nc + nf + c;
    s.coupling.push_back({slip, c, st.mu(c)});
    for (int k = 0; k < st.directions; ++k) {
      const int f = nc + c * st.directions + k;
      s.coupling.push_back({f, slip, 1.0});
      s.coupling.push_back({slip, f, -1.0});
    }
  }
  return s;
}

// A = G'M^-1G + C formed densely from a structure, independently of PGS.
inline MatX dense_matrix(const LcpStructure& s) {
  const int n = static_cast<int>(s.rows.size());
  const int dofs = 6 * static_cast<int>(s.inverse_mass.size());
  MatX G = MatX::Zero(dofs, n), Minv = MatX::Zero(dofs, dofs);
  for (int v = 0; v < n; ++v) {
    if (s.rows[v].body_a != kNoBody) G.block<6, 1>(6 * s.rows[v].body_a, v) += s.rows[v].ja;
    if (s.rows[v].body_b != kNoBody) G.block<6, 1>(6 * s.rows[v].body_b, v) += s.rows[v].jb;
  }
  for (std::size_t b = 0; b < s.inverse_mass.size(); ++b) Minv.block<6, 6>(6 * b, 6 * b) = s.inverse_mass[b];
  MatX X = MatX::Zero(dofs, n);  // R - G
  for (std::size_t v = 0; v < s.measures.size(); ++v) {
    if (s.measures[v].body_a != kNoBody) X.block<6, 1>(6 * s.measures[v].body_a, v) += s.measures[v].ja;
    if (s.measures[v].body_b != kNoBody) X.block<6, 1>(6 * s.measures[v].body_b, v) += s.measures[v].jb;
  }
  MatX A = G.transpose() * Minv * G + X.transpose() * Minv * G;
  for (const LcpStructure::Entry& e : s.coupling) A(e.row, e.col) += e.value;
  return A;
}

// PEG-like measures (thesis 4.7: rows that measure other sub-contacts than
// their own column pushes on) on a fixture step: every third row with a
// Jacobian measures more on its own bodies, and every second slip row (no
// Jacobian, as PEG's slack rows) measures a pair of bodies; A formed again.
inline void add_measures(std::mt19937& rng, StewartTrinkleStep& st) {
  LcpStructure& s = st.lcp.structure;
  const int n = static_cast<int>(s.rows.size());
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  auto random6 = [&] {
    Vec6 v;
    for (int k = 0; k < 6; ++k) v(k) = u(rng);
    return v;
  };
  s.measures.assign(static_cast<std::size_t>(n), JacobianRow{});
  for (int v = 0; v < n; ++v) {
    const JacobianRow& g = s.rows[v];
    JacobianRow& x = s.measures[v];
    if (g.body_a != kNoBody) {
      if (v % 3 != 0) continue;
      x.body_a = g.body_a;
      x.ja = 0.5 * random6();
      if (g.body_b != kNoBody) x.body_b = g.body_b, x.jb = 0.5 * random6();
    } else if (v % 2 == 0 && st.bodies >= 2) {
      x.body_a = static_cast<std::uint32_t>(v % st.bodies);
      x.body_b = static_cast<std::uint32_t>((v + 1) % st.bodies);
      x.ja = random6();
      x.jb = random6();
    }
  }
  st.lcp.A = dense_matrix(s);
}

inline StewartTrinkleStep structured_step(std::mt19937& rng, int bodies, int contacts, int directions) {
  StewartTrinkleStep st = random_stewart_trinkle(rng, bodies, contacts, directions);
  st.lcp.structure = structure_of(st);
  st.lcp.A = dense_matrix(st.lcp.structure);
  return st;
}

}  // namespace pegsim::test
