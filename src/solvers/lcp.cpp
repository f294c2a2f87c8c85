// The solver-neutral LCP: residuals, status names, and the solver registry.
#include "solvers/lcp.hpp"

#include "solvers/delassus.hpp"
#include "solvers/solver_common.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>

namespace pegsim {

bool LcpProblem::is_pure_lcp() const {
  return std::none_of(bound.begin(), bound.end(),
                      [](RowBound r) { return r == RowBound::Free; });
}

std::string_view to_string(SolverStatus s) {
  switch (s) {
    case SolverStatus::Solved: return "solved";
    case SolverStatus::MaxIterations: return "max-iterations";
    case SolverStatus::RayTermination: return "ray-termination";
    case SolverStatus::Infeasible: return "infeasible";
    case SolverStatus::NumericalFailure: return "numerical-failure";
    case SolverStatus::Unsupported: return "unsupported";
  }
  return "unknown";
}

const ContactLayout* contact_layout(const LcpProblem& p, ContactLayout& scratch, std::string& why) {
  const int n = p.size();
  if (p.layout.rows == n && static_cast<int>(p.layout.contact_at.size()) == n) return &p.layout;
  scratch.clear(n);
  why.clear();
  if (p.role.empty() || p.contact_of.empty()) return &scratch;  // no roles: no contact blocks
  if (static_cast<int>(p.role.size()) != n || static_cast<int>(p.contact_of.size()) != n) {
    why = "role or contact_of has the wrong size";
    return nullptr;
  }
  // without slip rows, friction rows are plain rows (no eq. 6.1 blocks)
  if (std::find(p.role.begin(), p.role.end(), RowRole::Slip) == p.role.end()) return &scratch;
  auto free_row = [&](int i) { return !p.bound.empty() && p.bound[i] == RowBound::Free; };
  std::vector<int>& slip_of = scratch.contact_at;  // per Normal row: its slip row, until the blocks are laid out
  for (int i = 0; i < n; ++i) {
    const RowRole role = p.role[i];
    if (role != RowRole::Slip && role != RowRole::Friction) continue;
    const int c = p.contact_of[i];
    if (c < 0 || c >= n || p.role[c] != RowRole::Normal) {
      why = std::string(role == RowRole::Slip ? "slip" : "friction") + " row " + std::to_string(i) +
            " has no Normal row in contact_of";
      return nullptr;
    }
    if (free_row(i) || free_row(c)) {
      why = "Free row " + std::to_string(free_row(i) ? i : c) + " in a contact block";
      return nullptr;
    }
    if (role == RowRole::Slip) {
      if (slip_of[c] >= 0) {
        why = "two slip rows for normal row " + std::to_string(c);
        return nullptr;
      }
      slip_of[c] = i;
    }
  }
  for (int i = 0; i < n; ++i)
    if (p.role[i] == RowRole::Friction && slip_of[p.contact_of[i]] < 0) {
      why = "friction row " + std::to_string(i) + " has no slip row for its contact";
      return nullptr;
    }
  // the blocks in slip-row order (the formulations' order), friction rows in row order
  std::vector<int> order;  // the Normal rows of the contacts
  for (int i = 0; i < n; ++i)
    if (p.role[i] == RowRole::Slip) order.push_back(p.contact_of[i]);
  std::vector<int> index(n, -1);
  scratch.contacts.resize(order.size());
  for (std::size_t k = 0; k < order.size(); ++k) {
    index[order[k]] = static_cast<int>(k);
    scratch.contacts[k].normal = order[k];
    scratch.contacts[k].slip = slip_of[order[k]];
  }
  std::vector<int> count(order.size() + 1, 0);
  for (int i = 0; i < n; ++i)
    if (p.role[i] == RowRole::Friction) ++count[index[p.contact_of[i]] + 1];
  for (std::size_t k = 0; k < order.size(); ++k) count[k + 1] += count[k];
  scratch.friction.assign(static_cast<std::size_t>(count.back()), -1);
  for (std::size_t k = 0; k < order.size(); ++k) {
    scratch.contacts[k].friction_begin = count[k];
    scratch.contacts[k].friction_end = count[k];
  }
  for (int i = 0; i < n; ++i)
    if (p.role[i] == RowRole::Friction) {
      ContactRows& c = scratch.contacts[index[p.contact_of[i]]];
      scratch.friction[c.friction_end++] = i;
    }
  std::fill(scratch.contact_at.begin(), scratch.contact_at.end(), -1);
  for (std::size_t k = 0; k < order.size(); ++k) {
    const ContactRows& c = scratch.contacts[k];
    scratch.contact_at[c.normal] = scratch.contact_at[c.slip] = static_cast<int>(k);
    for (int f = c.friction_begin; f < c.friction_end; ++f) scratch.contact_at[scratch.friction[f]] = static_cast<int>(k);
  }
  return &scratch;
}

namespace solver_detail {

bool is_free(const LcpProblem& problem, int i) {
  return !problem.bound.empty() && problem.bound[i] == RowBound::Free;
}

RowRole role_of(const LcpProblem& problem, int i) {
  return problem.role.empty() ? RowRole::Other : problem.role[i];
}

void residuals_from_w(const LcpProblem& problem, const VecX& z, const VecX& w,
                      SolverResult& result) {
  double compl_res = 0.0;
  double feas = 0.0;
  const int n = problem.size();
  if (problem.is_pure_lcp()) {  // every row complementary: vectorised maxima (exact, in any order)
    if (n > 0) {
      compl_res = std::max(0.0, z.head(n).cwiseMin(w.head(n)).cwiseAbs().maxCoeff());
      feas = std::max(0.0, std::max(-z.head(n).minCoeff(), -w.head(n).minCoeff()));
    }
  } else {
    for (int i = 0; i < n; ++i) {
      if (is_free(problem, i)) {
        compl_res = std::max(compl_res, std::abs(w(i)));
        continue;
      }
      compl_res = std::max(compl_res, std::abs(std::min(z(i), w(i))));
      feas = std::max(feas, std::max(-z(i), -w(i)));
    }
  }
  // NaN never compares greater: make a non-finite iterate visible.
  if (!z.allFinite() || !w.allFinite()) compl_res = feas = std::numeric_limits<double>::infinity();
  result.complementarity = compl_res;
  result.feasibility = feas;
}

double residual_threshold(const LcpProblem& problem, double tolerance) {
  const double bmax = problem.size() > 0 ? problem.b.cwiseAbs().maxCoeff() : 0.0;
  return tolerance * (1.0 + bmax);
}

bool within_tolerance(const LcpProblem& problem, const SolverResult& result, double tolerance) {
  const double t = residual_threshold(problem, tolerance);
  return result.complementarity <= t && result.feasibility <= t;
}

bool check_problem(const LcpProblem& p, std::string_view solver, SolverResult& result) {
  const auto n = static_cast<Eigen::Index>(p.size());
  auto reject = [&](SolverStatus status, std::string_view why) {
    result.status = status;
    result.message = std::string(solver) + ": " + std::string(why);
    return false;
  };
  if (p.A.rows() != n || p.A.cols() != n)
    return reject(SolverStatus::Unsupported, "A is not square of the size of b");
  if (!p.bound.empty() && static_cast<Eigen::Index>(p.bound.size()) != n)
    return reject(SolverStatus::Unsupported, "bound has the wrong size");
  if (!p.role.empty() && static_cast<Eigen::Index>(p.role.size()) != n)
    return reject(SolverStatus::Unsupported, "role has the wrong size");
  if (!p.contact_of.empty() && static_cast<Eigen::Index>(p.contact_of.size()) != n)
    return reject(SolverStatus::Unsupported, "contact_of has the wrong size");
  for (int c : p.contact_of)
    if (c < -1 || c >= n) return reject(SolverStatus::Unsupported, "contact_of names a row outside the problem");
  // x * 0 is 0 for a finite x and NaN otherwise: one vectorised sum instead of
  // allFinite(), which costs as much as a Lemke warm start at n = 360
  if (std::isnan((p.A.array() * 0.0).sum()) || std::isnan((p.b.array() * 0.0).sum()))
    return reject(SolverStatus::NumericalFailure, "A or b holds a non-finite entry");
  return true;
}

}  // namespace solver_detail

namespace {

// structure_w into w; the per-body impulses are the thread's (issue 11 item 5:
// a step's residuals allocate nothing)
void structure_w_into(const LcpProblem& problem, const VecX& z, VecX& w) {
  const LcpStructure& st = problem.structure;
  const std::size_t nb = st.inverse_mass.size();
  thread_local std::vector<Vec6> impulse;  // G z per body
  impulse.assign(nb, Vec6::Zero());
  for (int i = 0; i < problem.size(); ++i) {
    const JacobianRow& r = st.rows[static_cast<std::size_t>(i)];
    if (r.body_a < nb) impulse[r.body_a] += z(i) * r.ja;
    if (r.body_b < nb) impulse[r.body_b] += z(i) * r.jb;
  }
  for (std::size_t b = 0; b < nb; ++b) impulse[b] = st.inverse_mass[b] * impulse[b];  // u = M^-1 G z
  w = problem.b;
  for (int i = 0; i < problem.size(); ++i) {
    const JacobianRow& r = st.rows[static_cast<std::size_t>(i)];
    if (r.body_a < nb) w(i) += r.ja.dot(impulse[r.body_a]);
    if (r.body_b < nb) w(i) += r.jb.dot(impulse[r.body_b]);
  }
  solver_detail::add_measured_rates(st, problem.size(), impulse, w);  // (R - G)' u
  for (const LcpStructure::Entry& e : st.coupling) w(e.row) += e.value * z(e.col);
}

void complementarity_w_into(const LcpProblem& problem, const VecX& z, VecX& w) {
  if (problem.has_matrix()) w.noalias() = problem.A * z + problem.b;
  else structure_w_into(problem, z, w);
}

}  // namespace

void measure_residuals(const LcpProblem& problem, const VecX& z, SolverResult& result) {
  const int n = problem.size();
  if (n == 0) {
    result.complementarity = result.feasibility = 0.0;
    return;
  }
  const bool structured = static_cast<int>(problem.structure.rows.size()) == n;
  if (z.size() != n || (!problem.has_matrix() && !structured)) {
    result.complementarity = result.feasibility = std::numeric_limits<double>::infinity();
    return;
  }
  thread_local VecX w;  // kept from call to call (issue 11 item 5)
  complementarity_w_into(problem, z, w);
  solver_detail::residuals_from_w(problem, z, w, result);
}

VecX complementarity_w(const LcpProblem& problem, const VecX& z) {
  VecX w;
  complementarity_w_into(problem, z, w);
  return w;
}

VecX structure_w(const LcpProblem& problem, const VecX& z) {
  VecX w;
  structure_w_into(problem, z, w);
  return w;
}

void assemble_matrix(LcpProblem& problem) {
  const LcpStructure& st = problem.structure;
  const int n = problem.size();
  if (static_cast<int>(st.rows.size()) != n)
    throw std::invalid_argument("assemble_matrix: the problem has no structure to assemble A from");
  // the formulation's own sum (solver_detail::add_delassus): an A assembled
  // later has the bits of one filled at formulation
  problem.A.setZero(n, n);
  solver_detail::add_delassus(st, n, problem.A);
  solver_detail::add_measures(st, n, problem.A);
  for (const LcpStructure::Entry& e : st.coupling) problem.A(e.row, e.col) += e.value;
}

std::unique_ptr<LcpSolver> make_solver(std::string_view name, const SolverOptions& options) {
#define PEGSIM_MAKE_IF_NAMED(solver_name, factory) \
  if (name == solver_name) return factory(options);
  PEGSIM_SOLVER_LIST(PEGSIM_MAKE_IF_NAMED)
#undef PEGSIM_MAKE_IF_NAMED
  return nullptr;
}

std::vector<std::string> solver_names() {
  std::vector<std::string> names;
#define PEGSIM_ADD_NAME(solver_name, factory) names.emplace_back(solver_name);
  PEGSIM_SOLVER_LIST(PEGSIM_ADD_NAME)
#undef PEGSIM_ADD_NAME
  return names;
}

}  // namespace pegsim
