#include "dynamics/convex_impulse.hpp"

#include "solvers/log_barrier.hpp"

#include <Eigen/QR>
#include <Eigen/SVD>

#include <algorithm>
#include <cmath>
#include <vector>

namespace pegsim {
namespace {

constexpr double kRankTolerance = 1e-12;  // singular values below this times the largest: zero (guide A.3)

// A basis of null(E) (columns), by the SVD.
MatX null_space(const MatX& E) {
  const int cols = static_cast<int>(E.cols());
  if (E.rows() == 0 || cols == 0) return MatX::Identity(cols, cols);
  Eigen::JacobiSVD<MatX> svd(E, Eigen::ComputeFullV);
  const VecX& s = svd.singularValues();
  const double cut = kRankTolerance * (s.size() > 0 ? s(0) : 0.0);
  int rank = 0;
  for (int k = 0; k < s.size(); ++k) rank += s(k) > cut && s(k) > 0.0;
  return svd.matrixV().rightCols(cols - rank);
}

}  // namespace

void solve_convex_impulse(const ConvexImpulseInput& in, ConvexImpulseResult& out) {
  const int n = static_cast<int>(in.mu.size());
  const int size = 3 * n;
  const double e = in.restitution;
  out = ConvexImpulseResult{};
  out.x.setZero(size);
  if (n == 0) return;
  const MatX A_N = in.A.topLeftCorner(n, n);
  const VecX b_N = in.b.head(n), b_T = in.b.tail(2 * n);
  const MatX C = in.A.topRows(n);     // [A_N B]
  const MatX D = in.A.bottomRows(2 * n);  // [B' A_T]

  // Phase 1, eq. (1): minimum-norm w- with A_N w- = -b_N, w_s = (1 + e) w-
  Eigen::JacobiSVD<MatX> svd(A_N, Eigen::ComputeThinU | Eigen::ComputeThinV);
  svd.setThreshold(kRankTolerance);
  out.w_s = (1.0 + e) * svd.solve(-b_N);
  VecX w = VecX::Zero(size);
  w.head(n) = out.w_s;
  const double w_max = out.w_s.cwiseAbs().maxCoeff();
  for (int i = 0; i < n; ++i) out.negative_normals += out.w_s(i) < -kRankTolerance * w_max;

  // Phase 2, eq. (2): x = w + R y, R a basis of null(C)
  MatX R = null_space(C);
  // contacts without friction: mu = 0, or no positive phase-1 impulse (A.9-2): x_T,i = 0
  std::vector<int> frictional;
  {
    std::vector<int> locked;
    for (int i = 0; i < n; ++i) {
      const bool positive = out.w_s(i) > kRankTolerance * w_max && out.w_s(i) > 0.0;
      if (in.mu(i) > 0.0 && positive) frictional.push_back(i);
      else locked.push_back(i);
    }
    if (!locked.empty() && R.cols() > 0) {
      MatX E(2 * locked.size(), R.cols());
      for (std::size_t k = 0; k < locked.size(); ++k) {
        E.row(2 * k) = R.row(n + 2 * locked[k]);
        E.row(2 * k + 1) = R.row(n + 2 * locked[k] + 1);
      }
      R = R * null_space(E);
    }
  }
  // g: with kappa = 1, when R_N' w_s vanishes g <= 0 means R_N y = 0 (the normals are fixed)
  const double kappa = std::max(in.normal_bound, 1.0);
  bool keep_g = false;
  if (R.cols() > 0) {
    const MatX R_N = R.topRows(n);
    const VecX q = R_N.transpose() * out.w_s;
    const double scale = R_N.norm() * out.w_s.norm();
    if (kappa == 1.0 && (q.norm() <= kRankTolerance * scale || scale == 0.0)) R = R * null_space(R_N);
    else keep_g = scale > 0.0;
  }
  out.search_dimension = static_cast<int>(R.cols());
  const VecX u_T0 = D * w + b_T;
  out.tangential_start = out.tangential = u_T0.norm();
  VecX y = VecX::Zero(R.cols());
  if (R.cols() > 0 && out.tangential_start > 0.0) {
    const MatX DR = D * R;
    const MatX U = DR.transpose() * DR;
    const VecX v = 2.0 * DR.transpose() * u_T0;  // guide A.9-3: v = 2 R'D'(D w + b_T)
    std::vector<QuadraticConstraint> constraints;
    for (int i : frictional) {
      if (std::isinf(in.mu(i))) continue;
      const double mu = in.mu(i), wi = out.w_s(i);
      const VecX a = R.row(n + 2 * i).transpose(), c = R.row(n + 2 * i + 1).transpose(), r = R.row(i).transpose();
      if (in.circular_cone) {  // f_i of l.123
        QuadraticConstraint k;
        k.H = a * a.transpose() + c * c.transpose() - mu * mu * r * r.transpose();
        k.g = -2.0 * mu * mu * wi * r;
        k.c = -mu * mu * wi * wi;
        constraints.push_back(std::move(k));
      } else {  // the four faces of the pyramid: +-x_s +-x_t - mu x_N <= 0
        for (double sa : {1.0, -1.0})
          for (double sc : {1.0, -1.0}) {
            QuadraticConstraint k;
            k.g = sa * a + sc * c - mu * r;
            k.c = -mu * wi;
            constraints.push_back(std::move(k));
          }
      }
    }
    VecX y0 = VecX::Zero(R.cols());
    if (keep_g) {
      const MatX R_N = R.topRows(n);
      QuadraticConstraint g;
      g.H = R_N.transpose() * R_N;
      g.g = 2.0 * R_N.transpose() * out.w_s;
      g.c = (1.0 - kappa * kappa) * out.w_s.squaredNorm();  // ||w_s + R_N y||^2 - kappa^2 ||w_s||^2
      constraints.push_back(g);
      // strictly feasible start: y = 0 when kappa > 1; else along -R_N' w_s from g's minimiser on that
      // line, halved until every f_i < 0
      const VecX q = kappa > 1.0 ? VecX::Zero(R.cols()) : VecX(R_N.transpose() * out.w_s);
      const double curvature = (R_N * q).squaredNorm();
      double s = curvature > 0.0 ? q.squaredNorm() / curvature : 1.0;
      for (int k = 0; k < 200; ++k, s *= 0.5) {
        y0 = -s * q;
        bool inside = true;
        for (const QuadraticConstraint& f : constraints) inside &= f.value(y0) < 0.0;
        // f_i < 0 holds on both nappes: the start must be on x_N,i > 0 (guide A.9-4)
        for (int i : frictional) inside &= out.w_s(i) + R.row(i).dot(y0) > 0.0;
        if (inside) break;
      }
    }
    if (constraints.empty()) {  // no cone, normals fixed: the unconstrained minimiser
      Eigen::CompleteOrthogonalDecomposition<MatX> cod(2.0 * U);
      y = cod.solve(-v);
    } else {
      BarrierOptions o;
      o.max_newton_steps = 100;  // per centering: impacts of a tumbling box needed more than 50
      o.gap_tolerance = 1e-12 * (1.0 + in.b.squaredNorm());
      o.t0 = static_cast<double>(constraints.size()) / std::max(u_T0.squaredNorm(), 1e-300);
      const BarrierResult r = minimize_log_barrier(U, v, constraints, y0, o);
      y = r.y;
      out.newton_steps = r.newton_steps;
      out.converged = r.converged && r.max_constraint < 0.0;
      out.gap_bound = r.gap_bound;
    }
  }
  out.x = w + R * y;

  // certificates (guide A.7)
  const VecX u_N = C * out.x + b_N;
  out.restitution_residual = (u_N + e * b_N).cwiseAbs().maxCoeff();
  out.tangential = (D * out.x + b_T).norm();
  std::vector<char> has_friction(n, 0);
  for (int i : frictional) has_friction[i] = 1;
  const double round_off = kRankTolerance * (1.0 + out.x.cwiseAbs().maxCoeff());
  for (int i = 0; i < n; ++i) {
    const double s = out.x(n + 2 * i), t = out.x(n + 2 * i + 1);
    const double friction = in.circular_cone ? std::hypot(s, t) : std::abs(s) + std::abs(t);
    if (std::isinf(in.mu(i))) continue;
    // a contact without friction (mu = 0, or a non-positive w_i: its x_N,i < 0 is counted in
    // negative_normals) violates its cone by its round-off friction beyond round-off only
    const double excess = has_friction[i] ? friction - in.mu(i) * out.x(i) : friction - round_off;
    out.cone_violation = std::max(out.cone_violation, excess);
  }
  out.normal_norm_excess = std::max(0.0, out.x.head(n).norm() - kappa * out.w_s.norm());
}

}  // namespace pegsim
