// An independent feasibility check for the solver tests: the LP
//   min t   s.t.   A z + b + t 1 >= 0,   z >= 0,   t >= 0
// (t* = 0 exactly when the LCP's feasible set {z >= 0, Az + b >= 0} is not
// empty), by a revised simplex that refactorises its basis every iteration
// (dense, for the small problems of the tests). Its dual is
//   max -b'y   s.t.   A'y <= 0,   1'y <= 1,   y >= 0,
// so at the optimum y is a Farkas certificate whenever t* > 0: A'y <= 0 and
// b'y = -t* < 0 mean y'(Az + b) < 0 for every z >= 0. The caller verifies
// both the point and the certificate on the data (nothing here is trusted).
#pragma once

#include "math/types.hpp"

#include <Eigen/LU>

#include <algorithm>
#include <vector>

namespace pegsim::test {

struct FeasibilityLp {
  VecX z;                  // the primal point (z >= 0)
  double t = 0.0;          // its uniform violation, as the simplex sees it
  VecX y;                  // the dual point (y >= 0)
  bool converged = false;  // no improving column left
};

inline FeasibilityLp solve_feasibility_lp(const MatX& A, const VecX& b) {
  const int n = static_cast<int>(b.size());
  FeasibilityLp out;
  out.z = VecX::Zero(n);
  out.y = VecX::Zero(n);
  if (n == 0 || b.minCoeff() >= 0.0) {
    out.converged = true;
    return out;
  }
  // standard form: x = [z | s | t] >= 0, E x = -b with E = [A | -I | 1], cost t
  const int m = 2 * n + 1;
  MatX E(n, m);
  E << A, -MatX::Identity(n, n), VecX::Ones(n);
  const VecX f = -b;
  VecX c = VecX::Zero(m);
  c(m - 1) = 1.0;
  // feasible start: t = -min b in the row of min b, the slacks s_i = b_i - min b elsewhere
  int r = 0;
  for (int i = 1; i < n; ++i)
    if (b(i) < b(r)) r = i;
  std::vector<int> basis(n);
  for (int i = 0; i < n; ++i) basis[i] = i == r ? m - 1 : n + i;
  const double scale = std::max(1.0, E.cwiseAbs().maxCoeff());
  MatX B(n, n);
  VecX cB(n), xB, pi;
  for (int it = 0; it < 50 * m; ++it) {
    for (int i = 0; i < n; ++i) {
      B.col(i) = E.col(basis[i]);
      cB(i) = c(basis[i]);
    }
    const Eigen::PartialPivLU<MatX> lu(B);
    xB = lu.solve(f);
    pi = lu.transpose().solve(cB);
    const VecX reduced = c - E.transpose() * pi;
    // Dantzig's rule; Bland's (first improving column) late, against cycling
    int enter = -1;
    for (int j = 0; j < m; ++j) {
      if (!(reduced(j) < -1e-12 * scale)) continue;
      if (enter < 0 || (it < 10 * m && reduced(j) < reduced(enter))) enter = j;
      if (it >= 10 * m) break;
    }
    if (enter < 0) {
      out.converged = true;
      break;
    }
    const VecX d = lu.solve(E.col(enter));
    int leave = -1;
    double best = 0.0;
    for (int i = 0; i < n; ++i) {
      if (d(i) <= 1e-11 * scale) continue;
      const double ratio = std::max(xB(i), 0.0) / d(i);
      if (leave < 0 || ratio < best || (ratio == best && d(i) > d(leave))) {
        leave = i;
        best = ratio;
      }
    }
    if (leave < 0) break;  // unbounded: impossible here (t >= 0 bounds the cost)
    basis[leave] = enter;
  }
  for (int i = 0; i < n; ++i) {
    if (basis[i] < n) out.z(basis[i]) = std::max(xB(i), 0.0);
    if (basis[i] == m - 1) out.t = std::max(xB(i), 0.0);
  }
  out.y = pi.cwiseMax(0.0);
  return out;
}

}  // namespace pegsim::test
