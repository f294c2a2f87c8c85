#include "solvers/log_barrier.hpp"

#include <Eigen/Cholesky>

#include <algorithm>
#include <cmath>
#include <limits>

namespace pegsim {

double QuadraticConstraint::value(const VecX& y) const {
  double f = g.dot(y) + c;
  if (H.size() > 0) f += y.dot(H * y);
  return f;
}

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

// The first alpha > 0 where f(y + alpha d) = f_now + alpha s + alpha^2 q reaches 0 (f_now < 0).
double first_root(const QuadraticConstraint& k, const VecX& y, const VecX& d, double f_now) {
  double s = k.g.dot(d), q = 0.0;
  if (k.H.size() > 0) {
    const VecX Hd = k.H * d;
    s += 2.0 * y.dot(Hd);
    q = d.dot(Hd);
  }
  if (q == 0.0) return s > 0.0 ? -f_now / s : kInf;
  const double disc = s * s - 4.0 * q * f_now;
  if (disc < 0.0) return kInf;  // q < 0 and no real root: f stays negative
  const double qq = -0.5 * (s + std::copysign(std::sqrt(disc), s));  // the cancellation-free pair of roots
  double best = kInf;
  for (double r : {qq / q, qq != 0.0 ? f_now / qq : kInf})
    if (r > 0.0) best = std::min(best, r);
  return best;
}

class Barrier {
 public:
  Barrier(const MatX& U, const VecX& v, const std::vector<QuadraticConstraint>& k) : U_(U), v_(v), k_(k) {}
  double objective(const VecX& y) const { return y.dot(U_ * y) + v_.dot(y); }
  // t f0(y) - sum log(-f_i(y)); +inf outside the strict interior
  double value(const VecX& y, double t) const {
    double phi = t * objective(y);
    for (const QuadraticConstraint& k : k_) {
      const double f = k.value(y);
      if (!(f < 0.0)) return kInf;
      phi -= std::log(-f);
    }
    return phi;
  }
  void derivatives(const VecX& y, double t, VecX& grad, MatX& hess) const {
    grad = t * (2.0 * U_ * y + v_);
    hess = 2.0 * t * U_;
    for (const QuadraticConstraint& k : k_) {
      const double f = k.value(y);
      VecX df = k.g;
      if (k.H.size() > 0) df += 2.0 * k.H * y;
      // phi = -log(-f): grad phi = df / (-f), hess phi = df df' / f^2 + hess f / (-f) (guide A.4)
      grad += df / (-f);
      hess += df * df.transpose() / (f * f);
      if (k.H.size() > 0) hess += 2.0 * k.H / (-f);
    }
  }
  double step_limit(const VecX& y, const VecX& d) const {
    double a = kInf;
    for (const QuadraticConstraint& k : k_) a = std::min(a, first_root(k, y, d, k.value(y)));
    return a;
  }

 private:
  const MatX& U_;
  const VecX& v_;
  const std::vector<QuadraticConstraint>& k_;
};

}  // namespace

BarrierResult minimize_log_barrier(const MatX& U, const VecX& v, const std::vector<QuadraticConstraint>& constraints,
                                   const VecX& y0, const BarrierOptions& o) {
  const Barrier barrier(U, v, constraints);
  BarrierResult r;
  r.y = y0;
  const double m = static_cast<double>(constraints.size());
  double t = o.t0;
  bool centered = true;
  VecX grad, dy;
  MatX hess;
  for (int outer = 0; outer < o.max_outer; ++outer) {
    ++r.outer_iterations;
    centered = false;
    for (int step = 0; step < o.max_newton_steps; ++step) {
      barrier.derivatives(r.y, t, grad, hess);
      Eigen::LDLT<MatX> ldlt(hess);
      bool ok = ldlt.info() == Eigen::Success && ldlt.isPositive();
      if (ok) dy = -ldlt.solve(grad);
      if (!ok || !dy.allFinite() || grad.dot(dy) >= 0.0) {  // singular: a Tikhonov term (guide A.4), else -grad
        const double shift = 1e-12 * std::max(hess.diagonal().cwiseAbs().maxCoeff(), 1e-300);
        ldlt.compute(hess + shift * MatX::Identity(hess.rows(), hess.cols()));
        dy = -ldlt.solve(grad);
        if (!dy.allFinite() || grad.dot(dy) >= 0.0) dy = -grad;
      }
      ++r.newton_steps;
      const double decrement = -grad.dot(dy);  // lambda^2
      if (decrement / 2.0 <= o.newton_tolerance) {
        centered = true;
        break;
      }
      // alpha = argmin h(y + alpha dy) over the strictly feasible part of the line (000 l.137-139)
      const double upper = std::min(4.0, 0.99 * barrier.step_limit(r.y, dy));
      const double phi0 = barrier.value(r.y, t);
      const double alpha = brent_minimize([&](double a) { return barrier.value(r.y + a * dy, t); }, 0.0, upper,
                                          1e-10, 100);
      const VecX next = r.y + alpha * dy;
      if (!(barrier.value(next, t) < phi0)) {  // no decrease left along dy: centered to round-off
        centered = true;
        break;
      }
      r.y = next;
    }
    r.gap_bound = m / t;
    if (r.gap_bound <= o.gap_tolerance) break;
    t *= o.growth;
  }
  r.converged = centered && r.gap_bound <= o.gap_tolerance;
  r.objective = barrier.objective(r.y);
  r.max_constraint = -kInf;
  for (const QuadraticConstraint& k : constraints) r.max_constraint = std::max(r.max_constraint, k.value(r.y));
  return r;
}

}  // namespace pegsim
