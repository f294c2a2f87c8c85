// The solver-neutral LCP: residuals, status names, and the solver registry.
#include "solvers/lcp.hpp"

#include "solvers/solver_common.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

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

namespace solver_detail {

bool is_free(const LcpProblem& problem, int i) {
  return !problem.bound.empty() && problem.bound[i] == RowBound::Free;
}

RowRole role_of(const LcpProblem& problem, int i) {
  return problem.role.empty() ? RowRole::Other : problem.role[i];
}

int contact_of(const LcpProblem& problem, int i) {
  return problem.contact_of.empty() ? -1 : problem.contact_of[i];
}

void residuals_from_w(const LcpProblem& problem, const VecX& z, const VecX& w,
                      SolverResult& result) {
  double compl_res = 0.0;
  double feas = 0.0;
  for (int i = 0; i < problem.size(); ++i) {
    if (is_free(problem, i)) {
      compl_res = std::max(compl_res, std::abs(w(i)));
      continue;
    }
    compl_res = std::max(compl_res, std::abs(std::min(z(i), w(i))));
    feas = std::max({feas, -z(i), -w(i)});
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

void measure_residuals(const LcpProblem& problem, const VecX& z, SolverResult& result) {
  const int n = problem.size();
  if (n == 0) {
    result.complementarity = result.feasibility = 0.0;
    return;
  }
  if (z.size() != n || problem.A.rows() != n || problem.A.cols() != n) {
    result.complementarity = result.feasibility = std::numeric_limits<double>::infinity();
    return;
  }
  const VecX w = problem.A * z + problem.b;
  solver_detail::residuals_from_w(problem, z, w, result);
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
