// The active-set solver: guess, block principal pivoting, certificate (see
// active_set.hpp).
#include "solvers/active_set.hpp"

#include "solvers/lemke_active_set.hpp"
#include "solvers/solver_common.hpp"

#include <algorithm>
#include <climits>
#include <cstdio>
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
constexpr int kSweeps = 4;            // block Gauss-Seidel sweeps of the polish (at most)
constexpr double kTargetShare = 1e-3;  // Lemke's polish target (lemke.cpp)
constexpr double kTargetLevel = 1e-13;

std::string scientific(double x) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.3g", x);
  return buf;
}

// Why the structure cannot be used, or empty ("... not finite": the data's
// fault, NumericalFailure; the rest Unsupported).
std::string structure_issue(const LcpProblem& p) {
  const int n = p.size();
  const LcpStructure& st = p.structure;
  if (st.dense_only) return "the problem's A has terms beyond its structure (an articulated tree)";
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
  for (const JacobianRow& x : st.measures) {
    if ((x.body_a != kNoBody && x.body_a >= nb) || (x.body_b != kNoBody && x.body_b >= nb))
      return "a row measures a body outside the inverse masses";
    if (!x.ja.allFinite() || !x.jb.allFinite()) return "a row's measure is not finite";
  }
  for (const Mat6& m : st.inverse_mass)
    if (!m.allFinite()) return "an inverse mass is not finite";
  for (const LcpStructure::Entry& e : st.coupling) {
    if (e.row < 0 || e.row >= n || e.col < 0 || e.col >= n) return "a coupling entry is out of range";
    if (!std::isfinite(e.value)) return "a coupling entry is not finite";
  }
  if (!p.b.allFinite()) return "b is not finite";
  return {};
}

// The first set: the warm start's (lemke_detail::guess_active_set), or without
// one the rows that are violated at z = 0 (friction rows wait for the pivots).
std::vector<int> first_set(const LcpProblem& p, const VecX& z, double move) {
  std::vector<int> J;
  if ((z.array() > 0.0).any()) {
    J = lemke_detail::guess_active_set(p, z);
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

// The pair of bodies a row acts between (slip and slack rows: their contact's
// normal row's), as one key; rows without bodies are keys of their own.
std::uint64_t pair_key(const LcpProblem& p, const ContactLayout& layout, int i) {
  const int k = layout.contact_at.empty() ? -1 : layout.contact_at[static_cast<std::size_t>(i)];
  const int head = k >= 0 ? layout.contacts[static_cast<std::size_t>(k)].normal : i;
  const JacobianRow& r = p.structure.rows[static_cast<std::size_t>(head)];
  if (r.body_a == kNoBody && r.body_b == kNoBody) return (std::uint64_t{1} << 63) | static_cast<std::uint64_t>(i);
  const std::uint64_t lo = std::min(r.body_a, r.body_b), hi = std::max(r.body_a, r.body_b);
  return (hi << 32) | lo;
}

// The rows to move, in increasing order: z_j < -move on J leave, all of them;
// of the rows off J with w_i < -move, the most violated one per pair of bodies
// enters. Redundant rows (the corners of a face, the directions of a friction
// cone, PEG's sub-contacts) share their pair: entering them all at once makes
// inconsistent sets of dependent rows.
std::vector<int> violations(const LcpProblem& p, const ContactLayout& layout, const std::vector<char>& in,
                            const VecX& z, const VecX& w, double move) {
  std::vector<int> moves;
  std::map<std::uint64_t, int> enter;  // per pair of bodies: its most violated row
  for (int i = 0; i < p.size(); ++i) {
    if (solver_detail::is_free(p, i)) continue;
    if (in[i]) {
      if (z(i) < -move) moves.push_back(i);
      continue;
    }
    if (!(w(i) < -move)) continue;
    auto [it, fresh] = enter.emplace(pair_key(p, layout, i), i);
    if (!fresh && w(i) < w(it->second)) it->second = i;
  }
  for (const auto& [key, i] : enter) moves.push_back(i);
  std::sort(moves.begin(), moves.end());
  return moves;
}

// The noise-level violations: block Gauss-Seidel sweeps with exact contact
// blocks on the structure (the "pgs" solver's velocity engine, pgs.hpp) from
// the best point, aiming at the target; the best point is kept.
void polish(LcpSolver& sweeps, const LcpProblem& p, VecX& best, SolverResult& best_res) {
  VecX z = best;
  sweeps.solve(p, z);
  if (z.size() != p.size()) return;
  SolverResult r;
  solver_detail::residuals_from_w(p, z, structure_w(p, z), r);
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
    w = structure_w(p, z);
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
  if (z.size() != n || !z.allFinite()) z = VecX::Zero(n);
  if (std::find(problem.role.begin(), problem.role.end(), RowRole::PegSlack) != problem.role.end()) {
    // first, and O(n): a PEG problem may carry the dense A, which this must not read
    result.complementarity = result.feasibility = std::numeric_limits<double>::infinity();
    return finish(SolverStatus::Unsupported,
                  "active-set: PEG's slack rows (thesis 4.7) are left to the chain: their sets are not warm-started");
  }
  if (std::string why = structure_issue(problem); !why.empty()) {
    // nothing to work on; a warm start that already solves it is still an answer
    if (problem.has_matrix()) {
      measure_residuals(problem, z, result);
      if (solver_detail::within_tolerance(problem, result, options_.tolerance)) return finish(SolverStatus::Solved, {});
    }
    result.complementarity = result.feasibility = std::numeric_limits<double>::infinity();
    // non-finite data is NumericalFailure, as check_problem reports it (A: when it is there)
    const bool finite_matrix = !problem.has_matrix() || !std::isnan((problem.A.array() * 0.0).sum());
    const bool finite = why.find("not finite") == std::string::npos && finite_matrix &&
                        (problem.b.size() != n || problem.b.allFinite());
    return finish(finite ? SolverStatus::Unsupported : SolverStatus::NumericalFailure, "active-set: " + why);
  }

  const double threshold = solver_detail::residual_threshold(problem, options_.tolerance);
  const double target =
      std::min(kTargetShare * threshold, kTargetLevel * (1.0 + problem.b.cwiseAbs().maxCoeff()));
  const double move = kStructural * threshold;
  VecX best = VecX::Zero(n);
  SolverResult best_res;
  solver_detail::residuals_from_w(problem, best, problem.b, best_res);
  auto accept = [&](const VecX& point, const SolverResult& r) {
    z = point;
    result.complementarity = r.complementarity;
    result.feasibility = r.feasibility;
    return finish(SolverStatus::Solved, {});
  };
  if (residual_norm(best_res) <= threshold) return accept(best, best_res);  // z = 0: w = b

  ContactLayout scratch;
  std::string layout_issue;
  const ContactLayout* layout = contact_layout(problem, scratch, layout_issue);
  if (!layout) return finish(SolverStatus::Unsupported, "active-set: " + layout_issue);
  const VecX D = active_set_detail::row_scaling(problem, *layout, active_set_detail::structure_diagonal(problem));
  std::vector<int> J = first_set(problem, z, move);
  std::vector<char> in(n, 0);
  const int systems = options_.max_iterations > 0 ? options_.max_iterations : kDefaultSystems;
  ReducedSystem system;
  VecX raw, w, clamped, wc;
  std::size_t fewest = SIZE_MAX;  // Judice-Pires: the fewest violations seen
  int stalled = 0;                // block rounds since they last fell
  std::string why = "the pivot budget ran out";
  const SolveDeadline deadline(options_);
  for (int round = 0; round < systems; ++round) {
    if (deadline.expired()) {
      why = "time budget of " + std::to_string(options_.time_budget) + " s spent";
      break;
    }
    if (!solve_set(problem, D, J, target, system, raw, w)) {
      why = "the reduced system of " + std::to_string(J.size()) + " rows did not factorize";
      break;
    }
    ++result.iterations;
    clamped = raw;
    bool clipped = false;
    for (int j : J)
      if (!solver_detail::is_free(problem, j) && clamped(j) < 0.0) clamped(j) = 0.0, clipped = true;
    wc = clipped ? structure_w(problem, clamped) : w;
    SolverResult r;
    solver_detail::residuals_from_w(problem, clamped, wc, r);
    if (residual_norm(r) < residual_norm(best_res)) {
      best = clamped;
      best_res = r;
    }
    if (residual_norm(best_res) <= target) return accept(best, best_res);
    std::fill(in.begin(), in.end(), 0);
    for (int j : J) in[j] = 1;
    std::vector<int> moves = violations(problem, *layout, in, raw, w, move);
    if (moves.empty()) {  // noise-level violations only: the sweeps
      if (residual_norm(best_res) <= kSweepFrom * threshold) {
        polish(*sweeps_, problem, best, best_res);
        ++result.iterations;
        if (residual_norm(best_res) <= target) return accept(best, best_res);
      }
      // what the sweeps left above the threshold moves rows after all
      if (residual_norm(best_res) > threshold) moves = violations(problem, *layout, in, raw, w, threshold);
    }
    if (moves.empty()) {
      why = "no row to move, residual " + scientific(residual_norm(best_res)) + " (threshold " + scientific(threshold) + ") after the sweeps";
      break;
    }
    if (moves.size() < fewest) {
      fewest = moves.size();
      stalled = 0;
    } else if (++stalled > kBlockRounds) {
      if (static_cast<int>(fewest) > systems - round - 1) {  // one row a system cannot make it: escalate now
        why = std::to_string(fewest) + " violations left, no longer falling";
        break;
      }
      moves.erase(moves.begin(), moves.end() - 1);  // Murty's rule: the largest index alone
    }
    for (int i : moves) in[i] = !in[i];
    J.clear();
    for (int i = 0; i < n; ++i)
      if (in[i]) J.push_back(i);
  }
  if (residual_norm(best_res) <= threshold) return accept(best, best_res);
  z = best;
  result.complementarity = best_res.complementarity;
  result.feasibility = best_res.feasibility;
  return finish(SolverStatus::MaxIterations, "active-set: " + why + " after " +
                                                 std::to_string(result.iterations) + " systems");
}

ActiveSetSolver::ActiveSetSolver(const SolverOptions& options) : options_(options) {
  // the polish aims at the target, which is this tolerance for every problem:
  // min(1e-3 threshold, 1e-13 (1 + |b|_inf)) / (1 + |b|_inf)
  SolverOptions sweeps;
  sweeps.tolerance = std::min(kTargetShare * options.tolerance, kTargetLevel);
  sweeps.max_iterations = kSweeps;
  sweeps_ = make_solver("pgs", sweeps);
}

std::unique_ptr<LcpSolver> make_active_set_solver(const SolverOptions& options) {
  return std::make_unique<ActiveSetSolver>(options);
}

}  // namespace pegsim
