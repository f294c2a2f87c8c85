// Clipping convex regions (geometry/clipping.hpp) and the intersection of two
// shapes with its centroid (geometry/intersection.hpp). The measure itself is
// checked against brute force in tests/analysis; here: the clipping
// primitives on exact cases, and the centroid against a Monte Carlo mean.
#include "geometry/clipping.hpp"
#include "geometry/intersection.hpp"
#include "geometry/mass_properties.hpp"

#include <gtest/gtest.h>

#include "common/sampler.hpp"

#include <cmath>

namespace pegsim {
namespace {

const std::vector<Vec2> kSquare = {Vec2(0, 0), Vec2(1, 0), Vec2(1, 1), Vec2(0, 1)};

TEST(Clipping, PolygonByALineKeepsTheInnerSideInOrder) {
  std::vector<Vec2> out;
  clip_polygon(kSquare, Vec2(1, 1), 1.0, out);  // x + y <= 1: the lower-left triangle
  ASSERT_EQ(out.size(), 3u);
  EXPECT_NEAR(polygon_area(out), 0.5, 1e-15);
  EXPECT_TRUE(polygon_centroid(out).isApprox(Vec2(1.0 / 3, 1.0 / 3), 1e-15));
  clip_polygon(kSquare, Vec2(1, 0), 0.25, out);  // x <= 0.25
  ASSERT_EQ(out.size(), 4u);
  EXPECT_NEAR(polygon_area(out), 0.25, 1e-15);
  EXPECT_TRUE(polygon_centroid(out).isApprox(Vec2(0.125, 0.5), 1e-15));
}

TEST(Clipping, PolygonOnOrBeyondTheLineIsKeptWholeOrDropped) {
  std::vector<Vec2> out;
  clip_polygon(kSquare, Vec2(1, 0), 1.0, out);  // an edge on the line, the rest inside
  EXPECT_EQ(out, kSquare);
  clip_polygon(kSquare, Vec2(-1, 0), 0.0, out);  // x >= 0: the same
  EXPECT_EQ(out, kSquare);
  clip_polygon(kSquare, Vec2(1, 0), 0.0, out);  // x <= 0: only the edge touches
  EXPECT_TRUE(out.empty());
  clip_polygon(kSquare, Vec2(1, 1), 0.0, out);  // x + y <= 0: only a corner touches
  EXPECT_TRUE(out.empty());
  clip_polygon(kSquare, Vec2(1, 1), 1e-13, out);  // within the tolerance of the corner: dropped too
  EXPECT_TRUE(out.empty());
  // a line through two corners: the two triangles, no extra vertex
  clip_polygon(kSquare, Vec2(1, -1), 0.0, out);
  ASSERT_EQ(out.size(), 3u);
  EXPECT_NEAR(polygon_area(out), 0.5, 1e-15);
}

TEST(Clipping, CubeCutThroughItsCentreKeepsHalfItsVolume) {
  const Polyhedron cube = make_cube(2.0);
  test::Sampler rng(3);
  for (int trial = 0; trial < 50; ++trial) {
    const Vec3 n = rng.direction();
    ConvexCell cell = make_cell(cube, Pose());
    cell.clip(n, 0.0);
    EXPECT_NEAR(cell.volume(), 4.0, 1e-12);
    ConvexCell other = make_cell(cube, Pose());
    other.clip(-n, 0.0);
    // the two halves' centroids are opposite, on the inner side
    EXPECT_TRUE(cell.centroid().isApprox(-other.centroid(), 1e-12));
    EXPECT_LT(n.dot(cell.centroid()), 0.0);
  }
  // along a face diagonal: through two edges, a triangular prism
  ConvexCell prism = make_cell(cube, Pose());
  prism.clip(Vec3(1, 1, 0).normalized(), 0.0);
  EXPECT_NEAR(prism.volume(), 4.0, 1e-12);
  // a corner cut off: x + y + z <= -2 leaves the tetrahedron of edge 1 at (-1, -1, -1)
  ConvexCell corner = make_cell(cube, Pose());
  corner.clip(Vec3(1, 1, 1).normalized(), -2.0 / std::sqrt(3.0));
  EXPECT_NEAR(corner.volume(), 1.0 / 6.0, 1e-12);
  EXPECT_TRUE(corner.centroid().isApprox(Vec3::Constant(-0.75), 1e-12));
}

TEST(Clipping, CellOnOrBeyondThePlaneIsKeptWholeOrDropped) {
  const Polyhedron cube = make_cube(2.0);
  ConvexCell cell = make_cell(cube, Pose());
  cell.clip(Vec3::UnitZ(), 1.0);  // top face on the plane
  EXPECT_NEAR(cell.volume(), 8.0, 1e-12);
  EXPECT_EQ(cell.faces.size(), 6u);
  cell.clip(-Vec3::UnitZ(), -1.0);  // z >= 1: only the top face touches
  EXPECT_TRUE(cell.empty());
  EXPECT_EQ(cell.volume(), 0.0);
  ConvexCell edge = make_cell(cube, Pose());
  edge.clip(Vec3(1, 1, 0).normalized(), -std::sqrt(2.0));  // only an edge touches
  EXPECT_TRUE(edge.empty());
  // every volume left after clipping closes: volume by two reference points agrees
  ConvexCell cut = make_cell(make_icosahedron(1.0), Pose());
  cut.clip(Vec3(0.3, -0.2, 0.9).normalized(), 0.1);
  cut.clip(Vec3(-0.5, 0.1, 0.2).normalized(), 0.05);
  ConvexCell shifted = cut;
  for (auto& f : shifted.faces)
    for (Vec3& p : f) p += Vec3(7, -3, 2);
  EXPECT_NEAR(cut.volume(), shifted.volume(), 1e-12);
  EXPECT_TRUE((shifted.centroid() - cut.centroid()).isApprox(Vec3(7, -3, 2), 1e-12));
}

// Centroid of the intersection against the mean of Monte Carlo points inside
// both: each coordinate of the mean of k points has standard error
// sqrt(var / k), var the sample variance of that coordinate; 5 of those.
TEST(Clipping, IntersectionCentroidMatchesMonteCarloMean) {
  test::Sampler rng(11), mc(12);
  int checked = 0;
  for (int trial = 0; trial < 60; ++trial) {
    const bool planar = trial % 2 == 1;
    Shape a, b;
    Pose pa, pb;
    if (planar) {
      a = make_rectangle(rng.uniform(0.3, 1.5), rng.uniform(0.3, 1.5));
      b = make_regular_polygon(rng.integer(3, 8), rng.uniform(0.3, 1.0));
      pa = Pose::planar(0, 0, rng.uniform(-3, 3));
      const Vec2 d = rng.in_disc(0.8);
      pb = Pose::planar(d.x(), d.y(), rng.uniform(-3, 3));
    } else {
      a = make_box(rng.vec3(0.3, 1.5));
      b = make_icosahedron(rng.uniform(0.4, 1.0));
      pa.orientation = rng.rotation();
      pb.orientation = rng.rotation();
      pb.position = rng.in_ball(0.8);
    }
    const ShapeIntersection x = intersect_shapes(a, pa, b, pb);
    if (x.measure < 0.01) continue;
    const auto inside = [](const Shape& s, const Pose& p, const Vec3& w) {
      const Vec3 y = p.to_body(w);
      if (const auto* q = std::get_if<Polyhedron>(&s)) {
        for (const PolyFace& f : q->faces)
          if (f.normal.dot(y) > f.offset) return false;
        return true;
      }
      const auto& g = std::get<Polygon>(s);
      for (int e = 0; e < g.size(); ++e)
        if (g.edge_normals[e].dot(Vec2(y.x(), y.y()) - g.vertices[e]) > 0.0) return false;
      return true;
    };
    // sample A's world bounding box, which holds the intersection
    Eigen::AlignedBox3d box;
    if (planar)
      for (const Vec2& v : std::get<Polygon>(a).vertices) box.extend(pa.to_world(lift(v)));
    else
      for (const Vec3& v : std::get<Polyhedron>(a).vertices) box.extend(pa.to_world(v));
    Vec3 sum = Vec3::Zero(), sum2 = Vec3::Zero();
    long k = 0;
    for (int s = 0; s < 20000; ++s) {
      const Vec3 u = mc.vec3(0.0, 1.0);
      Vec3 w = box.min() + u.cwiseProduct(box.sizes());
      if (planar) w.z() = 0.0;
      if (!inside(a, pa, w) || !inside(b, pb, w)) continue;
      sum += w;
      sum2 += w.cwiseProduct(w);
      ++k;
    }
    ASSERT_GT(k, 100);
    const Vec3 mean = sum / k;
    const Vec3 var = sum2 / k - mean.cwiseProduct(mean);
    for (int c = 0; c < (planar ? 2 : 3); ++c)
      EXPECT_NEAR(x.centroid(c), mean(c), 5.0 * std::sqrt(var(c) / k) + 1e-12) << trial << " coordinate " << c;
    if (planar) {
      EXPECT_EQ(x.centroid.z(), 0.0);
    }
    ++checked;
  }
  EXPECT_GT(checked, 30);
}

}  // namespace
}  // namespace pegsim
