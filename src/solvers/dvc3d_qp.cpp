// dvc3D's normal/friction splitting (Nguyen & Trinkle, "dvc3D", reference
// 001, section 5): the Stewart-Trinkle MLCP (its eq. 11; thesis eq. 6.1) as
// two convex QPs solved in turn until the impulses stop changing:
//   1. normal QP, p_f and s fixed: the LCP of the Normal (and Free
//      Bilateral) rows,  0 <= p_n  perp  A_nn p_n + (b_n + A_nf p_f) >= 0,
//      the KKT conditions of  min 1/2 p_n'A_nn p_n + p_n'(b_n + A_nf p_f),
//      p_n >= 0  (A_nn = G_n'M^-1G_n, symmetric PSD). Inner solver: the
//      principal pivoting method (ppm.cpp), an exact active-set method,
//      warm started from the last p_n.
//   2. friction QP, p_n fixed: min 1/2 p_f'A_ff p_f + p_f'(b_f + A_fn p_n)
//      over p_f >= 0, sum_k p_f,k <= mu p_n per contact; its KKT conditions
//      are eq. 2.21 with s the multiplier of the cap. Inner solver: block
//      Gauss-Seidel over the contacts, each block solved exactly
//      (pgs_detail::FrictionBlock, pgs_friction.cpp), until p_f changes by
//      less than the tolerance (at most kFrictionSweeps sweeps); then
//      s = max(0, -min_k v_f,k) per contact (pgs.hpp, step 3).
// The paper stops when the velocities of the two subproblems agree
// (|nu_1 - nu_2| <= eps); here, equivalently for the impulses, when the full
// problem's residuals (SolverResult) are within the tolerance, checked after
// every round. The rounds converge when friction couples weakly to the
// normal impulses; otherwise MaxIterations (default 200 rounds).
// Structure needed: every row Normal, Friction or Slip (eq. 6.1, found
// through role and contact_of, slip rows checked against A), or a Free
// Bilateral row. Anything else (PEG's PegSlack rows, rows without roles) is
// Unsupported: the splitting has no meaning there. The normal block must be
// symmetric (ppm). Warm start: the given z, clamped; a solution stops at once.
#include "solvers/pgs.hpp"
#include "solvers/solver_common.hpp"

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

namespace pegsim {
namespace {

using solver_detail::is_free;
using solver_detail::role_of;

constexpr int kFrictionSweeps = 100;

class Dvc3dQpSolver final : public LcpSolver {
 public:
  explicit Dvc3dQpSolver(const SolverOptions& options) : options_(options) {
    SolverOptions inner = options;
    inner.max_iterations = 0;
    inner.tolerance = 0.1 * options.tolerance;  // the subproblems tighter than the whole
    normal_solver_ = make_ppm_solver(inner);
  }
  std::string_view name() const override { return "dvc3d-qp"; }
  SolverResult solve(const LcpProblem& problem, VecX& z) override;
  static constexpr int kDefaultMaxRounds = 200;

 private:
  SolverOptions options_;
  std::unique_ptr<LcpSolver> normal_solver_;
  pgs_detail::Schedule schedule_;
};

SolverResult Dvc3dQpSolver::solve(const LcpProblem& p, VecX& z) {
  const solver_detail::Stopwatch clock;
  SolverResult result;
  auto finish = [&](SolverStatus s, std::string message) {
    return solver_detail::finish(result, clock, s, std::move(message));
  };
  if (!solver_detail::check_problem(p, "dvc3d-qp", result)) return finish(result.status, result.message);
  const int n = p.size();
  if (z.size() != n || !z.allFinite()) z = VecX::Zero(n);
  if (n == 0) return finish(SolverStatus::Solved, {});
  for (int i = 0; i < n; ++i)
    if (!is_free(p, i)) z(i) = std::max(z(i), 0.0);
  VecX w = p.A * z + p.b;
  solver_detail::residuals_from_w(p, z, w, result);
  if (solver_detail::within_tolerance(p, result, options_.tolerance)) return finish(SolverStatus::Solved, {});
  for (int i = 0; i < n; ++i) {
    const RowRole r = role_of(p, i);
    const bool fits = is_free(p, i) ? r == RowRole::Bilateral
                                    : r == RowRole::Normal || r == RowRole::Friction || r == RowRole::Slip;
    if (!fits)
      return finish(SolverStatus::Unsupported, "dvc3d-qp: row " + std::to_string(i) +
                                                   " is not a Normal, Friction, Slip or Free Bilateral row");
  }
  pgs_detail::Schedule& s = schedule_;
  std::string why = pgs_detail::find_contacts(p, s);
  if (why.empty()) why = pgs_detail::dense_contact_blocks(p, s);
  if (!why.empty()) return finish(SolverStatus::Unsupported, "dvc3d-qp: " + why);
  std::vector<char> in_contact(n, 0);
  for (const pgs_detail::ContactBlock& c : s.contacts) {
    in_contact[c.slip] = 1;
    for (int f : c.friction) in_contact[f] = 1;
  }
  std::vector<int> normal;  // the rows of QP 1
  for (int i = 0; i < n; ++i) {
    if (in_contact[i]) continue;
    if (role_of(p, i) == RowRole::Friction || role_of(p, i) == RowRole::Slip)
      return finish(SolverStatus::Unsupported, "dvc3d-qp: friction row " + std::to_string(i) + " has no contact");
    normal.push_back(i);
  }

  // QP 1's problem: A_nn fixed, b from the current friction impulses
  LcpProblem qp1;
  const int nn = static_cast<int>(normal.size());
  qp1.A.resize(nn, nn);
  qp1.b.resize(nn);
  for (int c = 0; c < nn; ++c)
    for (int r = 0; r < nn; ++r) qp1.A(r, c) = p.A(normal[r], normal[c]);
  for (int r = 0; r < nn; ++r) qp1.bound.push_back(is_free(p, normal[r]) ? RowBound::Free : RowBound::NonNegative);
  VecX z1(nn), v, pf;
  auto set = [&](int i, double value) {  // z_i = value, w kept as A z + b
    const double dz = value - z(i);
    if (dz == 0.0) return;
    z(i) = value;
    w.noalias() += dz * p.A.col(i);
  };
  const double threshold = solver_detail::residual_threshold(p, options_.tolerance);
  const double perp_tol = std::max(1e-3 * threshold, 1e-14 * (1.0 + p.b.cwiseAbs().maxCoeff()));
  const int max_rounds = options_.max_iterations > 0 ? options_.max_iterations : kDefaultMaxRounds;
  const SolveDeadline deadline(options_);
  for (int round = 1; round <= max_rounds; ++round) {
    if (round > 1 && deadline.expired())  // the residuals are the last round's
      return finish(SolverStatus::MaxIterations, solver_detail::time_budget_message("dvc3d-qp", options_, round - 1));
    result.iterations = round;
    // 1. normal QP: b_n + A_nf p_f (+ A_ns s = 0 in eq. 6.1) is w_n - A_nn p_n
    for (int r = 0; r < nn; ++r) {
      z1(r) = z(normal[r]);
      qp1.b(r) = w(normal[r]);
    }
    qp1.b.noalias() -= qp1.A * z1;
    const SolverResult inner = normal_solver_->solve(qp1, z1);
    if (!inner.ok()) return finish(inner.status, "dvc3d-qp: normal QP: " + inner.message);
    for (int r = 0; r < nn; ++r) set(normal[r], z1(r));
    // 2. friction QP, block Gauss-Seidel over the contacts
    for (int sweep = 0; sweep < kFrictionSweeps; ++sweep) {
      double change = 0.0;
      for (pgs_detail::ContactBlock& c : s.contacts) {
        const int m = static_cast<int>(c.friction.size());
        v.resize(m);
        pf.resize(m);
        for (int k = 0; k < m; ++k) {
          v(k) = w(c.friction[k]) - z(c.slip);  // A_fs = 1: the velocity without the slip term
          pf(k) = z(c.friction[k]);
        }
        c.block.solve(pf, v, c.cap(z), perp_tol);
        for (int k = 0; k < m; ++k) {
          change = std::max(change, std::abs(pf(k) - z(c.friction[k])));
          set(c.friction[k], pf(k));
        }
        set(c.slip, m > 0 ? std::max(0.0, -v.minCoeff()) : 0.0);
      }
      if (change <= 0.1 * threshold) break;
    }
    w.noalias() = p.A * z;  // drops the drift of the updates
    w += p.b;
    solver_detail::residuals_from_w(p, z, w, result);
    if (solver_detail::within_tolerance(p, result, options_.tolerance)) return finish(SolverStatus::Solved, {});
    if (!std::isfinite(result.complementarity)) {
      z.setZero();  // the caller applies z even on failure
      return finish(SolverStatus::NumericalFailure, "dvc3d-qp: the impulses diverged");
    }
  }
  return finish(SolverStatus::MaxIterations, "dvc3d-qp: not converged in " + std::to_string(max_rounds) +
                                                 " rounds (residual " +
                                                 std::to_string(solver_detail::residual_norm(result)) + ")");
}

}  // namespace

std::unique_ptr<LcpSolver> make_dvc3d_qp_solver(const SolverOptions& options) {
  return std::make_unique<Dvc3dQpSolver>(options);
}

}  // namespace pegsim
