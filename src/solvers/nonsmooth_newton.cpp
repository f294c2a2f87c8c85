// The nonsmooth Newton core (see nonsmooth_newton.hpp for the method and its
// sources).
#include "solvers/nonsmooth_newton.hpp"

#include "solvers/lemke_active_set.hpp"
#include "solvers/solver_common.hpp"

#include <Eigen/Cholesky>
#include <Eigen/LU>

#include <algorithm>
#include <cmath>
#include <deque>
#include <limits>

namespace pegsim::newton_detail {
namespace {

constexpr double kMinRcond = 1e-12;      // LU accepted above this reciprocal condition estimate
constexpr double kDependent = 1e-10;     // LU pivots below this (relative): a dependent column
constexpr int kDropRounds = 3;           // min-map: rounds of dropping dependent rows
constexpr double kRho = 1e-8;            // descent test grad'd <= -rho |d|^p (DFK 1996)
constexpr double kP = 2.1;
constexpr double kSigma = 1e-4;          // Armijo constant
constexpr int kMaxHalvings = 40;         // line search: t down to 2^-40
constexpr double kStallFactor = 0.9;     // a new best residual must beat the last by this factor
constexpr double kTargetShare = 1e-3;    // target = min(kTargetShare threshold, kTargetLevel (1 + |b|))
constexpr double kTargetLevel = 1e-13;
constexpr double kSmoothing = 0.5;       // Jacobian smoothing: |Phi - Phi_mu| <= kSmoothing |Phi|
constexpr double kKink = 0.29289321881345248;  // 1 - 1/sqrt 2

// phi_FB(a, b) without cancellation where a + b > 0.
double fischer(double a, double b) {
  const double r = std::hypot(a, b);
  const double s = a + b;
  return s > 0.0 ? 2.0 * a * b / (s + r) : s - r;
}

// H = diag(da) + diag(db) M (nonsmooth_newton.hpp, "Generalized Jacobian").
void jacobian(const ScaledProblem& s, Reformulation kind, const VecX& y, const VecX& v, VecX& da,
              VecX& db, double mu = 0.0) {
  const int n = static_cast<int>(y.size());
  da.resize(n);
  db.resize(n);
  for (int i = 0; i < n; ++i) {
    if (s.free[i]) {
      da(i) = 0.0;
      db(i) = 1.0;
    } else if (kind == Reformulation::MinMap) {
      const bool z_row = y(i) <= v(i);
      da(i) = z_row ? 1.0 : 0.0;
      db(i) = z_row ? 0.0 : 1.0;
    } else {
      const double r = std::sqrt(y(i) * y(i) + v(i) * v(i) + 2.0 * mu * mu);
      da(i) = r > 0.0 ? 1.0 - y(i) / r : kKink;
      db(i) = r > 0.0 ? 1.0 - v(i) / r : kKink;
    }
  }
}

// The Newton direction H d = -Phi through the decoupled rows (db_i = 0) and
// the reduced system of the others. Min-map: where the reduced system (A_JJ
// of the active set J) is singular, the rows of the columns LU finds
// dependent leave J for the z rows (d_i = -y_i), as Lemke's active-set
// polish drops them (lemke_active_set.hpp); FB, or what stays singular: the
// basic solution of solve_basic. False when no finite d comes out.
bool newton_direction(const ScaledProblem& s, Reformulation kind, const VecX& y, const VecX& da,
                      const VecX& db, const VecX& phi, VecX& d) {
  const int n = static_cast<int>(phi.size());
  std::vector<char> z_row(n, 0);
  for (int i = 0; i < n; ++i) z_row[i] = db(i) == 0.0;
  std::vector<int> J;
  MatX S;
  VecX rhs, x;
  for (int attempt = 0;; ++attempt) {
    d = VecX::Zero(n);
    J.clear();
    VecX coupling = VecX::Zero(n);  // M d_I
    for (int i = 0; i < n; ++i) {
      if (!z_row[i]) {
        J.push_back(i);
        continue;
      }
      // da = 1 on decoupled rows (FB: z_i = 0, w_i > 0; min: z rows); dropped rows: z_i -> 0
      d(i) = db(i) == 0.0 ? -phi(i) / da(i) : -y(i);
      if (d(i) != 0.0) coupling += d(i) * s.M.col(i);
    }
    const int k = static_cast<int>(J.size());
    if (k == 0) return true;
    S.resize(k, k);
    rhs.resize(k);
    for (int c = 0; c < k; ++c) {
      for (int r = 0; r < k; ++r) S(r, c) = db(J[r]) * s.M(J[r], J[c]);
      S(c, c) += da(J[c]);
      rhs(c) = -phi(J[c]) - db(J[c]) * coupling(J[c]);
    }
    if (kind != Reformulation::MinMap || attempt == kDropRounds) break;
    const Eigen::PartialPivLU<MatX> lu(S);
    if (lu.rcond() >= kMinRcond) break;
    const VecX u = lu.matrixLU().diagonal().cwiseAbs();
    const double cut = kDependent * std::max(u.maxCoeff(), 1.0);
    int dropped = 0;
    for (int c = 0; c < k; ++c)
      if (u(c) <= cut && !s.free[J[c]]) {
        z_row[J[c]] = 1;
        ++dropped;
      }
    if (dropped == 0) break;
  }
  if (!solve_basic(S, rhs, x)) return false;
  for (int c = 0; c < static_cast<int>(J.size()); ++c) d(J[c]) = x(c);
  return true;
}

// The Levenberg-Marquardt direction (H'H + mu I) d = -grad on the full system.
bool damped_direction(const ScaledProblem& s, const VecX& da, const VecX& db, const VecX& grad,
                      double phi_norm, VecX& d) {
  MatX H = db.asDiagonal() * s.M;
  H.diagonal() += da;
  MatX N = H.transpose() * H;
  const double scale = std::max(N.diagonal().maxCoeff(), std::numeric_limits<double>::min());
  N.diagonal().array() += scale * std::max(std::min(1.0, phi_norm), 1e-14);
  const Eigen::LDLT<MatX> ldlt(N);
  d = -ldlt.solve(grad);
  return ldlt.info() == Eigen::Success && d.allFinite();
}

// -H'Phi scaled to the minimiser of the Gauss-Newton model |Phi + t H g|^2.
void steepest_descent(const ScaledProblem& s, const VecX& da, const VecX& db, const VecX& grad, VecX& d) {
  const VecX Hg = da.cwiseProduct(grad) + db.cwiseProduct(s.M * grad);
  const double hg = Hg.squaredNorm();
  d = -(hg > 0.0 ? grad.squaredNorm() / hg : 1.0) * grad;
}

enum class Step { Newton, Damped, Gradient };

struct Trial {
  double t = 0.0;
  VecX y, v, phi;
  double merit = 0.0;
};

// Backtracking from t = 1: psi(y + t d) <= ref + sigma t slope.
bool line_search(const ScaledProblem& s, Reformulation kind, const VecX& y, const VecX& v, const VecX& d,
                 double slope, double ref, Trial& out) {
  const VecX Md = s.M * d;
  double t = 1.0;
  for (int k = 0; k <= kMaxHalvings; ++k, t *= 0.5) {
    out.y = y + t * d;
    out.v = v + t * Md;
    out.merit = evaluate(s, kind, out.y, out.v, out.phi);
    if (std::isfinite(out.merit) && out.merit <= ref + kSigma * t * slope) {
      out.t = t;
      return true;
    }
  }
  return false;
}

}  // namespace

ScaledProblem scale_problem(const LcpProblem& p, double tolerance) {
  ScaledProblem s;
  s.original = &p;
  const int n = p.size();
  s.D = lemke_detail::equilibration(p.A);
  s.M = s.D.asDiagonal() * p.A * s.D.asDiagonal();
  s.q = s.D.cwiseProduct(p.b);
  s.free.assign(n, 0);
  for (int i = 0; i < n; ++i) s.free[i] = solver_detail::is_free(p, i) ? 1 : 0;
  s.threshold = solver_detail::residual_threshold(p, tolerance);
  const double bmax = n > 0 ? p.b.cwiseAbs().maxCoeff() : 0.0;
  s.target = std::min(kTargetShare * s.threshold, kTargetLevel * (1.0 + bmax));
  return s;
}

double evaluate(const ScaledProblem& s, Reformulation kind, const VecX& y, const VecX& v, VecX& phi) {
  const int n = static_cast<int>(y.size());
  phi.resize(n);
  for (int i = 0; i < n; ++i) {
    if (s.free[i])
      phi(i) = v(i);
    else
      phi(i) = kind == Reformulation::MinMap ? std::min(y(i), v(i)) : fischer(y(i), v(i));
  }
  return 0.5 * phi.squaredNorm();
}

bool solve_basic(const MatX& S, const VecX& rhs, VecX& x) {
  if (S.rows() == 0) {
    x.resize(0);
    return true;
  }
  const Eigen::PartialPivLU<MatX> lu(S);
  if (lu.rcond() >= kMinRcond) {
    x = lu.solve(rhs);
    if (x.allFinite()) return true;
  }
  Eigen::FullPivLU<MatX> full;
  full.setThreshold(kDependent);
  full.compute(S);
  x = full.solve(rhs);
  return x.allFinite();
}

VecX clamp_bounded(const ScaledProblem& s, const VecX& z) {
  VecX c = z;
  for (int i = 0; i < static_cast<int>(z.size()); ++i)
    if (!s.free[i]) c(i) = std::max(c(i), 0.0);
  return c;
}

VecX starting_point(const ScaledProblem& s, const VecX& warm, SolverResult& residuals) {
  const int n = s.original->size();
  VecX zero = VecX::Zero(n);
  residuals = measure(s, zero);
  if (warm.size() != n || !warm.allFinite() || warm.isZero(0.0)) return zero;
  VecX start = clamp_bounded(s, warm);
  const SolverResult res = measure(s, start);
  if (solver_detail::residual_norm(res) > solver_detail::residual_norm(residuals)) return zero;
  residuals = res;
  return start;
}

bool active_set_point(const ScaledProblem& s, const VecX& y, const VecX& v, VecX& y_new, VecX& v_new,
                      std::vector<int>* active) {
  const int n = static_cast<int>(y.size());
  std::vector<int> J;
  for (int i = 0; i < n; ++i)
    if (s.free[i] || y(i) > v(i)) J.push_back(i);
  const int k = static_cast<int>(J.size());
  MatX S(k, k);
  VecX rhs(k), x;
  for (int c = 0; c < k; ++c) {
    for (int r = 0; r < k; ++r) S(r, c) = s.M(J[r], J[c]);
    rhs(c) = -s.q(J[c]);
  }
  if (!solve_basic(S, rhs, x)) return false;
  y_new = VecX::Zero(n);
  for (int c = 0; c < k; ++c) y_new(J[c]) = s.free[J[c]] ? x(c) : std::max(x(c), 0.0);
  v_new = s.M * y_new + s.q;
  if (active) active->swap(J);
  return v_new.allFinite();
}

SolverResult measure(const ScaledProblem& s, const VecX& z) {
  SolverResult r;
  measure_residuals(*s.original, z, r);
  return r;
}

const char* to_string(NewtonStop stop) {
  switch (stop) {
    case NewtonStop::Converged: return "converged";
    case NewtonStop::MaxIterations: return "iteration limit";
    case NewtonStop::TimeBudget: return "time budget spent";
    case NewtonStop::Stalled: return "stalled";
    case NewtonStop::NoDescent: return "no descent direction";
  }
  return "?";
}

NewtonRun nonsmooth_newton(const ScaledProblem& s, const VecX& z0, const NewtonSettings& settings) {
  using solver_detail::residual_norm;
  const LcpProblem& p = *s.original;
  const Reformulation kind = settings.reformulation;
  NewtonRun run;

  // the current point: z, w on the original problem; y, v scaled
  VecX z = z0;
  VecX w = p.A * z + p.b;
  VecX y = z.cwiseQuotient(s.D);
  VecX v = s.D.cwiseProduct(w);
  VecX phi;
  double merit = evaluate(s, kind, y, v, phi);

  run.z = z;
  solver_detail::residuals_from_w(p, z, w, run.residuals);
  double stall_ref = residual_norm(run.residuals);
  int since_progress = 0;
  // the watchdog's checkpoint: the point of least merit
  VecX y_least = y, v_least = v;
  double least = merit;
  int since_least = 0;
  std::deque<double> history{merit};
  int extra = 0;

  VecX da, db, da_mu, db_mu, grad, d;
  Trial trial;
  for (;;) {
    const double r = residual_norm(run.residuals);
    if (r <= s.target) {
      run.stop = NewtonStop::Converged;
      break;
    }
    if (r <= s.threshold && ++extra > settings.extra_iterations) {
      run.stop = NewtonStop::Converged;
      break;
    }
    if (run.iterations >= settings.max_iterations) {
      run.stop = NewtonStop::MaxIterations;
      break;
    }
    if (settings.deadline && settings.deadline->expired()) {
      run.stop = NewtonStop::TimeBudget;
      break;
    }
    if (settings.stall > 0 && since_progress >= settings.stall) {
      run.stop = NewtonStop::Stalled;
      break;
    }
    if (settings.watchdog > 0 && since_least >= settings.watchdog) {
      // back to the checkpoint; the memory restarts there
      y = y_least;
      v = v_least;
      merit = evaluate(s, kind, y, v, phi);
      history.assign(1, merit);
      since_least = 0;
      ++run.watchdog_returns;
    }
    ++run.iterations;

    // 1.-3. directions in turn, until one passes the descent test and the
    // line search against the reference value
    jacobian(s, kind, y, v, da, db);                                         // H
    grad = da.cwiseProduct(phi) + s.M.transpose() * db.cwiseProduct(phi);  // H' Phi
    if (kind == Reformulation::FischerBurmeister) {                          // H_mu
      const double mu = kSmoothing * phi.norm() / std::sqrt(2.0 * static_cast<double>(phi.size()));
      jacobian(s, kind, y, v, da_mu, db_mu, mu);
    } else {
      da_mu = da;
      db_mu = db;
    }
    const double ref = *std::max_element(history.begin(), history.end());
    auto descent = [&](double slope) { return slope < 0.0 && slope <= -kRho * std::pow(d.norm(), kP); };
    auto search = [&](double slope) { return line_search(s, kind, y, v, d, slope, ref, trial); };
    Step step = Step::Newton;
    double slope = 0.0;
    bool accepted = newton_direction(s, kind, y, da_mu, db_mu, phi, d) && descent(slope = grad.dot(d)) &&
                    search(slope);
    if (!accepted) {
      step = Step::Damped;
      accepted = damped_direction(s, da_mu, db_mu, grad, phi.norm(), d) && descent(slope = grad.dot(d)) &&
                 search(slope);
    }
    if (!accepted) {
      step = Step::Gradient;
      steepest_descent(s, da, db, grad, d);
      slope = grad.dot(d);
      accepted = slope < 0.0 && search(slope);
    }
    if (step == Step::Damped) ++run.damped_steps;
    if (step == Step::Gradient) ++run.gradient_steps;
    if (!accepted) {
      run.stop = NewtonStop::NoDescent;
      break;
    }
    // the new point, w from scratch on the original data
    y = trial.y;
    z = s.D.cwiseProduct(y);
    w.noalias() = p.A * z;
    w += p.b;
    v = s.D.cwiseProduct(w);
    merit = evaluate(s, kind, y, v, phi);
    history.push_back(merit);
    while (static_cast<int>(history.size()) > std::max(settings.memory, 1)) history.pop_front();
    if (merit < least) {
      least = merit;
      y_least = y;
      v_least = v;
      since_least = 0;
    } else {
      ++since_least;
    }
    SolverResult res;
    solver_detail::residuals_from_w(p, z, w, res);
    if (residual_norm(res) < residual_norm(run.residuals)) {
      run.z = z;
      run.residuals = res;
    }
    if (residual_norm(res) < kStallFactor * stall_ref) {
      stall_ref = residual_norm(res);
      since_progress = 0;
    } else {
      ++since_progress;
    }
  }

  // z >= 0 on NonNegative rows, unless that leaves a larger residual
  const VecX clamped = clamp_bounded(s, run.z);
  if (clamped != run.z) {
    const SolverResult res = measure(s, clamped);
    if (residual_norm(res) <= residual_norm(run.residuals)) {
      run.z = clamped;
      run.residuals = res;
    }
  }
  run.within = run.residuals.complementarity <= s.threshold && run.residuals.feasibility <= s.threshold;
  return run;
}

}  // namespace pegsim::newton_detail
