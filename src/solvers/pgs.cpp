// Projected Gauss-Seidel with Stewart-Trinkle contact blocks (see pgs.hpp).
#include "solvers/pgs.hpp"

#include "solvers/solver_common.hpp"

#include <algorithm>
#include <cmath>
#include <functional>
#include <string>
#include <vector>

namespace pegsim {
namespace {

using solver_detail::contact_of;
using solver_detail::is_free;
using solver_detail::role_of;

constexpr int kCheckEvery = 4;    // sweeps between full residual checks
constexpr int kInnerSteps = 24;   // projected-gradient steps per friction block and sweep
constexpr double kStructureTol = 1e-12;
constexpr double kInnerTol = 1e-13;  // inner steps stop below this change, relative to mu p_n

struct ContactBlock {
  int normal = -1;
  int slip = -1;
  std::vector<int> friction;
  double mu = 0.0;
  MatX H;                  // A_ff of this contact
  double lipschitz = 0.0;  // step 1 / lipschitz for the friction block (step_bound)
};

struct Schedule {
  std::vector<int> order;  // >= 0: a plain row; < 0: contact -(c + 1), at its normal row
  std::vector<ContactBlock> contacts;
};

bool near(double a, double b) { return std::abs(a - b) <= kStructureTol * (1.0 + std::abs(b)); }

// L for projected-gradient steps 1/L on a friction block, H = A_ff symmetric
// PSD: a power-iteration estimate of lambda_max (times 1.1), but never below
// 0.55 of the Gershgorin bound G >= lambda_max, so that 1/L <= 1.82/lambda_max
// < 2/lambda_max: the step always converges, and is rarely as timid as 1/G.
double step_bound(const MatX& H) {
  const int m = static_cast<int>(H.rows());
  if (m == 0) return 0.0;
  const double gershgorin = H.cwiseAbs().rowwise().sum().maxCoeff();
  VecX x = VecX::LinSpaced(m, 1.0, 2.0);  // not orthogonal to a leading eigenvector in practice
  double estimate = 0.0;
  for (int it = 0; it < 20; ++it) {
    const VecX y = H * x;
    const double norm = y.norm();
    if (!(norm > 0.0)) break;
    estimate = x.dot(y) / x.squaredNorm();
    x = y / norm;
  }
  return std::max(1.1 * estimate, 0.55 * gershgorin);
}

// Finds the contact blocks and checks the eq. 6.1 structure of their slip rows
// and columns: A_sn = mu >= 0, A_sf = -1, A_fs = +1, zero elsewhere.
// Returns an empty string or why the problem is outside this solver's scope.
std::string build_schedule(const LcpProblem& p, Schedule& s) {
  const int n = p.size();
  std::vector<int> block_of_normal(n, -1);
  std::vector<char> in_block(n, 0);
  for (int i = 0; i < n; ++i) {
    if (role_of(p, i) != RowRole::Slip) continue;
    const int c = contact_of(p, i);
    if (c < 0 || role_of(p, c) != RowRole::Normal)
      return "slip row " + std::to_string(i) + " has no Normal row in contact_of";
    if (block_of_normal[c] >= 0) return "two slip rows for normal row " + std::to_string(c);
    block_of_normal[c] = static_cast<int>(s.contacts.size());
    ContactBlock b;
    b.normal = c;
    b.slip = i;
    b.mu = p.A(i, c);
    s.contacts.push_back(std::move(b));
    in_block[i] = in_block[c] = 1;
  }
  for (int i = 0; i < n; ++i) {
    if (role_of(p, i) != RowRole::Friction) continue;
    const int c = contact_of(p, i);
    if (!s.contacts.empty() && (c < 0 || block_of_normal[c] < 0))
      return "friction row " + std::to_string(i) + " has no slip row for its contact";
    if (c >= 0 && block_of_normal[c] >= 0) {
      s.contacts[block_of_normal[c]].friction.push_back(i);
      in_block[i] = 1;
    }
  }
  for (ContactBlock& b : s.contacts) {
    std::vector<char> member(n, 0);
    for (int f : b.friction) member[f] = 1;
    if (!(b.mu >= 0.0)) return "negative friction coefficient at slip row " + std::to_string(b.slip);
    for (int j = 0; j < n; ++j) {
      const double row = j == b.normal ? b.mu : (member[j] ? -1.0 : 0.0);
      const double col = member[j] ? 1.0 : 0.0;
      if (!near(p.A(b.slip, j), row) || !near(p.A(j, b.slip), col))
        return "slip row/column " + std::to_string(b.slip) + " lacks the eq. 6.1 structure";
    }
    const int m = static_cast<int>(b.friction.size());
    b.H.resize(m, m);
    for (int r = 0; r < m; ++r)
      for (int c = 0; c < m; ++c) b.H(r, c) = p.A(b.friction[r], b.friction[c]);
    b.lipschitz = step_bound(b.H);
    for (int r : b.friction)
      if (is_free(p, r)) return "Free friction row " + std::to_string(r);
    if (is_free(p, b.normal) || is_free(p, b.slip)) return "Free row in a contact block";
  }
  for (int i = 0; i < n; ++i) {
    if (block_of_normal[i] >= 0) {
      s.order.push_back(-(block_of_normal[i] + 1));
    } else if (!in_block[i]) {
      s.order.push_back(i);
    }
    if ((block_of_normal[i] >= 0 || !in_block[i]) && !(p.A(i, i) > 0.0))
      return "diagonal A(" + std::to_string(i) + "," + std::to_string(i) +
             ") <= 0 (PGS divides by it, eq. 2.46)";
  }
  return {};
}

}  // namespace

void project_onto_capped_simplex(VecX& y, double cap, std::vector<double>& scratch) {
  if (!(cap > 0.0)) {
    y.setZero();
    return;
  }
  y = y.cwiseMax(0.0);
  if (y.sum() <= cap) return;
  // onto {x >= 0, sum x = cap}: x = max(y - tau, 0), tau from the sorted values
  scratch.assign(y.data(), y.data() + y.size());
  std::sort(scratch.begin(), scratch.end(), std::greater<>());
  double cumulative = 0.0;
  double tau = 0.0;
  for (std::size_t j = 0; j < scratch.size(); ++j) {
    cumulative += scratch[j];
    const double t = (cumulative - cap) / static_cast<double>(j + 1);
    if (scratch[j] - t <= 0.0) break;
    tau = t;
  }
  y = (y.array() - tau).cwiseMax(0.0);
}

void project_onto_capped_simplex(VecX& y, double cap) {
  std::vector<double> scratch;
  project_onto_capped_simplex(y, cap, scratch);
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
  if (!solver_detail::check_problem(problem, "pgs", result)) {
    result.seconds = clock.seconds();
    return result;
  }
  const int n = problem.size();
  if (z.size() != n || !z.allFinite()) z = VecX::Zero(n);
  if (n == 0) return finish(SolverStatus::Solved, {});
  Schedule schedule;
  if (std::string why = build_schedule(problem, schedule); !why.empty())
    return finish(SolverStatus::Unsupported, "pgs: " + why);
  for (int i = 0; i < n; ++i)
    if (!is_free(problem, i)) z(i) = std::max(z(i), 0.0);

  const MatX& A = problem.A;
  const double lambda = options_.relaxation;
  const int max_sweeps = options_.max_iterations > 0 ? options_.max_iterations : kDefaultMaxSweeps;
  VecX w = A * z + problem.b;

  auto update_row = [&](int i) {  // eq. 2.46
    double zi = z(i) - lambda * w(i) / A(i, i);
    if (!is_free(problem, i)) zi = std::max(zi, 0.0);
    const double dz = zi - z(i);
    if (dz == 0.0) return;
    z(i) = zi;
    w.noalias() += dz * A.col(i);
  };
  VecX v, p, y, dp;
  std::vector<double> scratch;
  auto update_contact = [&](const ContactBlock& c) {
    update_row(c.normal);
    const int m = static_cast<int>(c.friction.size());
    const double cap = c.mu * z(c.normal);
    v.resize(m);
    p.resize(m);
    for (int k = 0; k < m; ++k) {
      v(k) = w(c.friction[k]) - z(c.slip);  // A_fs = 1: the slip term removed
      p(k) = z(c.friction[k]);
    }
    const double step = 1.0 / std::max(c.lipschitz, 1e-300);
    for (int it = 0; it < kInnerSteps && m > 0; ++it) {
      y = p - step * v;
      project_onto_capped_simplex(y, cap, scratch);
      dp = y - p;
      const double change = dp.cwiseAbs().maxCoeff();
      if (change == 0.0) break;
      v.noalias() += c.H * dp;
      p = y;
      if (change <= kInnerTol * cap) break;
    }
    for (int k = 0; k < m; ++k) {
      const int f = c.friction[k];
      const double d = p(k) - z(f);
      if (d == 0.0) continue;
      z(f) = p(k);
      w.noalias() += d * A.col(f);
    }
    const double s = m > 0 ? std::max(0.0, -v.minCoeff()) : 0.0;
    const double ds = s - z(c.slip);
    if (ds != 0.0) {
      z(c.slip) = s;
      w.noalias() += ds * A.col(c.slip);
    }
  };

  for (int sweep = 1; sweep <= max_sweeps; ++sweep) {
    for (int item : schedule.order) {
      if (item >= 0)
        update_row(item);
      else
        update_contact(schedule.contacts[-item - 1]);
    }
    result.iterations = sweep;
    if (sweep == 1 || sweep % kCheckEvery == 0 || sweep == max_sweeps) {
      w.noalias() = A * z;  // drop the drift of the incremental updates
      w += problem.b;
      solver_detail::residuals_from_w(problem, z, w, result);
      if (solver_detail::within_tolerance(problem, result, options_.tolerance))
        return finish(SolverStatus::Solved, {});
      if (!std::isfinite(result.complementarity))
        return finish(SolverStatus::NumericalFailure, "pgs: the iterate diverged");
    }
  }
  return finish(SolverStatus::MaxIterations,
                "pgs: not converged in " + std::to_string(max_sweeps) + " sweeps (residual " +
                    std::to_string(solver_detail::residual_norm(result)) + ")");
}

std::unique_ptr<LcpSolver> make_pgs_solver(const SolverOptions& options) {
  return std::make_unique<PgsSolver>(options);
}

}  // namespace pegsim
