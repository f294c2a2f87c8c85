// Penetration depth by the separating axis theorem, against brute force.
#include "geometry/penetration.hpp"

#include <gtest/gtest.h>

#include "common/sampler.hpp"

#include <algorithm>
#include <cmath>

namespace pegsim {
namespace {

// The smallest projection overlap over many sampled directions: an upper bound
// of the true depth that approaches it as the sample grows. SAT's candidate
// axes contain the true minimiser, so SAT's depth can only be smaller.
double sampled_depth(const std::vector<Vec3>& a, const std::vector<Vec3>& b, test::Sampler& s, bool planar) {
  double best = std::numeric_limits<double>::infinity();
  for (int k = 0; k < 4000; ++k) {
    Vec3 d = s.direction();
    if (planar) {
      d.z() = 0.0;
      if (d.norm() < 1e-3) continue;
      d.normalize();
    }
    double alo = 1e300, ahi = -1e300, blo = 1e300, bhi = -1e300;
    for (const Vec3& p : a) alo = std::min(alo, d.dot(p)), ahi = std::max(ahi, d.dot(p));
    for (const Vec3& p : b) blo = std::min(blo, d.dot(p)), bhi = std::max(bhi, d.dot(p));
    best = std::min(best, std::min(ahi - blo, bhi - alo));
  }
  return best;
}

TEST(Penetration, BoxesOverlappingAlongAnAxisHaveThatDepth) {
  const Shape box = make_box(Vec3(1, 1, 1));
  Pose pa, pb;
  pb.position = Vec3(0.2, 0.1, 0.97);
  EXPECT_NEAR(penetration_depth(box, pa, box, pb), 0.03, 1e-12);
  pb.position = Vec3(0.2, 0.1, 1.05);
  EXPECT_NEAR(penetration_depth(box, pa, box, pb), -0.05, 1e-12);
}

TEST(Penetration, HalfSpaceDepthIsTheDeepestVertex) {
  const Shape ground = HalfSpace{Vec3::UnitZ(), 0.0};
  const Shape box = make_box(Vec3(1, 1, 1));
  Pose pg, pb;
  pb.position = Vec3(3, -2, 0.45);
  EXPECT_NEAR(penetration_depth(ground, pg, box, pb), 0.05, 1e-12);
  EXPECT_NEAR(penetration_depth(box, pb, ground, pg), 0.05, 1e-12);
}

TEST(Penetration, SatDepthIsTheMinimumOverAllDirectionsForRandomPolyhedra) {
  test::Sampler s(71);
  int overlapping = 0;
  for (int trial = 0; trial < 200; ++trial) {
    std::vector<Vec3> pts_a, pts_b;
    for (int k = 0; k < 10; ++k) pts_a.push_back(s.in_ball(0.5));
    for (int k = 0; k < 10; ++k) pts_b.push_back(s.in_ball(0.5));
    const Polyhedron a = polyhedron_from_points(pts_a), b = polyhedron_from_points(pts_b);
    Pose pa, pb;
    pa.orientation = s.rotation();
    pb.orientation = s.rotation();
    pb.position = s.in_ball(0.8);
    std::vector<Vec3> wa, wb;
    for (const Vec3& v : a.vertices) wa.push_back(pa.to_world(v));
    for (const Vec3& v : b.vertices) wb.push_back(pb.to_world(v));
    const double sat = penetration_depth(Shape(a), pa, Shape(b), pb);
    if (sat > 0.0) {
      // overlapping: never above the sampled minimum, and close to it (4000 directions)
      const double sampled = sampled_depth(wa, wb, s, false);
      EXPECT_LE(sat, sampled + 1e-12) << "trial " << trial;
      EXPECT_GT(sat, sampled - 0.05) << "trial " << trial;
      ++overlapping;
    } else {
      // separated: no point of A (random convex combinations of its vertices) lies inside B
      for (int k = 0; k < 200; ++k) {
        Vec3 p = Vec3::Zero();
        double total = 0.0;
        for (const Vec3& v : wa) {
          const double w = s.unit();
          p += w * v;
          total += w;
        }
        p /= total;
        bool inside = true;
        for (const PolyFace& f : b.faces) inside = inside && pb.rotate(f.normal).dot(p - pb.position) < f.offset;
        ASSERT_FALSE(inside) << "trial " << trial << ": SAT says separated but a point of A is inside B";
      }
    }
  }
  EXPECT_GT(overlapping, 50);
  EXPECT_LT(overlapping, 190);
}

TEST(Penetration, SatDepthIsTheMinimumOverAllDirectionsForRandomPolygons) {
  test::Sampler s(72);
  for (int trial = 0; trial < 300; ++trial) {
    std::vector<Vec2> pts_a, pts_b;
    for (int k = 0; k < 8; ++k) pts_a.push_back(s.in_disc(0.5));
    for (int k = 0; k < 8; ++k) pts_b.push_back(s.in_disc(0.5));
    const Polygon a = polygon_hull(pts_a), b = polygon_hull(pts_b);
    const Pose pa = Pose::planar(0, 0, s.uniform(-3, 3));
    const Pose pb = Pose::planar(s.uniform(-0.8, 0.8), s.uniform(-0.8, 0.8), s.uniform(-3, 3));
    std::vector<Vec3> wa, wb;
    for (const Vec2& v : a.vertices) wa.push_back(pa.to_world(lift(v)));
    for (const Vec2& v : b.vertices) wb.push_back(pb.to_world(lift(v)));
    const double sat = penetration_depth(Shape(a), pa, Shape(b), pb);
    if (sat <= 0.0) continue;  // separation is covered by the 3D test's inside check
    const double sampled = sampled_depth(wa, wb, s, true);
    EXPECT_LE(sat, sampled + 1e-12) << "trial " << trial;
    EXPECT_GT(sat, sampled - 0.01) << "trial " << trial;
  }
}


// The axis of the minimum: its depth is penetration_depth's, a_max and b_min
// are the two shapes' extents along it, and moving B by the depth along it
// separates the pair (the corrective model's contact, contact/corrective.cpp).
TEST(Penetration, AxisGivesTheDepthTheExtentsAndTheWayOut) {
  test::Sampler s(73);
  const auto extent = [](const Shape& sh, const Pose& p, const Vec3& n, bool max) {
    double e = max ? -1e300 : 1e300;
    if (const auto* q = std::get_if<Polyhedron>(&sh))
      for (const Vec3& v : q->vertices) e = max ? std::max(e, n.dot(p.to_world(v))) : std::min(e, n.dot(p.to_world(v)));
    if (const auto* q = std::get_if<Polygon>(&sh))
      for (const Vec2& v : q->vertices)
        e = max ? std::max(e, n.dot(p.to_world(lift(v)))) : std::min(e, n.dot(p.to_world(lift(v))));
    if (const auto* h = std::get_if<HalfSpace>(&sh)) {
      const Vec3 m = p.rotate(h->normal);
      e = (max ? 1.0 : -1.0) * (h->offset + m.dot(p.position));  // only along +-m
    }
    return e;
  };
  int overlapping = 0;
  for (int trial = 0; trial < 300; ++trial) {
    const int kind = trial % 4;  // polyhedra, polygons, half-space as A, half-space as B
    Shape a, b;
    Pose pa, pb;
    if (kind == 1) {
      std::vector<Vec2> pts_a, pts_b;
      for (int k = 0; k < 8; ++k) pts_a.push_back(s.in_disc(0.5));
      for (int k = 0; k < 8; ++k) pts_b.push_back(s.in_disc(0.5));
      a = polygon_hull(pts_a);
      b = polygon_hull(pts_b);
      pa = Pose::planar(0, 0, s.uniform(-3, 3));
      pb = Pose::planar(s.uniform(-0.8, 0.8), s.uniform(-0.8, 0.8), s.uniform(-3, 3));
    } else {
      std::vector<Vec3> pts_a, pts_b;
      for (int k = 0; k < 10; ++k) pts_a.push_back(s.in_ball(0.5));
      for (int k = 0; k < 10; ++k) pts_b.push_back(s.in_ball(0.5));
      a = polyhedron_from_points(pts_a);
      b = polyhedron_from_points(pts_b);
      pa.orientation = s.rotation();
      pb.orientation = s.rotation();
      pb.position = s.in_ball(0.8);
      if (kind == 2) a = HalfSpace{s.direction(), 0.1};
      if (kind == 3) b = HalfSpace{s.direction(), 0.1};
    }
    const PenetrationAxis ax = penetration_axis(a, pa, b, pb);
    EXPECT_EQ(ax.depth, penetration_depth(a, pa, b, pb)) << trial;
    EXPECT_NEAR(ax.normal.norm(), 1.0, 1e-12) << trial;
    EXPECT_NEAR(ax.a_max - ax.b_min, ax.depth, 1e-12) << trial;
    EXPECT_NEAR(ax.a_max, extent(a, pa, ax.normal, true), 1e-12) << trial;
    EXPECT_NEAR(ax.b_min, extent(b, pb, ax.normal, false), 1e-12) << trial;
    if (kind == 1) {
      EXPECT_EQ(ax.normal.z(), 0.0) << trial;
    }
    if (ax.depth <= 0.0) continue;
    ++overlapping;
    Pose out = pb;
    out.position += (ax.depth + 1e-9) * ax.normal;
    EXPECT_LT(penetration_depth(a, pa, b, out), 0.0) << trial;
  }
  EXPECT_GT(overlapping, 100);
}

}  // namespace
}  // namespace pegsim
