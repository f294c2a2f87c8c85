// Active sets for Lemke's method: warm-start guess, solve, refinement (see
// lemke_active_set.hpp).
#include "solvers/lemke_active_set.hpp"

#include "solvers/lemke_sweep.hpp"
#include "solvers/solver_common.hpp"

#include <Eigen/LU>
#include <Eigen/QR>

#include <algorithm>
#include <cmath>

namespace pegsim::lemke_detail {
namespace {

constexpr double kDependentPivot = 1e-10;  // |U_jj| below this (relative): column j depends
constexpr double kNoiseImpulse = 1e-9;     // z_i below this share of max z: not in a support
constexpr double kStructural = 100.0;      // violations above this many thresholds move rows
constexpr double kSweepFrom = 1000.0;      // sweeps start from residuals below this many thresholds
constexpr double kStall = 0.05;            // sweeps stop when three gain less than this share
// Sweeps visit only the blocks that violate the target (the residual is the
// largest block violation, so the sweeps stop as soon as none is left). A
// share of 0.1 also re-solved every block within rounding of the target, most
// of a resting stack's 40 contacts each sweep: box-stack-3d's solver stage
// took 265 us a step against 175 us with 1.0, with the same 0 failures and
// 0.01 pivots a step (docs/performance.md, 2026-11-29).
constexpr double kSkipShare = 1.0;
constexpr int kExtraSweeps = 4;            // sweeps towards the target once within the threshold

// The raw point of J (negative z_J kept) into ws.z, with J's dependent rows
// dropped. False when no finite point comes out.
template <class Matrix>
bool solve_system(const Matrix& A, const VecX& D, std::vector<int>& J, RefineWorkspace& ws) {
  const LcpProblem& p = A.problem();
  const int n = p.size();
  VecX& z = ws.z;
  MatX& S = ws.S;
  VecX& rhs = ws.rhs;
  VecX& y = ws.y;
  z.setZero(n);
  auto gather = [&] {  // S = D_J A_JJ D_J, rhs = -D_J b_J
    const int k = static_cast<int>(J.size());
    S.resize(k, k);
    rhs.resize(k);
    A.block(J.data(), k, S.data());  // A_JJ, column-major as S (J is sorted and distinct)
    for (int c = 0; c < k; ++c) {
      rhs(c) = -D(J[c]) * p.b(J[c]);
      for (int r = 0; r < k; ++r) S(r, c) = D(J[r]) * S(r, c) * D(J[c]);
    }
  };
  for (int attempt = 0; attempt < 3; ++attempt) {
    const int k = static_cast<int>(J.size());
    if (k == 0) return true;
    gather();
    ws.lu.compute(S);
    ws.pivots = ws.lu.matrixLU().diagonal().cwiseAbs();
    const double cut = kDependentPivot * std::max(ws.pivots.maxCoeff(), 1.0);
    std::vector<int>& keep = ws.keep;
    keep.clear();
    for (int c = 0; c < k; ++c)
      if (ws.pivots(c) > cut) keep.push_back(J[c]);
    if (static_cast<int>(keep.size()) == k) {
      y = ws.lu.solve(rhs);
      if (!y.allFinite()) return false;
      for (int c = 0; c < k; ++c) z(J[c]) = D(J[c]) * y(c);
      return true;
    }
    J.swap(keep);
  }
  // still singular: the minimum-norm least-squares point of what is left
  const int k = static_cast<int>(J.size());
  if (k == 0) return true;
  gather();
  y = Eigen::CompleteOrthogonalDecomposition<MatX>(S).solve(rhs);
  if (!y.allFinite()) return false;
  for (int c = 0; c < k; ++c) z(J[c]) = D(J[c]) * y(c);
  return true;
}

template <class Matrix>
BlockSweeper<Matrix>& sweeper_of(RefineWorkspace& ws);
template <>
BlockSweeper<solver_detail::DenseMatrix>& sweeper_of(RefineWorkspace& ws) {
  return ws.dense_sweeper;
}
template <>
BlockSweeper<solver_detail::StructuredMatrix>& sweeper_of(RefineWorkspace& ws) {
  return ws.structured_sweeper;
}

template <class Matrix>
const Refined& refine(const Matrix& A, const VecX& D, double threshold, double target, int rounds, int sweeps,
                      RefineWorkspace& ws) {
  const LcpProblem& p = A.problem();
  const int n = p.size();
  Refined& best = ws.result;
  best.z.setZero(n);
  best.solves = best.exchanges = best.sweeps = 0;
  best.within = false;
  best.residuals = SolverResult{};
  solver_detail::residuals_from_w(p, best.z, p.b, best.residuals);
  auto consider = [&](const VecX& z, const SolverResult& r) {
    if (solver_detail::residual_norm(r) < solver_detail::residual_norm(best.residuals)) {
      best.z = z;
      best.residuals = r;
    }
    best.within = solver_detail::residual_norm(best.residuals) <= threshold;
    return solver_detail::residual_norm(best.residuals) <= target;
  };
  if (consider(best.z, best.residuals)) return best;
  std::vector<int>& J = ws.J;
  std::vector<char>& in = ws.in;
  in.assign(static_cast<std::size_t>(n), 0);
  const ContactLayout* layout = contact_layout(p, ws.layout, ws.why);
  if (!layout) layout = &ws.layout;  // no eq. 6.1 blocks: every row moves on its own
  std::vector<int>& enter = ws.enter;  // per contact: its friction row entering
  std::vector<int>& moves = ws.moves;
  moves.clear();
  VecX& z = ws.z;
  VecX& zc = ws.zc;
  VecX& w = ws.w;
  const double structural = kStructural * threshold;
  for (int round = 0; round < rounds; ++round) {
    std::sort(J.begin(), J.end());
    J.erase(std::unique(J.begin(), J.end()), J.end());
    if (!solve_system(A, D, J, ws)) break;
    ++best.solves;
    best.exchanges += static_cast<int>(moves.size());
    zc = z.cwiseMax(0.0);
    A.product_on(J, zc, w);
    SolverResult r;
    solver_detail::residuals_from_w(p, zc, w, r);
    if (consider(zc, r)) return best;
    // principal pivots on the structural violations: z_j < 0 leaves, w_i < 0 enters
    std::fill(in.begin(), in.end(), 0);
    for (int j : J) in[j] = 1;
    moves.clear();
    for (int j : J)
      if (z(j) < -structural) moves.push_back(j);
    enter.assign(layout->contacts.size(), -1);
    for (int i = 0; i < n; ++i) {
      if (in[i] || !(w(i) < -structural)) continue;
      const int c = layout->contact_at.empty() ? -1 : layout->contact_at[static_cast<std::size_t>(i)];
      if (solver_detail::role_of(p, i) == RowRole::Friction && c >= 0) {
        if (enter[c] < 0 || w(i) < w(enter[c])) enter[c] = i;
      } else {
        moves.push_back(i);
      }
    }
    for (int e : enter)
      if (e >= 0) moves.push_back(e);
    if (moves.empty()) break;
    for (int i : moves) in[i] = !in[i];
    J.clear();
    for (int i = 0; i < n; ++i)
      if (in[i]) J.push_back(i);
  }
  // the noise-level violations: block Gauss-Seidel from the best point
  if (sweeps <= 0 || best.solves == 0 ||
      solver_detail::residual_norm(best.residuals) > kSweepFrom * threshold)
    return best;
  BlockSweeper<Matrix>& sweeper = sweeper_of<Matrix>(ws);
  sweeper.assign(A);
  z = best.z;
  A.product(z, w);
  double three_ago = solver_detail::residual_norm(best.residuals);
  int within_at = best.within ? 0 : -1;  // the sweep that first met the threshold
  for (int k = 0; k < sweeps; ++k) {
    if (within_at >= 0 && k - within_at >= kExtraSweeps) break;
    sweeper.sweep(z, w, kSkipShare * target);
    ++best.sweeps;
    SolverResult r;
    solver_detail::residuals_from_w(p, z, w, r);
    if (consider(z, r)) return best;
    if (within_at < 0 && best.within) within_at = k + 1;
    if (k % 3 == 2) {  // stalled: less than kStall gained over three sweeps
      const double now = solver_detail::residual_norm(best.residuals);
      if (now > (1.0 - kStall) * three_ago) break;
      three_ago = now;
    }
  }
  return best;
}

}  // namespace

VecX equilibration(const MatX& A) {
  VecX D, row, col;
  std::vector<int> rest;
  equilibration(A, D, row, col, rest);
  return D;
}

void equilibration(const MatX& A, VecX& D, VecX& row, VecX& col, std::vector<int>& rest) {
  const int n = static_cast<int>(A.rows());
  D.setZero(n);
  rest.clear();  // rows without a positive diagonal
  for (int i = 0; i < n; ++i) {
    if (A(i, i) > 0.0)
      D(i) = 1.0 / std::sqrt(A(i, i));
    else
      rest.push_back(i);
  }
  // their row and column sizes against the scaled rows: D is still 0 on the
  // rest, whose entries so add nothing (A is finite here: the solvers check
  // it first), and a maximum does not round, so these vectorised passes give
  // the sizes over the scaled rows only, bit for bit
  row.setZero(n);
  col.setZero(n);
  if (rest.empty()) return;
  for (int i : rest) {
    row(i) = A.row(i).cwiseAbs().cwiseProduct(D.transpose()).maxCoeff();
    col(i) = A.col(i).cwiseAbs().cwiseProduct(D).maxCoeff();
  }
  for (int i : rest)
    D(i) = row(i) > 0.0 && col(i) > 0.0 ? 1.0 / std::sqrt(row(i) * col(i)) : 1.0;
}

namespace {

// guess_active_set into J, with the layout's scratch
void guess_into(const LcpProblem& p, const VecX& z, std::vector<int>& J, ContactLayout& scratch, std::string& why) {
  const int n = p.size();
  J.clear();
  const double cut = kNoiseImpulse * z.maxCoeff();
  for (int i = 0; i < n; ++i)
    if (z(i) > cut) J.push_back(i);
  const ContactLayout* layout = contact_layout(p, scratch, why);
  if (!layout) return;
  bool sliding = false;
  for (const ContactRows& c : layout->contacts) sliding = sliding || z(c.slip) > cut;
  if (!sliding) return;
  const VecX w = complementarity_w(p, z);  // through A, or the structure (active_set.hpp)
  for (const ContactRows& c : layout->contacts) {
    if (!(z(c.slip) > cut) || c.friction_begin == c.friction_end) continue;
    int least = -1;  // the friction row of least w, unless some p_f > 0
    bool impulse = false;
    for (int k = c.friction_begin; k < c.friction_end; ++k) {
      const int f = layout->friction[static_cast<std::size_t>(k)];
      impulse = impulse || z(f) > cut;
      if (least < 0 || w(f) < w(least)) least = f;
    }
    if (!impulse) J.push_back(least);
  }
  std::sort(J.begin(), J.end());
}

}  // namespace

std::vector<int> guess_active_set(const LcpProblem& p, const VecX& z) {
  std::vector<int> J;
  ContactLayout scratch;
  std::string why;
  guess_into(p, z, J, scratch, why);
  return J;
}

void guess_active_set(const LcpProblem& p, const VecX& z, RefineWorkspace& ws) {
  guess_into(p, z, ws.J, ws.layout, ws.why);
}

const Refined& refine_active_set(const LcpProblem& p, const VecX& D, double threshold, double target, int rounds,
                                 int sweeps, RefineWorkspace& workspace) {
  return refine(solver_detail::DenseMatrix(p), D, threshold, target, rounds, sweeps, workspace);
}

const Refined& refine_active_set(const solver_detail::StructuredMatrix& A, const VecX& D, double threshold,
                                 double target, int rounds, int sweeps, RefineWorkspace& workspace) {
  return refine(A, D, threshold, target, rounds, sweeps, workspace);
}

}  // namespace pegsim::lemke_detail
