// The active-set solver: guess, block principal pivoting, certificate (see
// active_set.hpp).
#include "solvers/active_set.hpp"

#include "solvers/lemke_active_set.hpp"
#include "solvers/solver_common.hpp"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <climits>
#include <cmath>
#include <cstdint>
#include <limits>
#include <map>
#include <string>

namespace pegsim {
namespace {

using active_set_detail::ReducedSystem;
using solver_detail::residual_norm;

constexpr int kDefaultSystems = 12;    // linear systems (sets) per solve unless max_iterations says
constexpr int kRefinements = 3;        // refinement steps per set after its first solve
constexpr int kBlockRounds = 3;        // block exchanges without fewer violations, then single ones
constexpr double kRegularization = 1e-10;  // on the scaled diagonal (unit after scaling)
constexpr double kStructural = 100.0;  // violations above this many thresholds move rows
constexpr double kSweepFrom = 1000.0;  // sweeps start from residuals below this many thresholds
constexpr int kSweeps = 8;            // block Gauss-Seidel sweeps of the polish (at most)
constexpr double kTargetShare = 1e-3;  // Lemke's polish target (lemke.cpp)
constexpr double kTargetLevel = 1e-13;

// Why the structure cannot be used, or empty.
std::string structure_issue(const LcpProblem& p) {
  const int n = p.size();
  const LcpStructure& st = p.structure;
  if (static_cast<int>(st.rows.size()) != n)
    return "the problem has no structure (" + std::to_string(st.rows.size()) + " Jacobian rows for " +
           std::to_string(n) + " variables)";
  if (!p.bound.empty() && static_cast<int>(p.bound.size()) != n) return "bound has the wrong size";
  if (!p.role.empty() && static_cast<int>(p.role.size()) != n) return "role has the wrong size";
  if (!p.contact_of.empty() && static_cast<int>(p.contact_of.size()) != n) return "contact_of has the wrong size";
  for (int c : p.contact_of)
    if (c < -1 || c >= n) return "contact_of names a row outside the problem";
  const std::size_t nb = st.inverse_mass.size();
  for (const JacobianRow& r : st.rows) {
    if ((r.body_a != kNoBody && r.body_a >= nb) || (r.body_b != kNoBody && r.body_b >= nb))
      return "a row names a body outside the inverse masses";
    if (!r.ja.allFinite() || !r.jb.allFinite()) return "a Jacobian row is not finite";
  }
  for (const Mat6& m : st.inverse_mass)
    if (!m.allFinite()) return "an inverse mass is not finite";
  for (const LcpStructure::Entry& e : st.coupling)
    if (e.row < 0 || e.row >= n || e.col < 0 || e.col >= n || !std::isfinite(e.value))
      return "a coupling entry is out of range or not finite";
  if (!p.b.allFinite()) return "b is not finite";
  return {};
}

// The first set: the warm start's (lemke_detail::guess_active_set), or without
// one the rows that are violated at z = 0 (friction rows wait for the pivots).
std::vector<int> first_set(const LcpProblem& p, const VecX& z, double move) {
  std::vector<int> J;
  if ((z.array() > 0.0).any()) {
    J = lemke_detail::guess_active_set(p, z);
    // PEG's slack rows (c, d of thesis 4.7) carry no impulse and are not
    // warm-started, but at rest they are tight (w = rho_1 - rho_j, rho_i ~ 0),
    // and the rows of the primaries p_i repeat p_1's equation unless their
    // d_i is in the set: the tight ones join it
    const VecX w = complementarity_w(p, z);
    for (int i = 0; i < p.size(); ++i)
      if (solver_detail::role_of(p, i) == RowRole::PegSlack && w(i) <= move) J.push_back(i);
  } else {
    for (int i = 0; i < p.size(); ++i) {
      const RowRole role = solver_detail::role_of(p, i);
      if (p.b(i) < -move && role != RowRole::Friction && role != RowRole::Slip) J.push_back(i);
    }
  }
  for (int i = 0; i < p.size(); ++i)
    if (solver_detail::is_free(p, i)) J.push_back(i);
  std::sort(J.begin(), J.end());
  J.erase(std::unique(J.begin(), J.end()), J.end());
  return J;
}

// The rows to move: z_j < -move on J leave, w_i < -move off J enter (friction:
// the most violated direction of each contact), in increasing order.
std::vector<int> violations(const LcpProblem& p, const std::vector<char>& in, const VecX& z, const VecX& w,
                            double move) {
  const int n = p.size();
  std::vector<int> moves;
  std::vector<int> enter(n, -1);  // per contact (normal row): its friction row entering
  for (int i = 0; i < n; ++i) {
    if (solver_detail::is_free(p, i)) continue;
    if (in[i]) {
      if (z(i) < -move) moves.push_back(i);
      continue;
    }
    if (!(w(i) < -move)) continue;
    const int c = solver_detail::contact_of(p, i);
    if (solver_detail::role_of(p, i) == RowRole::Friction && c >= 0) {
      if (enter[c] < 0 || w(i) < w(enter[c])) enter[c] = i;
    } else {
      moves.push_back(i);
    }
  }
  for (int c = 0; c < n; ++c)
    if (enter[c] >= 0) moves.push_back(enter[c]);
  std::sort(moves.begin(), moves.end());
  return moves;
}

// The noise-level violations: block Gauss-Seidel sweeps with exact contact
// blocks on the structure (the "pgs" solver's velocity engine, pgs.hpp) from
// the best point, aiming at the target; the best point is kept.
void polish(const LcpProblem& p, double target, VecX& best, SolverResult& best_res) {
  SolverOptions o;
  o.tolerance = target / (1.0 + p.b.cwiseAbs().maxCoeff());
  o.max_iterations = kSweeps;
  VecX z = best;
  make_solver("pgs", o)->solve(p, z);
  if (z.size() != p.size()) return;
  SolverResult r;
  measure_residuals(p, z, r);
  if (residual_norm(r) < residual_norm(best_res)) {
    best = z;
    best_res = r;
  }
}

// The point of J, refined against the exact residual; false on a failed factorization.
bool solve_set(const LcpProblem& p, const VecX& D, const std::vector<int>& J, double target, ReducedSystem& system,
               VecX& z, VecX& w) {
  z = VecX::Zero(p.size());
  w = p.b;
  if (J.empty()) return true;
  if (!system.factorize(p, D, J, kRegularization)) return false;
  VecX dz;
  for (int step = 0; step <= kRefinements; ++step) {
    if (!system.correction(w, dz)) return false;
    z += dz;
    w = complementarity_w(p, z);
    double rest = 0.0;  // |w_J|
    for (int j : J) rest = std::max(rest, std::abs(w(j)));
    if (rest <= 1e-2 * target) break;
  }
  return true;
}

}  // namespace

SolverResult ActiveSetSolver::solve(const LcpProblem& problem, VecX& z) {
  const solver_detail::Stopwatch clock;
  SolverResult result;
  auto finish = [&](SolverStatus status, std::string message) {
    return solver_detail::finish(result, clock, status, std::move(message));
  };
  const int n = problem.size();
  if (n == 0) {
    z.resize(0);
    measure_residuals(problem, z, result);
    return finish(SolverStatus::Solved, {});
  }
  if (std::string why = structure_issue(problem); !why.empty()) {
    result.complementarity = result.feasibility = std::numeric_limits<double>::infinity();
    return finish(SolverStatus::Unsupported, "active-set: " + why);
  }
  if (z.size() != n || !z.allFinite()) z = VecX::Zero(n);

  const double threshold = solver_detail::residual_threshold(problem, options_.tolerance);
  const double target =
      std::min(kTargetShare * threshold, kTargetLevel * (1.0 + problem.b.cwiseAbs().maxCoeff()));
  const double move = kStructural * threshold;
  VecX best = VecX::Zero(n);
  SolverResult best_res;
  solver_detail::residuals_from_w(problem, best, problem.b, best_res);
  auto accept = [&](const VecX& point, const SolverResult& r) {
    z = point;
    if (std::getenv("AS_DEBUG3")) std::fprintf(stderr, "AS ok n %d systems %d res %.3g\n", n, result.iterations, residual_norm(r));
    if (std::getenv("AS_DEBUG2")) std::fprintf(stderr, "AS solved n %d systems %d us %.1f\n", n, result.iterations, clock.seconds() * 1e6);
    result.complementarity = r.complementarity;
    result.feasibility = r.feasibility;
    return finish(SolverStatus::Solved, {});
  };
  if (residual_norm(best_res) <= threshold) return accept(best, best_res);  // z = 0: w = b

  const VecX D = active_set_detail::row_scaling(problem, active_set_detail::structure_diagonal(problem));
  std::vector<int> J = first_set(problem, z, move);
  std::vector<char> in(n, 0);
  const int systems = options_.max_iterations > 0 ? options_.max_iterations : kDefaultSystems;
  ReducedSystem system;
  VecX raw, w, clamped, wc;
  std::size_t fewest = SIZE_MAX;  // Judice-Pires: the fewest violations seen
  int stalled = 0;                // block rounds since they last fell
  std::string why = "the pivot budget ran out";
  for (int round = 0; round < systems; ++round) {
    if (!solve_set(problem, D, J, target, system, raw, w)) {
      why = "the reduced system of " + std::to_string(J.size()) + " rows did not factorize";
      break;
    }
    ++result.iterations;
    clamped = raw;
    bool clipped = false;
    for (int j : J)
      if (!solver_detail::is_free(problem, j) && clamped(j) < 0.0) clamped(j) = 0.0, clipped = true;
    wc = clipped ? complementarity_w(problem, clamped) : w;
    SolverResult r;
    solver_detail::residuals_from_w(problem, clamped, wc, r);
    if (residual_norm(r) < residual_norm(best_res)) {
      best = clamped;
      best_res = r;
    }
    if (residual_norm(best_res) <= target) return accept(best, best_res);
    std::fill(in.begin(), in.end(), 0);
    for (int j : J) in[j] = 1;
    std::vector<int> moves = violations(problem, in, raw, w, move);
    if (std::getenv("AS_DEBUG") && round > 0) {
      double rest = 0.0, zneg = 0.0, wneg = 0.0;
      for (int j : J) rest = std::max(rest, std::abs(w(j))), zneg = std::min(zneg, raw(j));
      for (int i = 0; i < n; ++i) if (!in[i]) wneg = std::min(wneg, w(i));
      std::fprintf(stderr, "AS round %d |J| %zu rest %.3g zneg %.3g wneg %.3g moves %zu res %.3g clipped %d thr %.3g\n", round, J.size(), rest, zneg, wneg, moves.size(), residual_norm(r), (int)clipped, threshold);
    }
    if (moves.empty()) {  // noise-level violations only: the sweeps
      if (residual_norm(best_res) <= kSweepFrom * threshold) {
        polish(problem, target, best, best_res);
        ++result.iterations;
        if (residual_norm(best_res) <= target) return accept(best, best_res);
      }
      why = "no row to move, residual " + std::to_string(residual_norm(best_res)) + " after the sweeps";
      break;
    }
    if (moves.size() < fewest) {
      fewest = moves.size();
      stalled = 0;
    } else if (++stalled > kBlockRounds) {
      moves.erase(moves.begin(), moves.end() - 1);  // Murty's rule: the largest index alone
    }
    for (int i : moves) in[i] = !in[i];
    J.clear();
    for (int i = 0; i < n; ++i)
      if (in[i]) J.push_back(i);
  }
  if (residual_norm(best_res) <= threshold) return accept(best, best_res);
  z = best;
  if (std::getenv("AS_DEBUG3")) std::fprintf(stderr, "AS fail n %d systems %d res %.3g thr %.3g\n", n, result.iterations, residual_norm(best_res), threshold);
  result.complementarity = best_res.complementarity;
  result.feasibility = best_res.feasibility;
  return finish(SolverStatus::MaxIterations, "active-set: " + why + " after " +
                                                 std::to_string(result.iterations) + " systems");
}

std::unique_ptr<LcpSolver> make_active_set_solver(const SolverOptions& options) {
  return std::make_unique<ActiveSetSolver>(options);
}

}  // namespace pegsim
