// Active sets for Lemke's method: warm-start guess, solve, refinement (see
// lemke_active_set.hpp).
#include "solvers/lemke_active_set.hpp"

#include "solvers/solver_common.hpp"

#include <Eigen/LU>
#include <Eigen/QR>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>

namespace pegsim::lemke_detail {
namespace {

constexpr double kDependentPivot = 1e-10;  // |U_jj| below this (relative): column j is dependent
constexpr int kBlockRounds = 3;            // rounds that move every violated row at once
constexpr double kActFraction = 0.5;       // violations above this share of the threshold move

// The raw point of J (negative z_J kept), with J's dependent rows dropped.
// False when no finite point comes out.
bool solve_system(const LcpProblem& p, const VecX& D, std::vector<int>& J, VecX& z) {
  const int n = p.size();
  z = VecX::Zero(n);
  MatX S;
  VecX rhs, y;
  for (int attempt = 0; attempt < 3; ++attempt) {
    const int k = static_cast<int>(J.size());
    if (k == 0) return true;
    S.resize(k, k);
    rhs.resize(k);
    for (int c = 0; c < k; ++c) {
      rhs(c) = -D(J[c]) * p.b(J[c]);
      for (int r = 0; r < k; ++r) S(r, c) = D(J[r]) * p.A(J[r], J[c]) * D(J[c]);
    }
    const Eigen::PartialPivLU<MatX> lu(S);
    const VecX u = lu.matrixLU().diagonal().cwiseAbs();
    const double cut = kDependentPivot * std::max(u.maxCoeff(), 1.0);
    std::vector<int> keep;
    keep.reserve(k);
    for (int c = 0; c < k; ++c)
      if (u(c) > cut) keep.push_back(J[c]);
    if (static_cast<int>(keep.size()) == k) {
      y = lu.solve(rhs);
      if (!y.allFinite()) return false;
      for (int c = 0; c < k; ++c) z(J[c]) = D(J[c]) * y(c);
      return true;
    }
    J.swap(keep);
  }
  // still singular: the minimum-norm least-squares point of what is left
  const int k = static_cast<int>(J.size());
  y = Eigen::CompleteOrthogonalDecomposition<MatX>(S.topLeftCorner(k, k)).solve(rhs.head(k));
  if (!y.allFinite()) return false;
  for (int c = 0; c < k; ++c) z(J[c]) = D(J[c]) * y(c);
  return true;
}

}  // namespace

VecX equilibration(const MatX& A) {
  const int n = static_cast<int>(A.rows());
  VecX D = VecX::Zero(n);
  for (int i = 0; i < n; ++i)
    if (A(i, i) > 0.0) D(i) = 1.0 / std::sqrt(A(i, i));
  for (int i = 0; i < n; ++i) {
    if (D(i) > 0.0) continue;
    double row = 0.0, col = 0.0;
    for (int j = 0; j < n; ++j) {
      if (!(D(j) > 0.0)) continue;
      row = std::max(row, std::abs(A(i, j)) * D(j));
      col = std::max(col, std::abs(A(j, i)) * D(j));
    }
    D(i) = row > 0.0 && col > 0.0 ? 1.0 / std::sqrt(row * col) : 1.0;
  }
  return D;
}

std::vector<int> guess_active_set(const LcpProblem& p, const VecX& z) {
  const int n = p.size();
  std::vector<int> J;
  for (int i = 0; i < n; ++i)
    if (z(i) > 0.0) J.push_back(i);
  if (p.role.empty() || p.contact_of.empty()) return J;
  std::vector<int> slip_of_normal(n, -1);
  for (int i = 0; i < n; ++i)
    if (p.role[i] == RowRole::Slip && z(i) > 0.0 && p.contact_of[i] >= 0)
      slip_of_normal[p.contact_of[i]] = i;
  std::vector<int> least(n, -1);  // per normal row: friction row of least w, -1 if any p_f > 0
  std::vector<char> has_impulse(n, 0);
  const VecX w = p.A * z + p.b;
  for (int f = 0; f < n; ++f) {
    const int c = p.contact_of[f];
    if (p.role[f] != RowRole::Friction || c < 0 || slip_of_normal[c] < 0) continue;
    if (z(f) > 0.0) has_impulse[c] = 1;
    if (least[c] < 0 || w(f) < w(least[c])) least[c] = f;
  }
  for (int c = 0; c < n; ++c)
    if (least[c] >= 0 && !has_impulse[c]) J.push_back(least[c]);
  std::sort(J.begin(), J.end());
  return J;
}

Refined refine_active_set(const LcpProblem& p, const VecX& D, std::vector<int> J,
                          double threshold, int rounds) {
  const int n = p.size();
  Refined best;
  best.z = VecX::Zero(n);
  measure_residuals(p, best.z, best.residuals);
  best.within = solver_detail::residual_norm(best.residuals) <= threshold;
  if (best.within) return best;
  std::vector<char> in(n, 0);
  std::vector<int> enter(n, -1);  // per contact (normal row): its friction row entering
  VecX z, zc, w;
  const double act = kActFraction * threshold;
  for (int round = 0; round < rounds; ++round) {
    std::sort(J.begin(), J.end());
    J.erase(std::unique(J.begin(), J.end()), J.end());
    if (!solve_system(p, D, J, z)) break;
    ++best.solves;
    zc = z.cwiseMax(0.0);
    w = p.b;
    for (int j : J)
      if (zc(j) != 0.0) w.noalias() += zc(j) * p.A.col(j);
    SolverResult r;
    solver_detail::residuals_from_w(p, zc, w, r);
    if (solver_detail::residual_norm(r) < solver_detail::residual_norm(best.residuals)) {
      best.z = zc;
      best.residuals = r;
    }
    if (solver_detail::residual_norm(r) <= threshold) {
      best.within = true;
      return best;
    }
    // the violated rows: (row, violation), leaving rows flagged by z < 0
    std::fill(in.begin(), in.end(), 0);
    for (int j : J) in[j] = 1;
    std::vector<std::pair<int, double>> moves;
    for (int j : J)
      if (z(j) < -act) moves.emplace_back(j, -z(j));
    std::fill(enter.begin(), enter.end(), -1);
    for (int i = 0; i < n; ++i) {
      if (in[i] || !(w(i) < -act)) continue;
      const int c = solver_detail::contact_of(p, i);
      if (solver_detail::role_of(p, i) == RowRole::Friction && c >= 0) {
        if (enter[c] < 0 || w(i) < w(enter[c])) enter[c] = i;
        continue;
      }
      moves.emplace_back(i, -w(i));
    }
    for (int c = 0; c < n; ++c)
      if (enter[c] >= 0) moves.emplace_back(enter[c], -w(enter[c]));
    if (getenv("DBGR")) {
      std::printf("  round %d |J| %zu res %.3e moves %zu:", round, J.size(), solver_detail::residual_norm(r), moves.size());
      for (auto& [i, v] : moves) std::printf(" %s%d(r%d,c%d,%.1e)", in[i] ? "-" : "+", i, int(solver_detail::role_of(p, i)), solver_detail::contact_of(p, i), v);
      std::printf("\n");
    }
    if (moves.empty()) break;
    if (round >= kBlockRounds) {  // single pivot on the worst violation
      const auto worst = std::max_element(moves.begin(), moves.end(),
                                          [](const auto& a, const auto& b) { return a.second < b.second; });
      moves = {*worst};
    }
    for (const auto& [i, v] : moves) in[i] = !in[i];
    best.exchanges += static_cast<int>(moves.size());
    J.clear();
    for (int i = 0; i < n; ++i)
      if (in[i]) J.push_back(i);
  }
  return best;
}

}  // namespace pegsim::lemke_detail
