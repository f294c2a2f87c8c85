// Problem generators and independent solution checks for the solver tests.
// Everything is seeded: the same problems on every run.
#pragma once

#include "solvers/lcp.hpp"

#include <Eigen/Cholesky>
#include <Eigen/Eigenvalues>
#include <Eigen/SVD>
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <numbers>
#include <random>
#include <string>
#include <vector>

namespace pegsim::test {

// The acceptance threshold of a solver tolerance: tol * (1 + |b|_inf) (lcp.hpp).
inline double threshold(const LcpProblem& p, double tol = 1e-9) {
  return tol * (1.0 + p.b.cwiseAbs().maxCoeff());
}

// A registry name as a GoogleTest parameter name ("fischer-newton" -> "fischer_newton").
inline std::string solver_param_name(const ::testing::TestParamInfo<std::string>& info) {
  std::string s = info.param;
  std::replace(s.begin(), s.end(), '-', '_');
  return s;
}

inline double uniform(std::mt19937& rng, double lo, double hi) {
  return std::uniform_real_distribution<double>(lo, hi)(rng);
}

inline MatX random_matrix(std::mt19937& rng, int rows, int cols) {
  MatX m(rows, cols);
  for (int j = 0; j < cols; ++j)
    for (int i = 0; i < rows; ++i) m(i, j) = uniform(rng, -1.0, 1.0);
  return m;
}

// A = R'R / n + shift I: symmetric positive definite, condition number of a
// few tens; b uniform in [-1, 1], so about half the rows end up active.
inline LcpProblem random_spd_lcp(std::mt19937& rng, int n, double shift = 0.3) {
  const MatX R = random_matrix(rng, n, n);
  LcpProblem p;
  p.A = R.transpose() * R / n + shift * MatX::Identity(n, n);
  p.b.resize(n);
  for (int i = 0; i < n; ++i) p.b(i) = uniform(rng, -1.0, 1.0);
  return p;
}

// What the test verifies itself, from z alone: z >= 0, w = Az + b >= 0 and
// |z_i w_i| small, as the largest violation of the three.
inline double lcp_violation(const LcpProblem& p, const VecX& z) {
  const VecX w = p.A * z + p.b;
  double v = 0.0;
  for (int i = 0; i < p.size(); ++i)
    v = std::max({v, -z(i), -w(i), std::abs(std::min(z(i), w(i)))});
  return v;
}

// The Mathias-Pang bound for a positive definite A: |z - z*|_2 <=
// (1 + |A|_2) / lambda_min(sym A) * |min(z, Az + b)|_2. Two solutions with
// residuals r1, r2 (inf-norm) differ by at most this for r = r1 + r2.
inline double spd_solution_distance_bound(const MatX& A, double residual) {
  const MatX S = 0.5 * (A + A.transpose());
  const Eigen::SelfAdjointEigenSolver<MatX> eig(S);
  const double lmin = eig.eigenvalues().minCoeff();
  const double norm2 = Eigen::JacobiSVD<MatX>(A).singularValues()(0);
  return (1.0 + norm2) / lmin * residual * std::sqrt(static_cast<double>(A.rows()));
}

// A Stewart-Trinkle time step (thesis eq. 6.1) built from bodies and contacts.
struct StewartTrinkleStep {
  int bodies = 0;
  int contacts = 0;
  int directions = 0;  // n_d per contact
  MatX Minv;           // 6 bodies x 6 bodies, block diagonal
  MatX Gn;             // dofs x contacts
  MatX Gf;             // dofs x contacts * n_d
  VecX nu_free;        // nu^l + M^-1 p_ext
  VecX gap_rate;       // psi_n / h
  VecX mu;             // per contact
  LcpProblem lcp;
};

// A random scene: `bodies` free bodies with random SPD 6x6 mass matrices,
// `contacts` point contacts, each between a random body and either the world
// or another body, random normals, levers, approach velocities and gaps.
// Body masses are scaled by 10^u, u uniform in [-mass_decades/2, mass_decades/2].
inline StewartTrinkleStep random_stewart_trinkle(std::mt19937& rng, int bodies, int contacts,
                                                 int directions, double mu_max = 1.0,
                                                 double mass_decades = 0.0) {
  StewartTrinkleStep st;
  st.bodies = bodies;
  st.contacts = contacts;
  st.directions = directions;
  const int dofs = 6 * bodies;
  st.Minv = MatX::Zero(dofs, dofs);
  for (int b = 0; b < bodies; ++b) {
    const MatX R = random_matrix(rng, 6, 6);
    const double scale = std::pow(10.0, uniform(rng, -0.5, 0.5) * mass_decades);
    const MatX mass = scale * (R * R.transpose() + uniform(rng, 0.5, 3.0) * MatX::Identity(6, 6));
    st.Minv.block(6 * b, 6 * b, 6, 6) = mass.llt().solve(MatX::Identity(6, 6));
  }
  st.Gn = MatX::Zero(dofs, contacts);
  st.Gf = MatX::Zero(dofs, contacts * directions);
  st.mu.resize(contacts);
  st.gap_rate.resize(contacts);
  const double h = 0.01;
  auto wrench = [](const Vec3& r, const Vec3& d) {
    Vec6 g;
    g << d, r.cross(d);
    return g;
  };
  for (int c = 0; c < contacts; ++c) {
    const int a = std::uniform_int_distribution<int>(0, bodies - 1)(rng);
    int other = std::uniform_int_distribution<int>(-1, bodies - 1)(rng);  // -1: the world
    if (other == a) other = -1;
    const Vec3 n = Vec3(uniform(rng, -1, 1), uniform(rng, -1, 1), uniform(rng, -1, 1)).normalized();
    const Vec3 t1 = n.unitOrthogonal();
    const Vec3 t2 = n.cross(t1);
    const Vec3 ra(uniform(rng, -1, 1), uniform(rng, -1, 1), uniform(rng, -1, 1));
    const Vec3 rb(uniform(rng, -1, 1), uniform(rng, -1, 1), uniform(rng, -1, 1));
    st.Gn.block<6, 1>(6 * a, c) = wrench(ra, n);
    if (other >= 0) st.Gn.block<6, 1>(6 * other, c) = -wrench(rb, n);
    for (int k = 0; k < directions; ++k) {
      const double angle = 2.0 * std::numbers::pi * k / directions;
      const Vec3 d = std::cos(angle) * t1 + std::sin(angle) * t2;
      const int col = c * directions + k;
      st.Gf.block<6, 1>(6 * a, col) = wrench(ra, d);
      if (other >= 0) st.Gf.block<6, 1>(6 * other, col) = -wrench(rb, d);
    }
    st.mu(c) = uniform(rng, 0.0, mu_max);
    st.gap_rate(c) = uniform(rng, -0.002, 0.01) / h;
  }
  st.nu_free.resize(dofs);
  for (int i = 0; i < dofs; ++i) st.nu_free(i) = uniform(rng, -1.0, 1.0);

  // eq. 6.1
  const int nc = contacts;
  const int nf = contacts * directions;
  const int n = nc + nf + nc;
  LcpProblem& p = st.lcp;
  p.A = MatX::Zero(n, n);
  p.b = VecX::Zero(n);
  MatX G(dofs, nc + nf);
  G << st.Gn, st.Gf;
  p.A.topLeftCorner(nc + nf, nc + nf) = G.transpose() * st.Minv * G;
  p.b.head(nc + nf) = G.transpose() * st.nu_free;
  p.b.head(nc) += st.gap_rate;
  p.role.assign(n, RowRole::Normal);
  p.contact_of.assign(n, -1);
  for (int c = 0; c < nc; ++c) {
    const int s = nc + nf + c;
    p.role[s] = RowRole::Slip;
    p.contact_of[s] = c;
    p.A(s, c) = st.mu(c);  // U
    for (int k = 0; k < directions; ++k) {
      const int f = nc + c * directions + k;
      p.role[f] = RowRole::Friction;
      p.contact_of[f] = c;
      p.A(f, s) = 1.0;   // E
      p.A(s, f) = -1.0;  // -E'
    }
  }
  return st;
}

// The Stewart-Trinkle conditions checked from the physics, not from A z + b:
// nu+ = nu_free + M^-1 (Gn p_n + Gf p_f) (eq. 6.2) and
//   0 <= p_n  perp  Gn' nu+ + psi/h >= 0                    (eq. 2.27)
//   0 <= p_f  perp  Gf' nu+ + E s >= 0                       (eq. 2.21)
//   0 <= s    perp  U p_n - E' p_f >= 0                      (eq. 2.21)
// Returns the largest violation (negativity or |min(x, y)| of a pair).
inline double stewart_trinkle_violation(const StewartTrinkleStep& st, const VecX& z) {
  const int nc = st.contacts;
  const int nf = nc * st.directions;
  const VecX pn = z.head(nc);
  const VecX pf = z.segment(nc, nf);
  const VecX s = z.tail(nc);
  const VecX nu = st.nu_free + st.Minv * (st.Gn * pn + st.Gf * pf);
  VecX rho_n = st.Gn.transpose() * nu + st.gap_rate;
  VecX rho_f = st.Gf.transpose() * nu;
  VecX sigma(nc);
  for (int c = 0; c < nc; ++c) {
    rho_f.segment(c * st.directions, st.directions).array() += s(c);
    sigma(c) = st.mu(c) * pn(c) - pf.segment(c * st.directions, st.directions).sum();
  }
  double v = 0.0;
  auto pair = [&](const VecX& x, const VecX& y) {
    for (int i = 0; i < x.size(); ++i)
      v = std::max({v, -x(i), -y(i), std::abs(std::min(x(i), y(i)))});
  };
  pair(pn, rho_n);
  pair(pf, rho_f);
  pair(s, sigma);
  return v;
}

}  // namespace pegsim::test
