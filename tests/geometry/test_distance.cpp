// Distance primitives against brute force over random configurations.
//
// Each primitive is checked three ways:
//  1. its point(s) lie on the feature(s) it reports (parameters in range, the
//     point reconstructs from the parameters);
//  2. its distance is no larger than a dense brute-force minimum (+ tiny tol);
//  3. it satisfies the first-order optimality (KKT) conditions of the convex
//     minimisation, which make it a global minimiser, not just a good sample.
// Half of the configurations come from a small integer lattice so that
// parallel, collinear, coincident, touching and zero-length cases occur often.
#include "geometry/distance.hpp"

#include <gtest/gtest.h>

#include "common/sampler.hpp"

#include <algorithm>
#include <cmath>
#include <iomanip>
#include <limits>
#include <cstdint>
#include <random>

namespace pegsim {
namespace {

using Sampler = test::Sampler;

constexpr double kTol = 1e-9;

// Minimum over t in [0, 1] of |a + t (b - a) - c|: grid then ternary search
// (the squared distance is convex in t).
template <class V>
double brute_point_segment(const V& a, const V& b, const V& c) {
  auto f = [&](double t) { return (a + t * (b - a) - c).norm(); };
  const int n = 2000;
  int best = 0;
  for (int i = 1; i <= n; ++i)
    if (f(double(i) / n) < f(double(best) / n)) best = i;
  double lo = std::max(0.0, double(best - 1) / n), hi = std::min(1.0, double(best + 1) / n);
  for (int it = 0; it < 100; ++it) {
    const double m1 = lo + (hi - lo) / 3, m2 = hi - (hi - lo) / 3;
    if (f(m1) < f(m2)) hi = m2; else lo = m1;
  }
  return std::min(f(double(best) / n), f(0.5 * (lo + hi)));
}

TEST(Distance, PointSegment3DMatchesBruteForce) {
  Sampler rng(0x5e9a11);
  for (int k = 0; k < 4000; ++k) {
    const bool lattice = k % 2 == 0;
    const Vec3 a = lattice ? rng.lattice3(-2, 2) : rng.vec3(-1, 1);
    const Vec3 b = lattice ? rng.lattice3(-2, 2) : rng.vec3(-1, 1);
    const Vec3 c = lattice ? rng.lattice3(-3, 3) : rng.vec3(-2, 2);
    double t = -1.0;
    const Vec3 d = closest_point_on_segment(a, b, c, &t);
    ASSERT_GE(t, 0.0);
    ASSERT_LE(t, 1.0);
    ASSERT_LE((d - (a + t * (b - a))).norm(), kTol) << "point does not match its parameter";
    ASSERT_LE((c - d).norm(), brute_point_segment(a, b, c) + kTol) << "case " << k;
    // Variational inequality: (c - d) . (y - d) <= 0 for both end points y.
    ASSERT_LE((c - d).dot(a - d), kTol);
    ASSERT_LE((c - d).dot(b - d), kTol);
  }
}

TEST(Distance, PointSegment2DMatchesBruteForce) {
  Sampler rng(0x2d2d);
  for (int k = 0; k < 4000; ++k) {
    const Vec2 a = rng.vec2(-1, 1), c = rng.vec2(-2, 2);
    const Vec2 b = k % 5 == 0 ? a : rng.vec2(-1, 1);  // some zero-length segments
    double t = -1.0;
    const Vec2 d = closest_point_on_segment(a, b, c, &t);
    ASSERT_GE(t, 0.0);
    ASSERT_LE(t, 1.0);
    ASSERT_LE((d - (a + t * (b - a))).norm(), kTol);
    ASSERT_LE((c - d).norm(), brute_point_segment(a, b, c) + kTol) << "case " << k;
  }
}

TEST(Distance, PointSegmentEndsAndInterior) {
  const Vec3 a(0, 0, 0), b(2, 0, 0);
  double t = -1;
  EXPECT_EQ(closest_point_on_segment(a, b, Vec3(-1, 1, 0), &t), a);
  EXPECT_EQ(t, 0.0);
  EXPECT_EQ(closest_point_on_segment(a, b, Vec3(3, 1, 0), &t), b);
  EXPECT_EQ(t, 1.0);
  EXPECT_TRUE(closest_point_on_segment(a, b, Vec3(0.5, 1, 7), &t).isApprox(Vec3(0.5, 0, 0)));
  EXPECT_DOUBLE_EQ(t, 0.25);
  EXPECT_EQ(closest_point_on_segment(a, a, Vec3(1, 1, 1), &t), a);  // degenerate
  EXPECT_EQ(t, 0.0);
}

// Barycentric coordinates (u, v, w) of x w.r.t. (a, b, c) by least squares,
// plus the distance of x from the triangle's plane.
Vec3 barycentric(const Vec3& a, const Vec3& b, const Vec3& c, const Vec3& x, double* off_plane) {
  Eigen::Matrix<double, 3, 2> m;
  m << b - a, c - a;
  const Vec2 vw = m.colPivHouseholderQr().solve(x - a);
  *off_plane = (a + m * vw - x).norm();
  return Vec3(1.0 - vw.sum(), vw.x(), vw.y());
}

TEST(Distance, PointTriangleMatchesBruteForce) {
  Sampler rng(0x7a1a);
  const int n = 150;  // grid resolution in barycentric coordinates
  for (int k = 0; k < 2000; ++k) {
    const bool lattice = k % 2 == 0;
    const Vec3 a = lattice ? rng.lattice3(-2, 2) : rng.vec3(-1, 1);
    const Vec3 b = lattice ? rng.lattice3(-2, 2) : rng.vec3(-1, 1);
    const Vec3 c = lattice ? rng.lattice3(-2, 2) : rng.vec3(-1, 1);
    // Many query points near the plane, where the region walk matters most.
    Vec3 p = lattice ? rng.lattice3(-3, 3) : rng.vec3(-2, 2);
    if (k % 3 == 0) p = (rng.unit() * a + rng.unit() * b + rng.unit() * c) / 1.5;
    const Vec3 x = closest_point_on_triangle(a, b, c, p);
    ASSERT_TRUE(x.allFinite()) << "case " << k;

    double brute = std::numeric_limits<double>::infinity();
    for (int i = 0; i <= n; ++i)
      for (int j = 0; i + j <= n; ++j)
        brute = std::min(brute, (a + (double(i) / n) * (b - a) + (double(j) / n) * (c - a) - p).norm());
    const double scale = 1.0 + (b - a).norm() + (c - a).norm();
    ASSERT_LE((x - p).norm(), brute + kTol * scale) << "case " << k;
    // Variational inequality over the three vertices (convexity => global).
    for (const Vec3* y : {&a, &b, &c}) ASSERT_LE((p - x).dot(*y - x), kTol * scale * scale) << "case " << k;

    // The point lies on the triangle.
    const bool degenerate = (b - a).cross(c - a).norm() < 1e-9;
    if (!degenerate) {
      double off = 0;
      const Vec3 bc = barycentric(a, b, c, x, &off);
      ASSERT_LE(off, kTol * scale);
      ASSERT_GE(bc.minCoeff(), -kTol * scale) << "case " << k;
    } else {
      const double to_edges = std::min({(closest_point_on_segment(a, b, x) - x).norm(),
                                        (closest_point_on_segment(b, c, x) - x).norm(),
                                        (closest_point_on_segment(c, a, x) - x).norm()});
      ASSERT_LE(to_edges, kTol * scale);
    }
  }
}

TEST(Distance, PointTriangleRegions) {
  const Vec3 a(0, 0, 0), b(1, 0, 0), c(0, 1, 0);
  EXPECT_TRUE(closest_point_on_triangle(a, b, c, Vec3(0.2, 0.2, 3)).isApprox(Vec3(0.2, 0.2, 0)));  // face
  EXPECT_EQ(closest_point_on_triangle(a, b, c, Vec3(-1, -1, 1)), a);                               // vertex a
  EXPECT_EQ(closest_point_on_triangle(a, b, c, Vec3(2, -0.5, 0)), b);                              // vertex b
  EXPECT_EQ(closest_point_on_triangle(a, b, c, Vec3(-0.5, 2, 0)), c);                              // vertex c
  EXPECT_TRUE(closest_point_on_triangle(a, b, c, Vec3(0.5, -1, 0)).isApprox(Vec3(0.5, 0, 0)));   // edge ab
  EXPECT_TRUE(closest_point_on_triangle(a, b, c, Vec3(-1, 0.5, 0)).isApprox(Vec3(0, 0.5, 0)));   // edge ac
  EXPECT_TRUE(closest_point_on_triangle(a, b, c, Vec3(1, 1, 0)).isApprox(Vec3(0.5, 0.5, 0)));    // edge bc
  // Degenerate (collinear) triangle: nearest point of its edges.
  EXPECT_TRUE(closest_point_on_triangle(a, b, Vec3(2, 0, 0), Vec3(1.5, 1, 0)).isApprox(Vec3(1.5, 0, 0)));
}

TEST(Distance, SegmentSegmentMatchesBruteForceAndKKT) {
  Sampler rng(0x5e65e6);
  const int n = 200;  // 201 x 201 parameter grid
  for (int k = 0; k < 3000; ++k) {
    Vec3 p1, q1, p2, q2;
    switch (k % 4) {
      case 0:  // general position
        p1 = rng.vec3(-1, 1), q1 = rng.vec3(-1, 1), p2 = rng.vec3(-1, 1), q2 = rng.vec3(-1, 1);
        break;
      case 1:  // lattice: exact parallels, intersections, zero lengths
        p1 = rng.lattice3(-2, 2), q1 = rng.lattice3(-2, 2), p2 = rng.lattice3(-2, 2), q2 = rng.lattice3(-2, 2);
        break;
      case 2: {  // parallel (possibly overlapping, possibly reversed)
        const Vec3 d = rng.vec3(-1, 1);
        p1 = rng.vec3(-1, 1), q1 = p1 + d;
        p2 = p1 + rng.uniform(-1.5, 1.5) * d + 0.3 * rng.vec3(-1, 1);
        q2 = p2 + rng.uniform(-1.5, 1.5) * d;
        break;
      }
      default: {  // nearly parallel
        const Vec3 d = rng.vec3(-1, 1);
        p1 = rng.vec3(-1, 1), q1 = p1 + d;
        p2 = p1 + 0.2 * rng.vec3(-1, 1), q2 = p2 + d + std::pow(10.0, -rng.uniform(2, 9)) * rng.vec3(-1, 1);
        break;
      }
    }
    const SegmentPair r = closest_points_segments(p1, q1, p2, q2);
    const Vec3 d1 = q1 - p1, d2 = q2 - p2;
    const double scale = 1.0 + d1.norm() + d2.norm() + (p1 - p2).norm();
    ASSERT_TRUE(r.c1.allFinite() && r.c2.allFinite()) << "case " << k;
    ASSERT_GE(r.s, 0.0);
    ASSERT_LE(r.s, 1.0);
    ASSERT_GE(r.t, 0.0);
    ASSERT_LE(r.t, 1.0);
    ASSERT_LE((r.c1 - (p1 + r.s * d1)).norm(), kTol * scale);
    ASSERT_LE((r.c2 - (p2 + r.t * d2)).norm(), kTol * scale);
    ASSERT_NEAR(r.distance, (r.c1 - r.c2).norm(), 1e-12 * scale);

    double brute = std::numeric_limits<double>::infinity();
    for (int i = 0; i <= n; ++i) {
      const Vec3 x = p1 + (double(i) / n) * d1;
      for (int j = 0; j <= n; ++j) brute = std::min(brute, (x - p2 - (double(j) / n) * d2).norm());
    }
    ASSERT_LE(r.distance, brute + kTol * scale) << "case " << k;

    // The exact minimum is attained either at an end point against the other
    // segment or at the lines' interior critical point: the smallest of these
    // candidates bounds the true minimum from above, sharply.
    double candidates = std::min({(closest_point_on_segment(p2, q2, p1) - p1).norm(),
                                  (closest_point_on_segment(p2, q2, q1) - q1).norm(),
                                  (closest_point_on_segment(p1, q1, p2) - p2).norm(),
                                  (closest_point_on_segment(p1, q1, q2) - q2).norm()});
    Eigen::Matrix<double, 3, 2> m;
    m << d1, -d2;
    const Vec2 st = m.colPivHouseholderQr().solve(p2 - p1);
    if (st.allFinite() && st.minCoeff() > 0.0 && st.maxCoeff() < 1.0)
      candidates = std::min(candidates, (p1 + st.x() * d1 - p2 - st.y() * d2).norm());
    ASSERT_LE(r.distance, candidates + 1e-12 * scale) << "case " << k << std::setprecision(17) << " " << r.distance << " " << candidates << " s " << r.s << " t " << r.t << " st " << st.transpose();

    // KKT of min |c1 - c2|^2 over the box [0,1]^2: the projected gradient
    // vanishes (interior) or points out of the box (bound active). Skipped for
    // nearly parallel pairs, whose valley is so flat that the gradient there
    // says nothing about the distance (covered by the candidate bound above).
    const double sin2 = d1.cross(d2).squaredNorm() / (d1.squaredNorm() * d2.squaredNorm());
    if (!(sin2 > 1e-8)) continue;
    const Vec3 w = r.c1 - r.c2;
    const double gs = d1.dot(w), gt = -d2.dot(w);
    const double tol = 1e-9 * scale * scale;
    if (r.s > 0.0 && r.s < 1.0) {
      ASSERT_NEAR(gs, 0.0, tol) << "case " << k;
    }
    if (r.s == 0.0) {
      ASSERT_GE(gs, -tol) << "case " << k;
    }
    if (r.s == 1.0) {
      ASSERT_LE(gs, tol) << "case " << k;
    }
    if (r.t > 0.0 && r.t < 1.0) {
      ASSERT_NEAR(gt, 0.0, tol) << "case " << k;
    }
    if (r.t == 0.0) {
      ASSERT_GE(gt, -tol) << "case " << k;
    }
    if (r.t == 1.0) {
      ASSERT_LE(gt, tol) << "case " << k;
    }
  }
}

TEST(Distance, SegmentSegmentSpecialCases) {
  // Crossing segments: distance 0 at the crossing.
  SegmentPair r = closest_points_segments(Vec3(-1, 0, 0), Vec3(1, 0, 0), Vec3(0, -1, 0), Vec3(0, 1, 0));
  EXPECT_NEAR(r.distance, 0.0, 1e-15);
  EXPECT_NEAR(r.s, 0.5, 1e-15);
  EXPECT_NEAR(r.t, 0.5, 1e-15);
  // Skew: unit gap along z.
  r = closest_points_segments(Vec3(-1, 0, 0), Vec3(1, 0, 0), Vec3(0, -1, 1), Vec3(0, 1, 1));
  EXPECT_NEAR(r.distance, 1.0, 1e-15);
  // Both points.
  r = closest_points_segments(Vec3(0, 0, 0), Vec3(0, 0, 0), Vec3(3, 4, 0), Vec3(3, 4, 0));
  EXPECT_DOUBLE_EQ(r.distance, 5.0);
  // Segment 1 a point, segment 2 a point (the thesis listing divides by e = 0 here).
  r = closest_points_segments(Vec3(-1, 0, 0), Vec3(1, 0, 0), Vec3(0.5, 2, 0), Vec3(0.5, 2, 0));
  EXPECT_NEAR(r.s, 0.75, 1e-15);
  EXPECT_NEAR(r.distance, 2.0, 1e-15);
  r = closest_points_segments(Vec3(0.5, 2, 0), Vec3(0.5, 2, 0), Vec3(-1, 0, 0), Vec3(1, 0, 0));
  EXPECT_NEAR(r.t, 0.75, 1e-15);
  // Parallel, overlapping: distance is the line gap.
  r = closest_points_segments(Vec3(0, 0, 0), Vec3(2, 0, 0), Vec3(1, 1, 0), Vec3(3, 1, 0));
  EXPECT_NEAR(r.distance, 1.0, 1e-15);
  // Parallel, disjoint, reversed direction: end to end.
  r = closest_points_segments(Vec3(0, 0, 0), Vec3(1, 0, 0), Vec3(4, 1, 0), Vec3(2, 1, 0));
  EXPECT_NEAR(r.distance, std::sqrt(2.0), 1e-15);
  EXPECT_EQ(r.c1, Vec3(1, 0, 0));
  EXPECT_EQ(r.c2, Vec3(2, 1, 0));
  // Collinear, disjoint.
  r = closest_points_segments(Vec3(0, 0, 0), Vec3(1, 0, 0), Vec3(3, 0, 0), Vec3(5, 0, 0));
  EXPECT_NEAR(r.distance, 2.0, 1e-15);
}

}  // namespace
}  // namespace pegsim
