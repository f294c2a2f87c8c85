// Projected Gauss-Seidel with Stewart-Trinkle contact blocks (see pgs.hpp):
// the schedule, the sweep, and the dense engine.
#include "solvers/pgs.hpp"

#include "solvers/solver_common.hpp"

#include <algorithm>
#include <cstdlib>
#include <cstdio>
#include <cmath>
#include <string>
#include <vector>

namespace pegsim {
namespace {

using pgs_detail::ContactBlock;
using pgs_detail::Schedule;
using solver_detail::contact_of;
using solver_detail::is_free;
using solver_detail::role_of;

constexpr double kStructureTol = 1e-12;

bool near(double a, double b) { return std::abs(a - b) <= kStructureTol * (1.0 + std::abs(b)); }

// The dense engine: w = A z + b kept up to date.
class DenseRows {
 public:
  explicit DenseRows(const LcpProblem& p) : A_(p.A) {}
  double diag(int i) const { return A_(i, i); }
  double velocity(int i, const VecX&) const { return w_(i); }
  double friction_velocity(int f, int slip, const VecX& z) const { return w_(f) - z(slip); }  // A_fs = 1
  void add(int i, double dz) { w_.noalias() += dz * A_.col(i); }
  void refresh(const LcpProblem& p, const VecX& z, VecX& w) {
    w_.noalias() = A_ * z;  // drops the drift of the incremental updates
    w_ += p.b;
    w = w_;
  }

 private:
  const MatX& A_;
  VecX w_;
};

// The eq. 6.1 structure of the slip rows and columns in A: A_sn = mu >= 0,
// A_sf = -1, A_fs = +1, zero elsewhere; mu and the friction blocks from A.
std::string check_dense_contacts(const LcpProblem& p, Schedule& s) {
  const int n = p.size();
  std::vector<char> member(n, 0);
  for (ContactBlock& b : s.contacts) {
    for (int f : b.friction) member[f] = 1;
    b.mu = p.A(b.slip, b.normal);
    if (!(b.mu >= 0.0)) return "negative friction coefficient at slip row " + std::to_string(b.slip);
    for (int j = 0; j < n; ++j) {
      const double row = j == b.normal ? b.mu : (member[j] ? -1.0 : 0.0);
      const double col = member[j] ? 1.0 : 0.0;
      if (!near(p.A(b.slip, j), row) || !near(p.A(j, b.slip), col))
        return "slip row/column " + std::to_string(b.slip) + " lacks the eq. 6.1 structure";
    }
    for (int f : b.friction) member[f] = 0;
    const int m = static_cast<int>(b.friction.size());
    MatX H(m, m);
    for (int r = 0; r < m; ++r)
      for (int c = 0; c < m; ++c) H(r, c) = p.A(b.friction[r], b.friction[c]);
    b.block.reset(H);
  }
  return {};
}

// Sweep order (pgs.hpp): normal and plain rows in index order, then the
// friction blocks. Every swept row needs A_ii > 0 (eq. 2.46 divides by it).
template <class Rows>
std::string build_order(const LcpProblem& p, const Rows& rows, Schedule& s) {
  std::vector<char> in_friction(p.size(), 0);
  for (const ContactBlock& b : s.contacts) {
    in_friction[b.slip] = 1;
    for (int f : b.friction) in_friction[f] = 1;
  }
  static const bool interleave = std::getenv("PGS_INTERLEAVE") != nullptr;  // XXX experiment
  std::vector<int> contact_at(p.size(), -1);
  for (std::size_t c = 0; c < s.contacts.size(); ++c) contact_at[s.contacts[c].normal] = static_cast<int>(c);
  for (int i = 0; i < p.size(); ++i) {
    if (in_friction[i]) continue;
    if (!(rows.diag(i) > 0.0))
      return "diagonal A(" + std::to_string(i) + "," + std::to_string(i) + ") <= 0 (PGS divides by it, eq. 2.46)";
    s.order.push_back(i);
    if (interleave && contact_at[i] >= 0) s.order.push_back(-contact_at[i] - 1);
  }
  if (!interleave)
    for (std::size_t c = 0; c < s.contacts.size(); ++c) s.order.push_back(-static_cast<int>(c) - 1);
  return {};
}

// Sweeps until the residuals are within the tolerance or max_sweeps.
template <class Rows>
void run(const LcpProblem& p, const SolverOptions& options, Schedule& s, Rows& rows, VecX& z,
         SolverResult& result) {
  const int n = p.size();
  const double lambda = options.relaxation;
  const int max_sweeps = options.max_iterations > 0 ? options.max_iterations : PgsSolver::kDefaultMaxSweeps;
  // r outside the range of a friction block's H is ignored below this (pgs_friction.cpp)
  const double threshold = solver_detail::residual_threshold(p, options.tolerance);
  const double perp_tol = std::max(1e-3 * threshold, 1e-14 * (1.0 + p.b.cwiseAbs().maxCoeff()));
  VecX w(n), v, pf;
  std::vector<double> inv_diag(n, 0.0);
  for (int i : s.order)
    if (i >= 0) inv_diag[i] = 1.0 / rows.diag(i);
  rows.refresh(p, z, w);

  auto update_row = [&](int i) {  // eq. 2.46
    double zi = z(i) - lambda * rows.velocity(i, z) * inv_diag[i];
    if (!is_free(p, i)) zi = std::max(zi, 0.0);
    const double dz = zi - z(i);
    if (dz == 0.0) return;
    z(i) = zi;
    rows.add(i, dz);
  };
  auto update_friction = [&](ContactBlock& c) {  // steps 2 and 3 of pgs.hpp
    const int m = static_cast<int>(c.friction.size());
    v.resize(m);
    pf.resize(m);
    for (int k = 0; k < m; ++k) {
      v(k) = rows.friction_velocity(c.friction[k], c.slip, z);
      pf(k) = z(c.friction[k]);
    }
    c.block.solve(pf, v, c.mu * z(c.normal), perp_tol);
    for (int k = 0; k < m; ++k) {
      const int f = c.friction[k];
      const double d = pf(k) - z(f);
      if (d == 0.0) continue;
      z(f) = pf(k);
      rows.add(f, d);
    }
    const double slip = m > 0 ? std::max(0.0, -v.minCoeff()) : 0.0;
    const double ds = slip - z(c.slip);
    if (ds == 0.0) return;
    z(c.slip) = slip;
    rows.add(c.slip, ds);
  };

  for (int sweep = 1; sweep <= max_sweeps; ++sweep) {
    for (int item : s.order) {
      if (item >= 0)
        update_row(item);
      else
        update_friction(s.contacts[-item - 1]);
    }
    result.iterations = sweep;
    if (sweep == 1 || sweep % PgsSolver::kCheckEvery == 0 || sweep == max_sweeps) {
      rows.refresh(p, z, w);
      solver_detail::residuals_from_w(p, z, w, result);
      static const int trace = std::getenv("PGS_TRACE") ? std::atoi(std::getenv("PGS_TRACE")) : 0;  // XXX
      if (trace >= 2) std::fprintf(stderr, "  sweep %d res %.3e %.3e thr %.3e\n", sweep, result.complementarity, result.feasibility, threshold);
      if (trace >= 1 && (sweep == max_sweeps || solver_detail::within_tolerance(p, result, options.tolerance))) std::fprintf(stderr, "n %d sweeps %d res %.3e thr %.3e\n", n, sweep, solver_detail::residual_norm(result), threshold);
      if (solver_detail::within_tolerance(p, result, options.tolerance)) {
        result.status = SolverStatus::Solved;
        return;
      }
      if (!std::isfinite(result.complementarity)) {
        result.status = SolverStatus::NumericalFailure;
        result.message = "pgs: the iterate diverged";
        return;
      }
    }
  }
  result.status = SolverStatus::MaxIterations;
  result.message = "pgs: not converged in " + std::to_string(max_sweeps) + " sweeps (residual " +
                   std::to_string(solver_detail::residual_norm(result)) + ")";
}

// check_problem without A (the velocity engine never reads it): O(n).
bool check_problem_without_A(const LcpProblem& p, SolverResult& result) {
  const std::size_t n = p.b.size();
  auto reject = [&](SolverStatus status, const char* why) {
    result.status = status;
    result.message = std::string("pgs: ") + why;
    return false;
  };
  if ((!p.bound.empty() && p.bound.size() != n) || (!p.role.empty() && p.role.size() != n) ||
      (!p.contact_of.empty() && p.contact_of.size() != n))
    return reject(SolverStatus::Unsupported, "bound, role or contact_of has the wrong size");
  for (int c : p.contact_of)
    if (c < -1 || c >= static_cast<int>(n))
      return reject(SolverStatus::Unsupported, "contact_of names a row outside the problem");
  if (!p.b.allFinite()) return reject(SolverStatus::NumericalFailure, "b holds a non-finite entry");
  return true;
}

}  // namespace

namespace pgs_detail {

std::string find_contacts(const LcpProblem& p, Schedule& s) {
  const int n = p.size();
  std::vector<int> block_of_normal(n, -1);
  s.contact_of_slip.assign(n, -1);
  for (int i = 0; i < n; ++i) {
    if (role_of(p, i) != RowRole::Slip) continue;
    const int c = contact_of(p, i);
    if (c < 0 || role_of(p, c) != RowRole::Normal)
      return "slip row " + std::to_string(i) + " has no Normal row in contact_of";
    if (block_of_normal[c] >= 0) return "two slip rows for normal row " + std::to_string(c);
    block_of_normal[c] = static_cast<int>(s.contacts.size());
    s.contact_of_slip[i] = block_of_normal[c];
    ContactBlock b;
    b.normal = c;
    b.slip = i;
    s.contacts.push_back(std::move(b));
    if (is_free(p, c) || is_free(p, i)) return "Free row in a contact block";
  }
  for (int i = 0; i < n; ++i) {
    if (role_of(p, i) != RowRole::Friction) continue;
    const int c = contact_of(p, i);
    if (!s.contacts.empty() && (c < 0 || block_of_normal[c] < 0))
      return "friction row " + std::to_string(i) + " has no slip row for its contact";
    if (c >= 0 && block_of_normal[c] >= 0) {
      if (is_free(p, i)) return "Free friction row " + std::to_string(i);
      s.contacts[block_of_normal[c]].friction.push_back(i);
    }
  }
  return {};
}

}  // namespace pgs_detail

std::string pgs_structure_issue(const LcpProblem& problem) {
  if (problem.structure.empty()) return "no structure";
  SolverResult check;
  if (!check_problem_without_A(problem, check)) return check.message;
  Schedule s;
  if (std::string why = pgs_detail::find_contacts(problem, s); !why.empty()) return why;
  pgs_detail::StructuredRows rows;
  return rows.build(problem, s);
}

SolverResult PgsSolver::solve(const LcpProblem& problem, VecX& z) {
  const solver_detail::Stopwatch clock;
  SolverResult result;
  auto finish = [&](SolverStatus status, std::string message) {
    result.status = status;
    result.message = status == SolverStatus::Solved ? std::string() : std::move(message);
    result.seconds = clock.seconds();
    return result;
  };
  // the velocity engine when the structure is usable, else the dense one
  Schedule schedule;
  pgs_detail::StructuredRows structured;
  std::string structure_issue = "no structure";
  if (!problem.structure.empty()) {
    if (!check_problem_without_A(problem, result)) return finish(result.status, result.message);
    if (std::string why = pgs_detail::find_contacts(problem, schedule); !why.empty())
      return finish(SolverStatus::Unsupported, "pgs: " + why);
    structure_issue = structured.build(problem, schedule);
    if (!structure_issue.empty()) schedule = Schedule{};
  }
  const bool use_structure = structure_issue.empty();
  if (!use_structure && !solver_detail::check_problem(problem, "pgs", result)) {
    if (!problem.structure.empty()) result.message += " (structure unusable: " + structure_issue + ")";
    return finish(result.status, result.message);
  }
  const int n = problem.size();
  if (z.size() != n || !z.allFinite()) z = VecX::Zero(n);
  if (n == 0) return finish(SolverStatus::Solved, {});
  for (int i = 0; i < n; ++i)
    if (!is_free(problem, i)) z(i) = std::max(z(i), 0.0);

  if (use_structure) {
    if (std::string why = build_order(problem, structured, schedule); !why.empty())
      return finish(SolverStatus::Unsupported, "pgs: " + why);
    run(problem, options_, schedule, structured, z, result);
    return finish(result.status, result.message);
  }
  DenseRows dense(problem);
  std::string why = pgs_detail::find_contacts(problem, schedule);
  if (why.empty()) why = check_dense_contacts(problem, schedule);
  if (why.empty()) why = build_order(problem, dense, schedule);
  if (!why.empty()) return finish(SolverStatus::Unsupported, "pgs: " + why);
  run(problem, options_, schedule, dense, z, result);
  return finish(result.status, result.message);
}

std::unique_ptr<LcpSolver> make_pgs_solver(const SolverOptions& options) {
  return std::make_unique<PgsSolver>(options);
}

}  // namespace pegsim
