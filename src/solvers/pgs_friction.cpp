// The friction block of a Stewart-Trinkle contact for PGS (see pgs.hpp, step 2):
//   min f(p) = 1/2 p'Hp + r'p   over   {p >= 0, sum_k p_k <= cap},  cap = mu p_n.
//
// Exact solve. H = A_ff = G_f' M^-1 G_f of one contact, with G_f columns
// [d_k; r x d_k] linear in the directions d_k of the tangent plane (eq. 2.22):
// H = C'C with C of rank <= 2 (1 in the plane, 0 without moving bodies). With
// r = C' beta (r in the range of H, true of b_f = G_f' nu* and of G_f' u):
//   f(p) = 1/2 |C p + beta|^2 - 1/2 |beta|^2,
// so q = C p is the Euclidean projection of -beta onto the polygon
//   Q = cap conv{0, c_1, ..., c_m}                       (c_k the columns of C)
// (the friction impulse that brings the tangential velocity closest to zero,
// the maximal-dissipation principle behind eq. 2.21), and any feasible p with
// C p = q is a minimizer. q inside Q (sticking): p from the fan triangle
// (0, c_i, c_j) of Q holding q; q on an edge (c_i, c_j) (sliding): p from the
// edge. Either way at most two p_k > 0, adjacent directions on Q.
// C comes from a pivoted Cholesky factorization of H, K = (CC')^-1 C gives
// beta + C p = K v from the friction velocities v; the hull of {0, c_k} is
// built once per solve (Q only scales with cap).
//
// Otherwise (rank > 2, or r with a component outside the range of H larger
// than perp_tol): kInnerSteps projected-gradient steps p <- Proj(p - v / L)
// per sweep, L from step_bound, Proj the exact Euclidean projection onto the
// capped simplex.
#include "solvers/pgs.hpp"

#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>

namespace pegsim {
namespace pgs_detail {
namespace {

constexpr double kRankTol = 1e-12;  // pivots below this times max diag(H) end the factor
constexpr int kInnerSteps = 24;     // projected-gradient steps per block and sweep
constexpr double kInnerTol = 1e-13; // they stop below this change, relative to cap

double cross(const Vec2& a, const Vec2& b) { return a.x() * b.y() - a.y() * b.x(); }

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

}  // namespace

void FrictionBlock::reset(const MatX& H) {
  H_ = H;
  lipschitz_ = -1.0;
  hull_.clear();
  point_.clear();
  const int m = static_cast<int>(H.rows());
  // pivoted Cholesky H = P'LL'P, stopped at pivots <= kRankTol max diag(H)
  MatX& S = scratch_matrix_;
  S = H;
  std::vector<int>& perm = scratch_index_;
  perm.resize(m);
  for (int i = 0; i < m; ++i) perm[i] = i;
  const double scale = m > 0 ? H.diagonal().maxCoeff() : 0.0;
  C_.setZero(2, m);
  K_.setZero(2, m);
  rank_ = 3;  // until shown to be a contact's tangent plane
  int rank = 0;
  for (; rank < m; ++rank) {
    int piv = rank;
    for (int i = rank + 1; i < m; ++i)
      if (S(i, i) > S(piv, piv)) piv = i;
    if (!(S(piv, piv) > kRankTol * scale)) break;
    if (rank == 2) return;
    S.row(rank).swap(S.row(piv));
    S.col(rank).swap(S.col(piv));
    std::swap(perm[rank], perm[piv]);
    const double d = std::sqrt(S(rank, rank));
    for (int i = rank; i < m; ++i) C_(rank, perm[i]) = S(i, rank) / d;
    for (int i = rank + 1; i < m; ++i)
      for (int j = rank + 1; j < m; ++j) S(i, j) -= S(i, rank) * S(j, rank) / S(rank, rank);
  }
  // the rest must vanish: H = C'C within kRankTol (also rejects an indefinite H)
  for (int i = rank; i < m; ++i)
    for (int j = rank; j < m; ++j)
      if (!(std::abs(S(i, j)) <= kRankTol * scale)) return;
  if (rank == 0) {
    rank_ = 0;
    return;
  }
  if (rank == 1) {  // K = c' / |c|^2; the extreme c_k on either side of 0
    K_.row(0) = C_.row(0) / C_.row(0).squaredNorm();
    lo_ = hi_ = -1;
    for (int k = 0; k < m; ++k) {
      if (C_(0, k) < (lo_ < 0 ? 0.0 : C_(0, lo_))) lo_ = k;
      if (C_(0, k) > (hi_ < 0 ? 0.0 : C_(0, hi_))) hi_ = k;
    }
    rank_ = 1;
    return;
  }
  const Eigen::Matrix2d gram = C_ * C_.transpose();
  K_.noalias() = gram.inverse() * C_;
  // convex hull of {0, c_k}, counter-clockwise (Andrew's monotone chain)
  std::vector<int>& order = scratch_index_;
  order.resize(m + 1);
  for (int k = 0; k <= m; ++k) order[k] = k - 1;
  auto pt = [&](int k) { return k < 0 ? Vec2(0.0, 0.0) : Vec2(C_(0, k), C_(1, k)); };
  std::sort(order.begin(), order.end(), [&](int a, int b) {
    const Vec2 pa = pt(a), pb = pt(b);
    return pa.x() < pb.x() || (pa.x() == pb.x() && pa.y() < pb.y());
  });
  std::vector<int>& h = hull_;
  for (int pass = 0; pass < 2; ++pass) {
    const std::size_t base = h.size();
    for (int t = 0; t <= m; ++t) {
      const int k = order[pass == 0 ? t : m - t];
      while (h.size() >= base + 2 &&
             cross(pt(h[h.size() - 1]) - pt(h[h.size() - 2]), pt(k) - pt(h[h.size() - 2])) <= 0.0)
        h.pop_back();
      h.push_back(k);
    }
    h.pop_back();  // the last point starts the other chain
  }
  if (h.size() < 3) {
    h.clear();
    return;
  }
  for (int k : hull_) point_.push_back(pt(k));
  rank_ = 2;
}

void FrictionBlock::solve(VecX& p, VecX& v, double cap, double perp_tol) {
  const int m = static_cast<int>(p.size());
  if (m == 0) return;
  if (!(cap > 0.0)) {  // C = {0}
    for (int k = 0; k < m; ++k)
      if (p(k) != 0.0) v -= p(k) * H_.col(k);
    p.setZero();
    return;
  }
  if (rank_ <= 2 && solve_exact(p, v, cap, perp_tol)) return;
  projected_gradient(p, v, cap);
}

bool FrictionBlock::solve_exact(VecX& p, VecX& v, double cap, double perp_tol) {
  const int m = static_cast<int>(p.size());
  Choice choice;
  if (rank_ == 0) {  // H = 0: f(p) = r'p, r = v
    Eigen::Index k;
    if (v.minCoeff(&k) < 0.0) choice.ka = static_cast<int>(k), choice.wa = 1.0;
  } else {
    // v = C'(beta + C p) + perp; beta from K v = beta + C p
    Vec2 beta = K_ * v;
    for (int k = 0; k < m; ++k)
      if (!(std::abs(v(k) - C_.col(k).dot(beta)) <= perp_tol)) return false;
    beta -= C_ * p;
    choice = project(-beta / cap);
  }
  // p <- the choice; v += H (p_new - p)
  dp_.setZero(m);
  if (choice.ka >= 0) dp_(choice.ka) += choice.wa * cap;
  if (choice.kb >= 0) dp_(choice.kb) += choice.wb * cap;
  for (int k = 0; k < m; ++k) {
    const double d = dp_(k) - p(k);
    if (d == 0.0) continue;
    v += d * H_.col(k);
    p(k) = dp_(k);
  }
  return true;
}

void FrictionBlock::place(VecX& p, const Vec2& P, double cap) const {
  p.setZero();
  if (!(cap > 0.0) || rank_ == 0 || rank_ > 2) return;
  const Choice choice = project(P / cap);
  if (choice.ka >= 0) p(choice.ka) += choice.wa * cap;
  if (choice.kb >= 0) p(choice.kb) += choice.wb * cap;
}

// The nearest point of conv{0, c_k} to x (rank 1 or 2), as weights on at most
// two c_k: q = wa c_ka + wb c_kb.
FrictionBlock::Choice FrictionBlock::project(const Vec2& x) const {
  Choice out;
  if (rank_ == 1) {
    const double lo = lo_ < 0 ? 0.0 : C_(0, lo_), hi = hi_ < 0 ? 0.0 : C_(0, hi_);
    const double q = std::clamp(x.x(), lo, hi);
    if (q > 0.0) out.ka = hi_, out.wa = q / hi;
    if (q < 0.0) out.ka = lo_, out.wa = q / lo;
    return out;
  }
  const int h = static_cast<int>(hull_.size());
  bool inside = true;
  for (int i = 0; i < h && inside; ++i) {
    const Vec2& a = point_[i];
    inside = cross(point_[(i + 1) % h] - a, x - a) >= 0.0;
  }
  if (inside) {  // the fan triangle (0, V_i, V_j) holding x
    double best = -std::numeric_limits<double>::infinity();
    for (int i = 0; i < h; ++i) {
      const int j = (i + 1) % h;
      const double det = cross(point_[i], point_[j]);
      if (hull_[i] < 0 || hull_[j] < 0 || !(det > 0.0)) continue;
      const double a = cross(x, point_[j]) / det, b = cross(point_[i], x) / det;
      if (std::min(a, b) > best) best = std::min(a, b), out = {hull_[i], hull_[j], a, b};
    }
    out.wa = std::max(out.wa, 0.0);
    out.wb = std::max(out.wb, 0.0);
    if (out.wa + out.wb > 1.0) {
      const double s = out.wa + out.wb;
      out.wa /= s;
      out.wb /= s;
    }
    return out;
  }
  double best = std::numeric_limits<double>::infinity();  // the nearest point of the boundary
  for (int i = 0; i < h; ++i) {
    const int j = (i + 1) % h;
    const Vec2 e = point_[j] - point_[i];
    const double t = std::clamp((x - point_[i]).dot(e) / e.squaredNorm(), 0.0, 1.0);
    const double d2 = (point_[i] + t * e - x).squaredNorm();
    if (d2 < best) best = d2, out = {hull_[i], hull_[j], 1.0 - t, t};
  }
  return out;
}

void FrictionBlock::projected_gradient(VecX& p, VecX& v, double cap) {
  if (lipschitz_ < 0.0) lipschitz_ = step_bound(H_);
  const int m = static_cast<int>(p.size());
  const double step = 1.0 / std::max(lipschitz_, 1e-300);
  for (int it = 0; it < kInnerSteps && m > 0; ++it) {
    y_ = p - step * v;
    project_onto_capped_simplex(y_, cap, scratch_);
    dp_ = y_ - p;
    const double change = dp_.cwiseAbs().maxCoeff();
    if (change == 0.0) break;
    v.noalias() += H_ * dp_;
    p = y_;
    if (change <= kInnerTol * cap) break;
  }
}

}  // namespace pgs_detail

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

}  // namespace pegsim
