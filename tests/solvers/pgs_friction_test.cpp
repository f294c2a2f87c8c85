// The friction block of PGS (pgs_friction.cpp): the exact solve of
//   min 1/2 p'Hp + r'p  over  {p >= 0, sum p <= cap}
// checked through its KKT conditions (eq. 2.21 for one contact).
#include "solvers/pgs.hpp"

#include "solvers/lcp_fixtures.hpp"

#include <gtest/gtest.h>

namespace pegsim {
namespace {

using pgs_detail::FrictionBlock;

struct Block {
  MatX H;
  VecX r;  // the velocities at p = 0
};

// One contact's friction rows [d_k; r x d_k] on a body of random inverse mass
// (and, for `two_bodies`, the opposite rows on a second one): H = G_f'M^-1G_f
// of rank 2 (directions in a plane), r = G_f' u for a random velocity u.
Block contact_block(std::mt19937& rng, int directions, bool two_bodies, bool planar = false) {
  const int dofs = two_bodies ? 12 : 6;
  MatX Minv = MatX::Zero(dofs, dofs);
  for (int b = 0; b < dofs / 6; ++b) {
    const MatX R = test::random_matrix(rng, 6, 6);
    Minv.block(6 * b, 6 * b, 6, 6) = (R * R.transpose() + MatX::Identity(6, 6)).inverse();
  }
  const Vec3 n = Vec3(test::uniform(rng, -1, 1), test::uniform(rng, -1, 1), test::uniform(rng, -1, 1)).normalized();
  const Vec3 t1 = n.unitOrthogonal(), t2 = n.cross(t1);
  const Vec3 ra(test::uniform(rng, -1, 1), test::uniform(rng, -1, 1), test::uniform(rng, -1, 1));
  const Vec3 rb(test::uniform(rng, -1, 1), test::uniform(rng, -1, 1), test::uniform(rng, -1, 1));
  MatX G(dofs, directions);
  for (int k = 0; k < directions; ++k) {
    const double angle = 2.0 * std::numbers::pi * k / directions;
    const Vec3 d = planar ? (k % 2 == 0 ? t1 : Vec3(-t1)) : Vec3(std::cos(angle) * t1 + std::sin(angle) * t2);
    G.block<3, 1>(0, k) = d;
    G.block<3, 1>(3, k) = ra.cross(d);
    if (two_bodies) {
      G.block<3, 1>(6, k) = -d;
      G.block<3, 1>(9, k) = -rb.cross(d);
    }
  }
  VecX u(dofs);
  for (int i = 0; i < dofs; ++i) u(i) = test::uniform(rng, -1.0, 1.0);
  return {G.transpose() * Minv * G, G.transpose() * u};
}

// The largest violation of the block's KKT conditions at p, with v = r + H p
// and s = max(0, -min v):  p >= 0,  cap - sum p >= 0,  v + s >= 0,
// p_k (v_k + s) = 0,  s (cap - sum p) = 0.
double kkt_violation(const Block& b, const VecX& p, double cap) {
  const VecX v = b.r + b.H * p;
  const double s = std::max(0.0, -v.minCoeff());
  const double slack = cap - p.sum();
  double worst = std::max({0.0, -p.minCoeff(), -slack, -(v.minCoeff() + s), std::abs(s * slack)});
  for (int k = 0; k < p.size(); ++k) worst = std::max(worst, std::abs(p(k) * (v(k) + s)));
  return worst;
}

TEST(PgsFrictionBlock, ContactBlocksHaveRankTwoAndAreSolvedExactly) {
  std::mt19937 rng(60);
  for (int rep = 0; rep < 300; ++rep) {
    const int directions = 3 + rep % 8;
    const Block b = contact_block(rng, directions, rep % 2 == 1);
    FrictionBlock block;
    block.reset(b.H);
    ASSERT_EQ(block.rank(), 2);
    // from zero and from a feasible start; caps that saturate and that do not
    const double cap = rep % 3 == 0 ? 1e-3 : test::uniform(rng, 0.0, 4.0);
    VecX p = VecX::Zero(directions);
    if (rep % 4 == 1) p(0) = 0.5 * cap;
    VecX v = b.r + b.H * p;
    block.solve(p, v, cap, 1e-12);
    EXPECT_LE(kkt_violation(b, p, cap), 1e-10) << "rep " << rep;
    EXPECT_LE((v - (b.r + b.H * p)).cwiseAbs().maxCoeff(), 1e-12);  // v tracks p
    EXPECT_LE((p.array() > 0.0).count(), 2);  // at most two adjacent directions carry the impulse
  }
}

TEST(PgsFrictionBlock, PlanarAndDegenerateBlocks) {
  std::mt19937 rng(61);
  for (int rep = 0; rep < 50; ++rep) {
    const Block b = contact_block(rng, 2, rep % 2 == 1, /*planar=*/true);  // +-t: rank 1
    FrictionBlock block;
    block.reset(b.H);
    ASSERT_EQ(block.rank(), 1);
    const double cap = test::uniform(rng, 0.0, 2.0);
    VecX p = VecX::Zero(2), v = b.r;
    block.solve(p, v, cap, 1e-12);
    EXPECT_LE(kkt_violation(b, p, cap), 1e-10);
  }
  // H = 0 (friction rows without moving bodies): p goes to the most negative velocity
  Block zero{MatX::Zero(4, 4), VecX::LinSpaced(4, -1.0, 2.0)};
  FrictionBlock block;
  block.reset(zero.H);
  EXPECT_EQ(block.rank(), 0);
  VecX p = VecX::Zero(4), v = zero.r;
  block.solve(p, v, 0.7, 1e-12);
  EXPECT_DOUBLE_EQ(p(0), 0.7);
  EXPECT_LE(kkt_violation(zero, p, 0.7), 1e-15);
}

TEST(PgsFrictionBlock, OtherBlocksTakeProjectedGradientSteps) {
  // full rank (not a contact's tangent plane), or r outside the range of H
  std::mt19937 rng(62);
  const MatX R = test::random_matrix(rng, 5, 5);
  Block full{R * R.transpose() + 0.5 * MatX::Identity(5, 5), VecX::LinSpaced(5, -2.0, 1.0)};
  FrictionBlock block;
  block.reset(full.H);
  EXPECT_EQ(block.rank(), 3);
  VecX p = VecX::Zero(5), v = full.r;
  for (int sweep = 0; sweep < 200; ++sweep) block.solve(p, v, 1.5, 1e-12);
  EXPECT_LE(kkt_violation(full, p, 1.5), 1e-9);

  Block off = contact_block(rng, 6, false);
  off.r(0) += 0.3;  // not in the range of H: the exact solve does not apply
  block.reset(off.H);
  ASSERT_EQ(block.rank(), 2);
  p = VecX::Zero(6);
  v = off.r;
  for (int sweep = 0; sweep < 2000; ++sweep) block.solve(p, v, 0.8, 1e-12);
  EXPECT_LE(kkt_violation(off, p, 0.8), 1e-8);
}

TEST(PgsFrictionBlock, PlaceReachesImpulsesInsideTheCone) {
  std::mt19937 rng(63);
  for (int rep = 0; rep < 100; ++rep) {
    const Block b = contact_block(rng, 4 + rep % 5, false);
    FrictionBlock block;
    block.reset(b.H);
    const double cap = test::uniform(rng, 0.1, 2.0);
    // a random feasible p: its impulse C p is reached again
    VecX p0(b.H.rows());
    for (int k = 0; k < p0.size(); ++k) p0(k) = test::uniform(rng, 0.0, 1.0);
    p0 *= test::uniform(rng, 0.0, cap) / p0.sum();
    const Vec2 P = block.C() * p0;
    VecX p;
    p.resize(p0.size());
    block.place(p, P, cap);
    EXPECT_GE(p.minCoeff(), 0.0);
    EXPECT_LE(p.sum(), cap * (1.0 + 1e-12));
    EXPECT_LE((block.C() * p - P).cwiseAbs().maxCoeff(), 1e-12 * (1.0 + P.norm()));
    // same impulse, same velocities: H p = H p0
    EXPECT_LE((b.H * (p - p0)).cwiseAbs().maxCoeff(), 1e-11);
  }
}

}  // namespace
}  // namespace pegsim
