// Projected Gauss-Seidel with Stewart-Trinkle contact blocks (see pgs.hpp):
// the schedule, the sweep, and the dense engine.
#include "solvers/pgs.hpp"

#include "solvers/solver_common.hpp"

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

namespace pegsim {
namespace {

using pgs_detail::ContactBlock;
using pgs_detail::Schedule;
using solver_detail::is_free;
using solver_detail::role_of;

constexpr double kStructureTol = 1e-12;
constexpr int kSubspaceFrom = 4;         // sweeps before the first subspace step
constexpr int kSettle = 2;               // sweeps after a subspace step before it is judged
constexpr double kSubspaceTarget = 0.1;  // its CG stops at this times the residual threshold

bool near(double a, double b) { return std::abs(a - b) <= kStructureTol * (1.0 + std::abs(b)); }

// The dense engine: w = A z + b kept up to date.
class DenseRows final : public pgs_detail::Engine {
 public:
  DenseRows(const LcpProblem& p, const Schedule& s) : A_(p.A) {
    // the subspace step needs A symmetric on its rows (all but slip rows)
    const int n = p.size();
    const double scale = n > 0 ? A_.cwiseAbs().maxCoeff() : 0.0;
    for (int i = 0; i < n && symmetric_; ++i)
      for (int j = 0; j < i && symmetric_; ++j)
        if (s.contact_of_slip[i] < 0 && s.contact_of_slip[j] < 0)
          symmetric_ = std::abs(A_(i, j) - A_(j, i)) <= kStructureTol * scale;
  }
  double diag(int i) const override { return A_(i, i); }
  double velocity(int i, const VecX&) const override { return w_(i); }
  double friction_velocity(int f, int slip, const VecX& z) const override { return w_(f) - z(slip); }  // A_fs = 1
  void add(int i, double dz) override { w_.noalias() += dz * A_.col(i); }
  void refresh(const LcpProblem& p, const VecX& z, VecX& w) override {
    w_.noalias() = A_ * z;  // drops the drift of the incremental updates
    w_ += p.b;
    w = w_;
  }
  bool joins(int) const override { return symmetric_; }
  bool joins_contact(int) const override { return symmetric_; }
  void prepare(const std::vector<pgs_detail::SubspaceVar>& vars, const Schedule& s) override {
    // S'AS with S's columns e_i (rows) and K' on a contact's friction rows
    const int k = static_cast<int>(vars.size());
    auto direction = [&](const pgs_detail::SubspaceVar& v, auto&& visit) {
      if (v.row >= 0) return visit(v.row, 1.0);
      const ContactBlock& b = s.contacts[v.contact];
      for (std::size_t f = 0; f < b.friction.size(); ++f) visit(b.friction[f], b.block.K()(v.coord, f));
    };
    AS_.setZero(A_.rows(), k);
    for (int l = 0; l < k; ++l) direction(vars[l], [&](int i, double c) { AS_.col(l) += c * A_.col(i); });
    SAS_.setZero(k, k);
    for (int j = 0; j < k; ++j) direction(vars[j], [&](int i, double c) { SAS_.row(j) += c * AS_.row(i); });
  }
  void multiply(const std::vector<pgs_detail::SubspaceVar>&, const VecX& x, VecX& y) override {
    y.noalias() = SAS_ * x;
  }

 private:
  const MatX& A_;
  VecX w_;
  bool symmetric_ = true;
  MatX AS_, SAS_;
};

// The eq. 6.1 structure of the slip rows and columns in A: A_sn = mu >= 0,
// A_sf = -1, A_fs = +1, zero elsewhere; mu and the friction blocks from A.
std::string check_dense_contacts(const LcpProblem& p, Schedule& s) {
  const int n = p.size();
  std::vector<char> member(n, 0);
  for (ContactBlock& b : s.contacts) {
    for (int f : b.friction) member[f] = 1;
    b.mu = b.normal >= 0 ? p.A(b.slip, b.normal) : 0.0;  // a bounded block: no U entry (find_contacts checked it)
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
std::string build_order(const LcpProblem& p, const pgs_detail::Engine& rows, Schedule& s) {
  std::vector<char> in_friction(p.size(), 0);
  for (const ContactBlock& b : s.contacts) {
    in_friction[b.slip] = 1;
    for (int f : b.friction) in_friction[f] = 1;
  }
  for (int i = 0; i < p.size(); ++i) {
    if (in_friction[i]) continue;
    if (!(rows.diag(i) > 0.0))
      return "diagonal A(" + std::to_string(i) + "," + std::to_string(i) + ") <= 0 (PGS divides by it, eq. 2.46)";
    s.order.push_back(i);
  }
  for (std::size_t c = 0; c < s.contacts.size(); ++c) s.order.push_back(-static_cast<int>(c) - 1);
  return {};
}

// The residual of z = 0, whose w is b (see SolverResult).
double residual_at_zero(const LcpProblem& p) {
  double r = 0.0;
  for (int i = 0; i < p.size(); ++i) r = std::max(r, is_free(p, i) ? std::abs(p.b(i)) : -p.b(i));
  return r;
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
  if (z.any()) {  // a warm start with a larger residual than z = 0 is dropped
    solver_detail::residuals_from_w(p, z, w, result);
    if (solver_detail::residual_norm(result) > residual_at_zero(p)) {
      z.setZero();
      rows.refresh(p, z, w);
    }
  }

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
    c.block.solve(pf, v, c.cap(z), perp_tol);
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

  // subspace steps (pgs_subspace.cpp) at the checks from kSubspaceFrom on,
  // each judged kSettle sweeps later: one that left a larger residual than it
  // started from is undone, and the gap to the next one doubles
  VecX z_saved;
  double saved_residual = 0.0;
  int pending = 0;  // the sweep of the step to judge, 0: none
  int next_step = kSubspaceFrom, gap = PgsSolver::kCheckEvery;
  const SolveDeadline deadline(options);
  for (int sweep = 1; sweep <= max_sweeps; ++sweep) {
    if (deadline.expired()) {
      rows.refresh(p, z, w);
      solver_detail::residuals_from_w(p, z, w, result);
      result.status = SolverStatus::MaxIterations;
      result.message = solver_detail::time_budget_message("pgs", options, sweep - 1);
      return;
    }
    for (int item : s.order) {
      if (item >= 0)
        update_row(item);
      else
        update_friction(s.contacts[-item - 1]);
    }
    result.iterations = sweep;
    const bool judge = pending > 0 && sweep == pending + kSettle;
    if (!judge && sweep != 1 && sweep % PgsSolver::kCheckEvery != 0 && sweep != max_sweeps) continue;
    rows.refresh(p, z, w);
    solver_detail::residuals_from_w(p, z, w, result);
    if (judge) {
      pending = 0;
      if (solver_detail::residual_norm(result) > saved_residual) {
        z = z_saved;
        rows.refresh(p, z, w);
        solver_detail::residuals_from_w(p, z, w, result);
        gap *= 2;
        next_step = sweep + gap;
      }
    }
    if (solver_detail::within_tolerance(p, result, options.tolerance)) {
      result.status = SolverStatus::Solved;
      return;
    }
    if (!std::isfinite(result.complementarity)) {
      result.status = SolverStatus::NumericalFailure;
      result.message = "pgs: the iterate diverged";
      return;
    }
    if (pending == 0 && sweep >= next_step && sweep + kSettle <= max_sweeps) {
      z_saved = z;
      saved_residual = solver_detail::residual_norm(result);
      if (pgs_detail::subspace_step(p, s, rows, z, kSubspaceTarget * threshold)) pending = sweep;
      next_step = sweep + gap;
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

// The bounded blocks of find_contacts (pgs.hpp), appended to s.contacts.
// Candidates: rows outside the contact blocks, NonNegative, without a
// Jacobian (structure) or with A_ss = 0 (dense), b_s >= 0.
void add_bounded_blocks(const LcpProblem& p, const ContactLayout& layout, Schedule& s) {
  const int n = p.size();
  const bool structured = !p.structure.empty() && static_cast<int>(p.structure.rows.size()) == n;
  if (!structured && !p.has_matrix()) return;
  auto outside = [&](int i) {  // may be a member or sigma: outside every contact block, not Free
    return (layout.contact_at.size() != static_cast<std::size_t>(n) || layout.contact_at[i] < 0) && !is_free(p, i);
  };
  auto candidate = [&](int i) {
    if (!outside(i) || !(p.b(i) >= 0.0)) return false;
    if (structured) {  // no Jacobian, and nothing measured (PEG's slack rows measure gaps)
      const JacobianRow& r = p.structure.rows[i];
      const JacobianRow* x = p.structure.measure(i);
      return r.body_a == kNoBody && r.body_b == kNoBody && (!x || (x->body_a == kNoBody && x->body_b == kNoBody));
    }
    return p.A(i, i) == 0.0;
  };
  int first = 0;  // no allocation for the problems without one (every contact-only step)
  while (first < n && !candidate(first)) ++first;
  if (first == n) return;
  std::vector<char> is_candidate(n, 0);
  for (int i = first; i < n; ++i) is_candidate[i] = candidate(i);
  // the off-diagonal couplings in a candidate's column and in its row
  std::vector<LcpStructure::Entry> column, row;
  if (structured) {
    for (const LcpStructure::Entry& e : p.structure.coupling) {
      if (e.row < 0 || e.row >= n || e.col < 0 || e.col >= n) return;  // StructuredRows::build says why
      if (is_candidate[e.col]) column.push_back(e);
      if (is_candidate[e.row]) row.push_back(e);
    }
  } else {
    for (int j = 0; j < n; ++j)
      for (int i = 0; i < n; ++i)
        if (i != j && p.A(i, j) != 0.0 && (is_candidate[j] || is_candidate[i])) {
          if (is_candidate[j]) column.push_back({i, j, p.A(i, j)});
          if (is_candidate[i]) row.push_back({i, j, p.A(i, j)});
        }
  }
  // sums per (sigma, member), sigma's column entries against its row entries
  auto by_sigma = [](std::vector<LcpStructure::Entry>& list, bool sigma_is_col) {
    for (LcpStructure::Entry& e : list)
      if (!sigma_is_col) std::swap(e.row, e.col);  // now (member, sigma)
    std::stable_sort(list.begin(), list.end(), [](const LcpStructure::Entry& a, const LcpStructure::Entry& b) {
      return a.col != b.col ? a.col < b.col : a.row < b.row;
    });
    std::vector<LcpStructure::Entry> merged;
    for (const LcpStructure::Entry& e : list) {
      if (!merged.empty() && merged.back().row == e.row && merged.back().col == e.col) merged.back().value += e.value;
      else merged.push_back(e);
    }
    list.swap(merged);
  };
  by_sigma(column, true);
  by_sigma(row, false);
  std::vector<char> claimed(n, 0);
  std::size_t c = 0, r = 0;
  for (int sigma = 0; sigma < n; ++sigma) {
    if (!is_candidate[sigma]) continue;
    const std::size_t c0 = c, r0 = r;
    while (c < column.size() && column[c].col == sigma) ++c;
    while (r < row.size() && row[r].col == sigma) ++r;
    if (c - c0 == 0 || c - c0 != r - r0) continue;
    std::vector<int> members;
    bool ok = true;
    for (std::size_t k = 0; k < c - c0 && ok; ++k) {
      const LcpStructure::Entry& in_column = column[c0 + k];  // A(member, sigma): E
      const LcpStructure::Entry& in_row = row[r0 + k];        // A(sigma, member): -E'
      const int m = in_column.row;
      ok = in_row.row == m && outside(m) && !is_candidate[m] && !claimed[m] && near(in_column.value, 1.0) &&
           near(in_row.value, -1.0);
      members.push_back(m);
    }
    if (!ok) continue;
    ContactBlock b;
    b.slip = sigma;
    b.friction = members;
    b.bound = p.b(sigma);
    for (int m : members) claimed[m] = 1;
    s.contact_of_slip[static_cast<std::size_t>(sigma)] = static_cast<int>(s.contacts.size());
    s.contacts.push_back(std::move(b));
  }
}

}  // namespace

namespace pgs_detail {

std::string dense_contact_blocks(const LcpProblem& p, Schedule& s) { return check_dense_contacts(p, s); }

std::string find_contacts(const LcpProblem& p, Schedule& s) {
  std::string why;
  const ContactLayout* layout = contact_layout(p, s.layout, why);
  if (!layout) return why;
  s.order.clear();
  s.contact_of_slip.assign(static_cast<std::size_t>(p.size()), -1);
  s.contacts.resize(layout->contacts.size());  // ContactBlocks are reused, keeping their storage
  for (std::size_t k = 0; k < layout->contacts.size(); ++k) {
    const ContactRows& c = layout->contacts[k];
    ContactBlock& b = s.contacts[k];
    b.normal = c.normal;
    b.slip = c.slip;
    b.mu = 0.0;
    b.bound = 0.0;
    b.friction.assign(layout->friction.begin() + c.friction_begin, layout->friction.begin() + c.friction_end);
    s.contact_of_slip[static_cast<std::size_t>(c.slip)] = static_cast<int>(k);
  }
  add_bounded_blocks(p, *layout, s);
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

struct PgsSolver::Workspace {
  Schedule schedule;
  pgs_detail::StructuredRows structured;
};

PgsSolver::PgsSolver(const SolverOptions& options, std::string_view name)
    : options_(options), name_(name), work_(std::make_unique<Workspace>()) {}
PgsSolver::~PgsSolver() = default;

SolverResult PgsSolver::solve(const LcpProblem& problem, VecX& z) {
  const solver_detail::Stopwatch clock;
  SolverResult result;
  auto finish = [&](SolverStatus status, std::string message) {
    // messages are written "pgs: ..."; psor reports under its own name
    if (name_ != "pgs" && message.starts_with("pgs")) message = std::string(name_) + message.substr(3);
    return solver_detail::finish(result, clock, status, std::move(message));
  };
  // the velocity engine when the structure is usable, else the dense one
  Schedule& schedule = work_->schedule;
  pgs_detail::StructuredRows& structured = work_->structured;
  std::string structure_issue = "no structure";
  if (!problem.structure.empty()) {
    if (!check_problem_without_A(problem, result)) return finish(result.status, result.message);
    if (std::string why = pgs_detail::find_contacts(problem, schedule); !why.empty())
      return finish(SolverStatus::Unsupported, "pgs: " + why);
    structure_issue = structured.build(problem, schedule);
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
  std::string why = pgs_detail::find_contacts(problem, schedule);
  if (why.empty()) why = check_dense_contacts(problem, schedule);
  if (!why.empty()) return finish(SolverStatus::Unsupported, "pgs: " + why);
  DenseRows dense(problem, schedule);
  why = build_order(problem, dense, schedule);
  if (!why.empty()) return finish(SolverStatus::Unsupported, "pgs: " + why);
  run(problem, options_, schedule, dense, z, result);
  return finish(result.status, result.message);
}

std::unique_ptr<LcpSolver> make_pgs_solver(const SolverOptions& options) {
  SolverOptions gauss_seidel = options;
  gauss_seidel.relaxation = 1.0;  // PGS is PSOR at lambda = 1 (thesis 2.5.2)
  return std::make_unique<PgsSolver>(gauss_seidel, "pgs");
}

std::unique_ptr<LcpSolver> make_psor_solver(const SolverOptions& options) {
  return std::make_unique<PgsSolver>(options, "psor");
}

}  // namespace pegsim
