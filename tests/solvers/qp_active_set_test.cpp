// The active-set QP solver (solvers/qp_active_set.cpp) and the log-barrier
// method (solvers/log_barrier.hpp) the Drumwright-Shell models use.
#include "lcp_fixtures.hpp"
#include "solvers/lcp.hpp"
#include "solvers/log_barrier.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <random>

namespace pegsim {
namespace {

// A contact-like PSD LCP: A = G'M^-1 G with more rows than the bodies'
// freedoms (rank-deficient, as four corners of a face), b = G'u + d, d >= 0
// (always solvable: the bodies' velocity -u ... plus separations d).
LcpProblem contact_like(std::mt19937& rng, int rows, int dofs) {
  std::normal_distribution<double> normal(0.0, 1.0);
  std::uniform_real_distribution<double> uniform(0.0, 1.0);
  MatX G(dofs, rows);
  for (int r = 0; r < dofs; ++r)
    for (int c = 0; c < rows; ++c) G(r, c) = normal(rng);
  VecX u(dofs), d(rows);
  for (int r = 0; r < dofs; ++r) u(r) = normal(rng);
  for (int c = 0; c < rows; ++c) d(c) = uniform(rng) < 0.5 ? 0.0 : uniform(rng);
  LcpProblem p;
  p.A = G.transpose() * G;
  p.b = G.transpose() * u + d;
  return p;
}

// The QP's solution solves the LCP (its KKT conditions), and agrees with the
// modified PPM on w = A z + b (z is not unique when A is singular).
TEST(QpActiveSet, SolvesPsdLcpsAndAgreesWithPpm) {
  std::mt19937 rng(36);
  for (int trial = 0; trial < 60; ++trial) {
    const int rows = 2 + trial % 30, dofs = 1 + (trial * 7) % 12;
    const LcpProblem p = contact_like(rng, rows, dofs);
    VecX zq = VecX::Zero(rows), zp = VecX::Zero(rows);
    const SolverResult rq = make_solver("qp-active-set", {})->solve(p, zq);
    const SolverResult rp = make_solver("ppm", {})->solve(p, zp);
    ASSERT_TRUE(rq.ok()) << trial << ": " << rq.message << " compl " << rq.complementarity << " feas " << rq.feasibility
                         << " iters " << rq.iterations << " |b| " << p.b.cwiseAbs().maxCoeff() << " rows " << rows << " dofs " << dofs;
    ASSERT_TRUE(rp.ok()) << trial << ": " << rp.message;
    const double scale = 1.0 + p.b.cwiseAbs().maxCoeff();
    EXPECT_LE((p.A * (zq - zp)).cwiseAbs().maxCoeff(), 1e-7 * scale) << trial;
    EXPECT_GE(zq.minCoeff(), 0.0);
  }
}

TEST(QpActiveSet, DeclinesANonSymmetricMatrix) {
  LcpProblem p;
  p.A = MatX::Identity(2, 2);
  p.A(0, 1) = 1.0;
  p.b = -VecX::Ones(2);
  VecX z = VecX::Zero(2);
  const SolverResult r = make_solver("qp-active-set", {})->solve(p, z);
  EXPECT_EQ(r.status, SolverStatus::Unsupported);
  EXPECT_NE(r.message.find("symmetric"), std::string::npos);
}

// minimize ||y - c||^2 subject to ||y||^2 <= 1 (c outside the ball): y* = c / ||c||.
TEST(LogBarrier, ReachesItsSuboptimalityBound) {
  const VecX c = (VecX(3) << 3.0, -1.0, 2.0).finished();
  QuadraticConstraint ball;
  ball.H = MatX::Identity(3, 3);
  ball.g = VecX::Zero(3);
  ball.c = -1.0;
  BarrierOptions o;
  o.gap_tolerance = 1e-12;
  const BarrierResult r = minimize_log_barrier(MatX::Identity(3, 3), -2.0 * c, {ball}, VecX::Zero(3), o);
  ASSERT_TRUE(r.converged);
  EXPECT_LE(r.gap_bound, 1e-12);
  EXPECT_LT(r.max_constraint, 0.0);  // strictly feasible
  const double optimum = (c / c.norm()).squaredNorm() - 2.0 * c.dot(c / c.norm());
  EXPECT_GE(r.objective, optimum - 1e-12);
  EXPECT_LE(r.objective - optimum, r.gap_bound + 1e-13);  // eq. 11.13: f0 - p* <= m / t
  EXPECT_LE((r.y - c / c.norm()).norm(), 1e-5);  // within sqrt of the gap (the constraint is active)
}

TEST(LogBarrier, BrentFindsAParabolasMinimum) {
  int calls = 0;
  const double x = brent_minimize([&](double a) { ++calls; return (a - 0.3) * (a - 0.3) + 1.0; }, 0.0, 2.0, 1e-10, 100);
  EXPECT_NEAR(x, 0.3, 1e-8);
  // golden sections alone would need log(2 / 1e-10) / log(1.618) = 49 evaluations to close the bracket
  EXPECT_LT(calls, 45);
}

}  // namespace
}  // namespace pegsim
