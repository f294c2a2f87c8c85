// The subspace step of PGS (see pgs.hpp).
//
// Why: Gauss-Seidel damps an error mode of A at a rate set by its eigenvalue
// relative to A's diagonal. A stack of boxes has bending modes of the whole
// column: on the 10-box stack (box-stack-3d at rest, 40 contacts, the normal
// and two tangent rows per contact) the smallest non-zero eigenvalues of
// D^-1/2 A D^-1/2 are 1.2e-4 (twice), 4.4e-3, 1.6e-2, the largest ~5; 60 are
// zero (redundant contacts). Sweeps alone then shrink the residual by ~2e-4
// per sweep once the active set has settled: from zero, 2.9e-5 after 500
// sweeps and 6.7e-7 after 16000, against a threshold of 1.05e-10.
//
// What: with the active set of the current iterate fixed (rows that are Free
// or that the next projection of eq. 2.46 keeps positive, z_i - w_i/A_ii > 0:
// w_i = 0; sticking contacts, sum p_f < mu p_n: tangential velocity K v_f = 0,
// two equations per contact in the coordinates of pgs_friction.cpp), the
// equations are linear in the correction
//   S'A S x = -r,     z <- z + S x,
// S the variables' directions (e_i for rows; K' for a contact's tangential
// impulse, so that S'AS is K H K' = I on a contact's own block) and r the
// equations' values at z. S'AS is symmetric positive semidefinite (A =
// G'M^-1G on these variables), singular with redundant contacts; conjugate
// gradients from x = 0 stay in its range and give the minimal-norm
// correction, the one nearest the current iterate. The correction is then
// projected: z_i >= 0 on NonNegative rows, each tangential impulse onto its
// cone (FrictionBlock::place). Sliding contacts, inactive rows and rows with
// coupling outside eq. 6.1 keep their values. The sweeps that follow restore
// complementarity where the active set was wrong; the caller undoes a step
// that made the residual worse.
#include "solvers/pgs.hpp"

#include "solvers/solver_common.hpp"

#include <algorithm>
#include <cmath>

namespace pegsim::pgs_detail {
namespace {

constexpr double kSaturated = 1e-9;  // sum p_f >= (1 - this) mu p_n: sliding, left out

}  // namespace

bool subspace_step(const LcpProblem& p, Schedule& s, Engine& e, VecX& z, double target) {
  std::vector<SubspaceVar> vars;
  for (int item : s.order) {
    if (item >= 0) {  // active: Free, or kept positive by its next projection (eq. 2.46)
      const bool active = solver_detail::is_free(p, item) || z(item) - e.velocity(item, z) / e.diag(item) > 0.0;
      if (active && e.joins(item)) vars.push_back({item, -1, 0});
      continue;
    }
    const int c = -item - 1;
    const ContactBlock& b = s.contacts[c];
    const double cap = b.cap(z);
    if (!(cap > 0.0) || !e.joins_contact(c)) continue;
    double sum = 0.0;
    for (int f : b.friction) sum += z(f);
    if (!(sum < (1.0 - kSaturated) * cap)) continue;
    for (int r = 0; r < b.block.rank(); ++r) vars.push_back({-1, c, r});
  }
  const int k = static_cast<int>(vars.size());
  if (k == 0) return false;

  // r: the equations' values now; the Jacobi preconditioner
  VecX r(k), dinv(k), v;
  for (int j = 0; j < k; ++j) {
    const SubspaceVar& var = vars[j];
    if (var.row >= 0) {
      r(j) = e.velocity(var.row, z);
      dinv(j) = 1.0 / e.diag(var.row);
      continue;
    }
    const ContactBlock& b = s.contacts[var.contact];
    if (var.coord == 0) {
      v.resize(static_cast<Eigen::Index>(b.friction.size()));
      for (std::size_t f = 0; f < b.friction.size(); ++f) v(f) = e.friction_velocity(b.friction[f], b.slip, z);
    }
    r(j) = b.block.K().row(var.coord).dot(v);
    dinv(j) = 1.0;  // K H K' = I
  }
  const double r0 = r.cwiseAbs().maxCoeff();
  if (!(r0 > target)) return false;

  // preconditioned conjugate gradients on S'AS x = -r, keeping the best iterate
  e.prepare(vars, s);
  VecX x = VecX::Zero(k), best_x = x, res = -r, d, Ad;
  VecX pre = dinv.cwiseProduct(res);
  d = pre;
  double rz = res.dot(pre);
  double best = r0;
  const int max_iterations = 2 * k + 10;  // S'AS has rank <= k: CG is exact in k steps without round-off
  for (int it = 0; it < max_iterations; ++it) {
    e.multiply(vars, d, Ad);
    const double dAd = d.dot(Ad);
    if (!(dAd > 0.0)) break;
    const double alpha = rz / dAd;
    x += alpha * d;
    res -= alpha * Ad;
    const double norm = res.cwiseAbs().maxCoeff();
    if (norm < best) {
      best = norm;
      best_x = x;
    }
    if (norm <= target) break;
    pre = dinv.cwiseProduct(res);
    const double rz_next = res.dot(pre);
    d = pre + (rz_next / rz) * d;
    rz = rz_next;
  }
  if (!(best < r0)) return false;

  // apply: rows first (the caps mu p_n), then the tangential impulses
  for (int j = 0; j < k; ++j) {
    const int i = vars[j].row;
    if (i < 0) continue;
    double zi = z(i) + best_x(j);
    if (!solver_detail::is_free(p, i)) zi = std::max(zi, 0.0);
    const double dz = zi - z(i);
    if (dz == 0.0) continue;
    z(i) = zi;
    e.add(i, dz);
  }
  VecX pf;
  for (int j = 0; j < k; ++j) {
    const SubspaceVar& var = vars[j];
    if (var.row >= 0 || var.coord != 0) continue;
    ContactBlock& b = s.contacts[var.contact];
    const int m = static_cast<int>(b.friction.size());
    pf.resize(m);
    for (int f = 0; f < m; ++f) pf(f) = z(b.friction[f]);
    Vec2 P = b.block.C() * pf;
    for (int c = 0; c < b.block.rank(); ++c) P(c) += best_x(j + c);
    b.block.place(pf, P, b.cap(z));
    for (int f = 0; f < m; ++f) {
      const double dz = pf(f) - z(b.friction[f]);
      if (dz == 0.0) continue;
      z(b.friction[f]) = pf(f);
      e.add(b.friction[f], dz);
    }
  }
  return true;
}

}  // namespace pegsim::pgs_detail
