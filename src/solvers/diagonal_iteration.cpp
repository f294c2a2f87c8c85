// The shared start and step of projected Jacobi and fixed-point (see
// diagonal_iteration.hpp).
#include "solvers/diagonal_iteration.hpp"

#include "solvers/solver_common.hpp"

#include <algorithm>
#include <string>

namespace pegsim::solver_detail {

bool start_diagonal_iteration(const LcpProblem& p, std::string_view solver, const SolverOptions& options,
                              VecX& z, VecX& w, DiagonalPlan& plan, SolverResult& result) {
  auto reject = [&](SolverStatus status, const std::string& why) {
    result.status = status;
    result.message = std::string(solver) + ": " + why;
    return false;
  };
  if (!check_problem(p, solver, result)) return false;
  const int n = p.size();
  if (z.size() != n || !z.allFinite()) z = VecX::Zero(n);
  if (n == 0) {
    result.status = SolverStatus::Solved;
    return false;
  }
  for (int i = 0; i < n; ++i)
    if (!is_free(p, i)) z(i) = std::max(z(i), 0.0);
  w.noalias() = p.A * z;
  w += p.b;
  residuals_from_w(p, z, w, result);
  if (within_tolerance(p, result, options.tolerance)) {  // a warm start at the solution
    result.status = SolverStatus::Solved;
    return false;
  }
  pgs_detail::Schedule& s = plan.schedule;
  std::string why = pgs_detail::find_contacts(p, s);
  if (why.empty() && !s.contacts.empty()) why = pgs_detail::dense_contact_blocks(p, s);
  if (!why.empty()) return reject(SolverStatus::Unsupported, why);
  std::vector<char> in_block(n, 0);
  for (const pgs_detail::ContactBlock& c : s.contacts) {
    in_block[c.slip] = 1;
    for (int f : c.friction) in_block[f] = 1;
  }
  plan.scalar.clear();
  plan.inv_diag = VecX::Zero(n);
  for (int i = 0; i < n; ++i) {
    if (in_block[i]) continue;
    if (!(p.A(i, i) > 0.0))
      return reject(SolverStatus::Unsupported, "diagonal A(" + std::to_string(i) + "," + std::to_string(i) +
                                                   ") <= 0 (the iteration divides by it, thesis eqs. 2.46-2.47)");
    plan.scalar.push_back(i);
    plan.inv_diag(i) = 1.0 / p.A(i, i);
  }
  const double threshold = residual_threshold(p, options.tolerance);
  plan.perp_tol = std::max(1e-3 * threshold, 1e-14 * (1.0 + p.b.cwiseAbs().maxCoeff()));
  return true;
}

void diagonal_step(const LcpProblem& p, DiagonalPlan& plan, double step, const VecX& w, VecX& z) {
  // the blocks first: they read the old p_n, which the scalar rows overwrite
  for (pgs_detail::ContactBlock& c : plan.schedule.contacts) {
    const int m = static_cast<int>(c.friction.size());
    VecX& v = plan.v;
    VecX& target = plan.p;
    v.resize(m);
    target.resize(m);
    for (int k = 0; k < m; ++k) {
      v(k) = w(c.friction[k]) - z(c.slip);  // A_fs = 1: without the slip term
      target(k) = z(c.friction[k]);
    }
    const double cap = c.cap(z);
    c.block.solve(target, v, cap, plan.perp_tol);  // the block's minimizer, v at it
    VecX& moved = plan.scratch;
    moved.resize(m);
    for (int k = 0; k < m; ++k) moved(k) = z(c.friction[k]) + step * (target(k) - z(c.friction[k]));
    if (step > 1.0) project_onto_capped_simplex(moved, std::max(cap, 0.0), plan.simplex_scratch);
    for (int k = 0; k < m; ++k) z(c.friction[k]) = moved(k);
    z(c.slip) = m > 0 ? std::max(0.0, -v.minCoeff()) : 0.0;
  }
  for (int i : plan.scalar) {
    const double zi = z(i) - step * plan.inv_diag(i) * w(i);
    z(i) = is_free(p, i) ? zi : std::max(zi, 0.0);
  }
}

}  // namespace pegsim::solver_detail
