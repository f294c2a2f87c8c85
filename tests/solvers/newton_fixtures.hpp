// Fixtures for the tests of the Newton solvers ("path", "fischer-newton",
// "minmap-newton"): mixed problems with Free rows, an independent reference
// for them, and the solution check on Free rows. Everything is seeded.
#pragma once

#include "solvers/lcp.hpp"

#include "solvers/lcp_fixtures.hpp"
#include "solvers/structured_fixtures.hpp"

#include <Eigen/Eigenvalues>
#include <Eigen/LU>

#include <algorithm>
#include <cmath>
#include <random>
#include <string>
#include <vector>

namespace pegsim::test {

inline const std::vector<std::string> kNewtonSolvers = {"path", "fischer-newton", "minmap-newton"};

// Every test here accepts what the solver itself accepts: its threshold
// SolverOptions::tolerance * (1 + |b|_inf) (solver_common.hpp), the scale of
// the data's own rounding for contact problems (world.cpp uses tolerance 1e-9).
inline double solver_threshold(const LcpProblem& p) { return threshold(p, SolverOptions{}.tolerance); }

inline bool is_free_row(const LcpProblem& p, int i) { return !p.bound.empty() && p.bound[i] == RowBound::Free; }

// The (mixed) complementarity conditions checked from z alone: NonNegative
// rows z >= 0, w >= 0, |min(z, w)|; Free rows |w|. The largest violation.
inline double mlcp_violation(const LcpProblem& p, const VecX& z) {
  const VecX w = p.A * z + p.b;
  double v = 0.0;
  for (int i = 0; i < p.size(); ++i) {
    if (is_free_row(p, i))
      v = std::max(v, std::abs(w(i)));
    else
      v = std::max({v, -z(i), -w(i), std::abs(std::min(z(i), w(i)))});
  }
  return v;
}

// A random positive definite MLCP: random_spd_lcp with every `every`-th row Free.
inline LcpProblem random_spd_mlcp(std::mt19937& rng, int n, int every = 3) {
  LcpProblem p = random_spd_lcp(rng, n);
  p.bound.assign(n, RowBound::NonNegative);
  for (int i = 0; i < n; i += every) p.bound[i] = RowBound::Free;
  return p;
}

// A Stewart-Trinkle step with `joints` bilateral rows (thesis eq. 2.28, here
// kept as Free rows of the MLCP instead of being eliminated as in eq. 2.37):
// each a random unit wrench on a random body, w_b = G_b' nu+ = 0 with
// nu+ = nu_free + M^-1 (G_b p_b + G_n p_n + G_f p_f). The bilateral rows come
// first; contact_of is shifted accordingly. The factored form (LcpStructure:
// one Jacobian row per joint row on its body, then structure_of(st) shifted)
// comes with it, for the solvers that work on the structure.
inline LcpProblem stewart_trinkle_with_joints(std::mt19937& rng, const StewartTrinkleStep& st, int joints) {
  const int dofs = static_cast<int>(st.Minv.rows());
  MatX Gb = MatX::Zero(dofs, joints);
  for (int j = 0; j < joints; ++j) {
    const int body = std::uniform_int_distribution<int>(0, st.bodies - 1)(rng);
    Vec6 g;
    for (int k = 0; k < 6; ++k) g(k) = uniform(rng, -1.0, 1.0);
    Gb.block<6, 1>(6 * body, j) = g.normalized();
  }
  const int nc = st.contacts, nf = nc * st.directions, m = nc + nf;
  MatX G(dofs, m);
  G << st.Gn, st.Gf;
  const LcpProblem& c = st.lcp;
  const int n = joints + c.size();
  LcpProblem p;
  p.A = MatX::Zero(n, n);
  p.b = VecX::Zero(n);
  p.A.topLeftCorner(joints, joints) = Gb.transpose() * st.Minv * Gb;
  p.A.block(0, joints, joints, m) = Gb.transpose() * st.Minv * G;
  p.A.block(joints, 0, m, joints) = G.transpose() * st.Minv * Gb;
  p.A.bottomRightCorner(c.size(), c.size()) = c.A;
  p.b.head(joints) = Gb.transpose() * st.nu_free;
  p.b.tail(c.size()) = c.b;
  p.bound.assign(n, RowBound::NonNegative);
  p.role.assign(n, RowRole::Bilateral);
  p.contact_of.assign(n, -1);
  for (int i = 0; i < joints; ++i) p.bound[i] = RowBound::Free;
  for (int i = 0; i < c.size(); ++i) {
    p.role[joints + i] = c.role[i];
    p.contact_of[joints + i] = c.contact_of[i] >= 0 ? joints + c.contact_of[i] : -1;
  }
  const LcpStructure contact = structure_of(st);
  for (int j = 0; j < joints; ++j) {
    JacobianRow r;
    for (int b = 0; b < st.bodies; ++b)
      if (!Gb.col(j).segment<6>(6 * b).isZero(0.0)) r.body_a = static_cast<std::uint32_t>(b), r.ja = Gb.col(j).segment<6>(6 * b);
    p.structure.rows.push_back(r);
  }
  p.structure.rows.insert(p.structure.rows.end(), contact.rows.begin(), contact.rows.end());
  p.structure.inverse_mass = contact.inverse_mass;
  for (LcpStructure::Entry e : contact.coupling) p.structure.coupling.push_back({e.row + joints, e.col + joints, e.value});
  return p;
}

// The reference for an MLCP, computed here and not by the solvers' own
// elimination (free_rows.hpp): the Free rows F solved for z_F and the LCP of
// the Schur complement on the rest N (then solved by Lemke), with the map
// back to the full z.
struct SchurReference {
  std::vector<int> free, bounded;
  LcpProblem reduced;
  MatX AffInv_AfN;  // A_FF^-1 A_FN
  VecX AffInv_bF;   // A_FF^-1 b_F
  VecX expand(const VecX& zN) const {
    VecX z = VecX::Zero(static_cast<Eigen::Index>(free.size() + bounded.size()));
    const VecX zF = -(AffInv_AfN * zN + AffInv_bF);
    for (std::size_t k = 0; k < free.size(); ++k) z(free[k]) = zF(static_cast<Eigen::Index>(k));
    for (std::size_t k = 0; k < bounded.size(); ++k) z(bounded[k]) = zN(static_cast<Eigen::Index>(k));
    return z;
  }
};

inline SchurReference schur_reference(const LcpProblem& p) {
  SchurReference s;
  for (int i = 0; i < p.size(); ++i) (is_free_row(p, i) ? s.free : s.bounded).push_back(i);
  auto block = [&](const std::vector<int>& r, const std::vector<int>& c) {
    MatX m(r.size(), c.size());
    for (std::size_t i = 0; i < r.size(); ++i)
      for (std::size_t j = 0; j < c.size(); ++j) m(i, j) = p.A(r[i], c[j]);
    return m;
  };
  VecX bF(s.free.size()), bN(s.bounded.size());
  for (std::size_t i = 0; i < s.free.size(); ++i) bF(i) = p.b(s.free[i]);
  for (std::size_t i = 0; i < s.bounded.size(); ++i) bN(i) = p.b(s.bounded[i]);
  const Eigen::FullPivLU<MatX> lu(block(s.free, s.free));
  s.AffInv_AfN = lu.solve(block(s.free, s.bounded));
  s.AffInv_bF = lu.solve(bF);
  s.reduced.A = block(s.bounded, s.bounded) - block(s.bounded, s.free) * s.AffInv_AfN;
  s.reduced.b = bN - block(s.bounded, s.free) * s.AffInv_bF;
  return s;
}

// The normal and two tangent Jacobian columns of every contact (directions 0
// and n_d / 4 span the tangent plane for n_d = 4, 8, ...): where they are
// independent, K = G' M^-1 G is positive definite, the contact impulse is
// determined by the velocity it produces, and a Stewart-Trinkle step's normal
// impulses and velocities are unique (for the sizes of mu the tests use).
inline double smallest_contact_eigenvalue(const StewartTrinkleStep& st) {
  MatX G(st.Gn.rows(), 3 * st.contacts);
  for (int c = 0; c < st.contacts; ++c) {
    G.col(3 * c) = st.Gn.col(c);
    G.col(3 * c + 1) = st.Gf.col(c * st.directions);
    G.col(3 * c + 2) = st.Gf.col(c * st.directions + st.directions / 4);
  }
  const MatX K = G.transpose() * st.Minv * G;
  return Eigen::SelfAdjointEigenSolver<MatX>(K).eigenvalues().minCoeff();
}

// A 4x4 problem (found by a seeded random search, data rounded to six
// digits) with A_00 < 0, so A is not copositive (e_0'A e_0 < 0): Lemke's
// method ends on a secondary ray, yet z = (2.5998, 1.17113, 0, 0) solves it
// (its one solution, by enumeration of the 16 complementary bases).
inline LcpProblem non_copositive_4x4() {
  LcpProblem p;
  p.A.resize(4, 4);
  p.b.resize(4);
  p.A << -0.367676, 0.790992, 0.728436, 0.182872,  //
      0.288937, -0.238086, -0.564006, 0.096747,     //
      0.296928, -0.0566107, 0.25084, -0.404294,     //
      0.449997, 0.694479, -0.1771, 0.585942;
  p.b << 0.0295264, -0.472347, 0.290619, 0.321858;
  return p;
}

inline double residual_of(const SolverResult& r) { return std::max(r.complementarity, r.feasibility); }

}  // namespace pegsim::test
