// Convex polygons: construction, rejection of malformed loops with messages
// naming the defect, primitives, and the monotone-chain hull.
#include "geometry/polygon.hpp"
#include "geometry/shape.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <functional>
#include <limits>
#include <numbers>
#include <random>
#include <string>

namespace pegsim {
namespace {

// std::mt19937_64 with our own uniform mapping (platform-independent draws).
struct Sampler {
  explicit Sampler(std::uint64_t seed) : rng(seed) {}
  double unit() { return static_cast<double>(rng() >> 11) * 0x1.0p-53; }
  double uniform(double lo, double hi) { return lo + (hi - lo) * unit(); }
  int integer(int lo, int hi) { return lo + static_cast<int>(rng() % static_cast<std::uint64_t>(hi - lo + 1)); }
  std::mt19937_64 rng;
};

void expect_error(const std::function<void()>& build, const std::string& needle) {
  try {
    build();
    ADD_FAILURE() << "no GeometryError; expected one mentioning \"" << needle << "\"";
  } catch (const GeometryError& e) {
    EXPECT_NE(std::string(e.what()).find(needle), std::string::npos) << "message: " << e.what();
  }
}

// Strictly convex, CCW, outward unit normals, consistent radius.
void expect_well_formed(const Polygon& p) {
  ASSERT_NO_THROW(p.validate());
  ASSERT_EQ(p.edge_normals.size(), p.vertices.size());
  double r = 0.0;
  for (int i = 0; i < p.size(); ++i) {
    const Vec2 e = p.vertices[p.next(i)] - p.vertices[i];
    EXPECT_NEAR(p.edge_normals[i].norm(), 1.0, 1e-12);
    EXPECT_NEAR(p.edge_normals[i].dot(e), 0.0, 1e-12 * e.norm());
    EXPECT_GT(cross2(e, p.vertices[p.next(p.next(i))] - p.vertices[p.next(i)]), 0.0) << "corner " << p.next(i);
    // Outward: every vertex behind every edge line.
    for (const Vec2& v : p.vertices) EXPECT_LE(p.edge_normals[i].dot(v - p.vertices[i]), 1e-12);
    r = std::max(r, p.vertices[i].norm());
  }
  EXPECT_DOUBLE_EQ(p.bounding_radius, r);
}

TEST(Polygon, UnitSquare) {
  const Polygon p = make_polygon({{0, 0}, {1, 0}, {1, 1}, {0, 1}});
  expect_well_formed(p);
  EXPECT_TRUE(p.edge_normals[0].isApprox(Vec2(0, -1)));
  EXPECT_TRUE(p.edge_normals[1].isApprox(Vec2(1, 0)));
  EXPECT_TRUE(p.edge_normals[2].isApprox(Vec2(0, 1)));
  EXPECT_TRUE(p.edge_normals[3].isApprox(Vec2(-1, 0)));
  EXPECT_DOUBLE_EQ(p.bounding_radius, std::sqrt(2.0));
  EXPECT_EQ(p.next(3), 0);
  EXPECT_EQ(p.prev(0), 3);
}

TEST(Polygon, MalformedLoopsThrow) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  expect_error([] { make_polygon({{0, 0}, {1, 0}}); }, "at least 3");
  expect_error([nan] { make_polygon({{0, 0}, {1, 0}, {nan, 1}}); }, "not finite");
  expect_error([] { make_polygon({{0, 0}, {1, 0}, {INFINITY, 1}}); }, "not finite");
  expect_error([] { make_polygon({{0, 0}, {1, 0}, {1, 0}, {1, 1}}); }, "zero-length edge");
  expect_error([] { make_polygon({{0, 0}, {1, 0}, {1, 1}, {0, 0}, {0, 1}}); }, "repeated vertex");
  expect_error([] { make_polygon({{0, 0}, {0, 1}, {1, 1}, {1, 0}}); }, "clockwise");
  expect_error([] { make_polygon({{0, 0}, {2, 0}, {2, 2}, {1, 0.5}, {0, 2}}); }, "polygon is not convex at vertex 3");
  expect_error([] { make_polygon({{0, 0}, {1, 0}, {2, 0}}); }, "collinear");
  expect_error([] { make_polygon({{0, 0}, {1, 0}, {2, 0}, {2, 1}}); }, "collinear vertices at vertex 1");
  // A pentagram: every corner turns left but the loop winds twice.
  std::vector<Vec2> star;
  for (int i = 0; i < 5; ++i) {
    const double a = 2.0 * std::numbers::pi * (2 * i) / 5.0;
    star.emplace_back(std::cos(a), std::sin(a));
  }
  expect_error([&] { make_polygon(star); }, "not simple");
  expect_error([] { make_rectangle(-1, 1); }, "positive");
  expect_error([] { make_regular_polygon(2, 1.0); }, "at least 3");
  expect_error([] { polygon_hull({{0, 0}, {1, 1}, {2, 2}, {3, 3}}); }, "collinear");
  expect_error([] { polygon_hull({{0, 0}, {1, 1}, {0, 0}}); }, "degenerate");
}

TEST(Polygon, Primitives) {
  const Polygon r = make_rectangle(2.0, 0.5);
  expect_well_formed(r);
  EXPECT_EQ(r.size(), 4);
  EXPECT_TRUE(r.vertices[0].isApprox(Vec2(-1, -0.25)));
  for (int n : {3, 4, 5, 8, 100}) {
    const Polygon p = make_regular_polygon(n, 1.5);
    SCOPED_TRACE("n = " + std::to_string(n));
    expect_well_formed(p);
    ASSERT_EQ(p.size(), n);
    const double side = 2.0 * 1.5 * std::sin(std::numbers::pi / n);
    for (int i = 0; i < n; ++i) {
      EXPECT_NEAR(p.vertices[i].norm(), 1.5, 1e-12);
      EXPECT_NEAR((p.vertices[p.next(i)] - p.vertices[i]).norm(), side, 1e-12);
    }
    EXPECT_TRUE(p.edge_normals[0].isApprox(Vec2(0, -1))) << "rests on a horizontal bottom edge";
  }
}

TEST(Polygon, Translate) {
  Polygon p = make_regular_polygon(6, 1.0);
  const Polygon before = p;
  p.translate(Vec2(2, -1));
  for (int i = 0; i < p.size(); ++i) EXPECT_TRUE(p.vertices[i].isApprox(before.vertices[i] - Vec2(2, -1)));
  expect_well_formed(p);
}

TEST(Polygon, HullOfRandomClouds) {
  Sampler rng(0x9011);
  for (int trial = 0; trial < 500; ++trial) {
    std::vector<Vec2> pts;
    const int n = 3 + rng.integer(0, 60);
    for (int i = 0; i < n; ++i) {
      if (trial % 2 == 0) pts.emplace_back(rng.uniform(-1, 1) + 5.0, rng.uniform(-1, 1));
      else pts.emplace_back(rng.integer(-3, 3), rng.integer(-3, 3));  // collinear runs, duplicates
    }
    SCOPED_TRACE("trial " + std::to_string(trial));
    Polygon h;
    try {
      h = polygon_hull(pts);
    } catch (const GeometryError& e) {
      // Only a degenerate (collinear) sample may be rejected.
      Vec2 dir = Vec2::Zero();
      for (const Vec2& p : pts)
        if (p != pts[0]) dir = p - pts[0];
      for (const Vec2& p : pts) ASSERT_EQ(cross2(dir, p - pts[0]), 0.0) << e.what();
      continue;
    }
    expect_well_formed(h);  // includes: no collinear vertices kept
    for (const Vec2& v : h.vertices) EXPECT_NE(std::find(pts.begin(), pts.end(), v), pts.end());
    for (const Vec2& p : pts)
      for (int i = 0; i < h.size(); ++i) ASSERT_LE(h.edge_normals[i].dot(p - h.vertices[i]), 1e-12);
  }
}

}  // namespace
}  // namespace pegsim
