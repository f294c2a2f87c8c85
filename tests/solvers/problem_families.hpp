// Random problem families for the solver-suite tests, three kinds of matrix:
//   positive definite        random_spd_lcp (lcp_fixtures.hpp): one solution;
//   positive semi-definite   random_contact_psd_lcp: A = J M^-1 J' of random
//                            frictionless contacts with more rows than the
//                            bodies have DOF (rank(A) < n), z not unique, w is;
//   PEG-shaped               random_peg_x_lcp: X-constraints of thesis 4.7
//                            (eqs. 4.44-4.47, frictionless): non-symmetric
//                            and not copositive, Lemke may end on a ray.
// Everything is seeded: the same problems on every run.
#pragma once

#include "solvers/lcp_fixtures.hpp"

#include <random>

namespace pegsim::test {

// `bodies` free bodies with random SPD 6x6 inverse masses, block diagonal.
inline MatX random_inverse_mass(std::mt19937& rng, int bodies) {
  MatX Minv = MatX::Zero(6 * bodies, 6 * bodies);
  for (int b = 0; b < bodies; ++b) {
    const MatX R = random_matrix(rng, 6, 6);
    const MatX mass = R * R.transpose() + uniform(rng, 0.5, 3.0) * MatX::Identity(6, 6);
    Minv.block(6 * b, 6 * b, 6, 6) = mass.llt().solve(MatX::Identity(6, 6));
  }
  return Minv;
}

// One random contact normal row of G' (thesis eq. 2.26): a unit normal with a
// lever on one body, and its negative on another one (or the world, -1).
inline VecX random_contact_row(std::mt19937& rng, int bodies) {
  VecX g = VecX::Zero(6 * bodies);
  const int a = std::uniform_int_distribution<int>(0, bodies - 1)(rng);
  int other = std::uniform_int_distribution<int>(-1, bodies - 1)(rng);
  if (other == a) other = -1;
  const Vec3 n = Vec3(uniform(rng, -1, 1), uniform(rng, -1, 1), uniform(rng, -1, 1)).normalized();
  auto wrench = [&](int body, double sign) {
    const Vec3 r(uniform(rng, -1, 1), uniform(rng, -1, 1), uniform(rng, -1, 1));
    g.segment<3>(6 * body) += sign * n;
    g.segment<3>(6 * body + 3) += sign * r.cross(n);
  };
  wrench(a, 1.0);
  if (other >= 0) wrench(other, -1.0);
  return g;
}

// Frictionless contacts (thesis eq. 2.27): A = G' M^-1 G with `contacts` >
// 6 bodies rows, so A is PSD and singular. b is built around a known
// solution: z* >= 0 on about half the rows (more than rank(A) of them, so
// z* is one of many), w* >= 0 on the others, b = w* - A z*; *w_star gets w*
// (the same at every solution: see solver_suite_test.cpp). Rows: Normal.
inline LcpProblem random_contact_psd_lcp(std::mt19937& rng, int bodies, int contacts, VecX* w_star = nullptr) {
  const MatX Minv = random_inverse_mass(rng, bodies);
  MatX G(6 * bodies, contacts);
  for (int c = 0; c < contacts; ++c) G.col(c) = random_contact_row(rng, bodies);
  LcpProblem p;
  p.A = G.transpose() * Minv * G;
  p.A = 0.5 * (p.A + p.A.transpose()).eval();  // symmetric to the last bit
  VecX z = VecX::Zero(contacts), w = VecX::Zero(contacts);
  for (int c = 0; c < contacts; ++c) {
    if (uniform(rng, 0.0, 1.0) < 0.5)
      z(c) = uniform(rng, 0.1, 1.0);
    else
      w(c) = uniform(rng, 0.0, 1.0);
  }
  p.b = w - p.A * z;
  p.role.assign(contacts, RowRole::Normal);
  p.contact_of.assign(contacts, -1);
  if (w_star) *w_star = w;
  return p;
}

// Frictionless PEG X-constraints (thesis eqs. 4.44-4.47 with m = 1), each over
// K = 2 or 3 sub-contacts k with rows g_k and rho_k = g_k' nu + psi_k,
// nu = nu* + M^-1 sum(g_1 p_1) over the constraints' force rows:
//   p_1 row:  w = c_2 + .. + c_K + rho_1              (eq. 4.45, role Normal)
//   c_j row:  w = c_2 + .. + c_j + rho_1 - rho_j      (eq. 4.44, role PegSlack)
// Variables: [p_1 of every constraint | their c's].
inline LcpProblem random_peg_x_lcp(std::mt19937& rng, int bodies, int constraints) {
  const MatX Minv = random_inverse_mass(rng, bodies);
  VecX nu(6 * bodies);
  for (int i = 0; i < nu.size(); ++i) nu(i) = uniform(rng, -1.0, 1.0);
  std::vector<std::vector<VecX>> rows(constraints);
  std::vector<std::vector<double>> psi(constraints);
  int slacks = 0;
  for (int k = 0; k < constraints; ++k) {
    const int K = 2 + std::uniform_int_distribution<int>(0, 1)(rng);
    for (int j = 0; j < K; ++j) {
      rows[k].push_back(random_contact_row(rng, bodies));
      psi[k].push_back(uniform(rng, -0.3, 0.5));
    }
    slacks += K - 1;
  }
  const int n = constraints + slacks;
  MatX G(6 * bodies, constraints);  // the force rows g_1
  for (int k = 0; k < constraints; ++k) G.col(k) = rows[k][0];
  LcpProblem p;
  p.A = MatX::Zero(n, n);
  p.b = VecX::Zero(n);
  p.role.assign(n, RowRole::Normal);
  p.contact_of.assign(n, -1);
  int c0 = constraints;
  for (int k = 0; k < constraints; ++k) {
    const int K = static_cast<int>(rows[k].size());
    const VecX& g1 = rows[k][0];
    p.A.row(k).head(constraints) = (g1.transpose() * Minv * G);
    p.b(k) = g1.dot(nu) + psi[k][0];
    for (int t = 0; t < K - 1; ++t) p.A(k, c0 + t) = 1.0;  // E_I2
    for (int j = 1; j < K; ++j) {
      const int v = c0 + j - 1;
      const VecX d = g1 - rows[k][j];
      p.role[v] = RowRole::PegSlack;
      p.A.row(v).head(constraints) = d.transpose() * Minv * G;
      p.b(v) = d.dot(nu) + psi[k][0] - psi[k][j];
      for (int t = 0; t < j; ++t) p.A(v, c0 + t) = 1.0;  // E_I1
    }
    c0 += K - 1;
  }
  return p;
}

}  // namespace pegsim::test
