// 2D vertex-edge contacts (thesis Algorithm 5): brute-force agreement on
// random convex polygons and sanity cases.
#include "collision/narrowphase.hpp"
#include "geometry/polygon.hpp"
#include "geometry/polyhedron.hpp"

#include <gtest/gtest.h>

#include "common/polygon_pool.hpp"
#include "common/sampler.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <map>
#include <random>
#include <tuple>
#include <utility>
#include <vector>

namespace pegsim {
namespace {

using Rng = test::Sampler;

using test::Planar;
using test::polygon_pool;
using test::world2;

double point_segment(const Vec2& a, const Vec2& b, const Vec2& p, Vec2& nearest) {
  // perpendicular foot if it lies inside, else the nearer end point
  const Vec2 d = b - a;
  const double t = d.dot(p - a) / d.squaredNorm();
  if (t >= 0.0 && t <= 1.0) {
    nearest = a + t * d;
  } else {
    nearest = (p - a).norm() <= (p - b).norm() ? a : b;
  }
  return (p - nearest).norm();
}

struct Expected2 {
  double distance, gap, applicability, feas_margin;
  Vec2 normal;
};

void brute_vertex_edge(const Polygon& E, const Planar& pe, const Polygon& V, const Planar& pv, int group,
                       const NarrowphaseParams& params, std::map<std::tuple<int, int, int>, Expected2>& out) {
  const int ne = E.size(), nv = V.size();
  for (int e = 0; e < ne; ++e) {
    const Vec2 a = world2(pe.x, pe.y, pe.th, E.vertices[e]);
    const Vec2 b = world2(pe.x, pe.y, pe.th, E.vertices[(e + 1) % ne]);
    const Vec2 eta = perp_cw(b - a).normalized();
    for (int v = 0; v < nv; ++v) {
      const Vec2 p = world2(pv.x, pv.y, pv.th, V.vertices[v]);
      Expected2 x;
      Vec2 nearest;
      x.distance = point_segment(a, b, p, nearest);
      x.gap = eta.dot(p - 0.5 * (a + b));
      x.normal = eta;
      const Vec2 prev = world2(pv.x, pv.y, pv.th, V.vertices[(v + nv - 1) % nv]);
      const Vec2 next = world2(pv.x, pv.y, pv.th, V.vertices[(v + 1) % nv]);
      x.applicability = std::min(eta.dot((prev - p).normalized()), eta.dot((next - p).normalized()));
      const Vec2 w = p - nearest + params.eps_feasible * eta;
      x.feas_margin = eta.dot(w) + std::max(0.0, -params.eps_theta) * w.norm();
      out[{group, e, v}] = x;
    }
  }
}

Planar place_near(Rng& rng, const Polygon& A, const Planar& pa, const Polygon& B, double thb, double g) {
  const double phi = rng.uniform(0, 2 * M_PI);
  const Vec2 u(std::cos(phi), std::sin(phi));
  double sa = -1e300, sb = 1e300;
  for (const Vec2& v : A.vertices) sa = std::max(sa, u.dot(world2(pa.x, pa.y, pa.th, v)));
  for (const Vec2& v : B.vertices) sb = std::min(sb, u.dot(world2(0, 0, thb, v)));
  const Vec2 t = rng.uniform(-0.3, 0.3) * perp_cw(u);
  const Vec2 p = (sa - sb + g) * u + t;
  return Planar{p.x(), p.y(), thb};
}

TEST(Narrowphase2d, MatchesBruteForceOnRandomPolygons) {
  const std::vector<Polygon> pool = polygon_pool();
  Rng rng(17);
  int matched = 0, primary = 0, band = 0;
  const int configs = 4000;
  for (int i = 0; i < configs; ++i) {
    NarrowphaseParams params;
    params.eps = (i % 3 == 0) ? 0.2 : 0.05;
    const Polygon& A = pool[static_cast<std::size_t>(rng.integer(0, static_cast<int>(pool.size()) - 1))];
    const Polygon& B = pool[static_cast<std::size_t>(rng.integer(0, static_cast<int>(pool.size()) - 1))];
    Planar pa{rng.uniform(-1, 1), rng.uniform(-1, 1), rng.uniform(-M_PI, M_PI)};
    Planar pb;
    if (i % 5 == 4) {  // lattice: parallel edges, coincident vertices
      pa.th = M_PI / 2 * rng.integer(0, 3);
      pb = Planar{pa.x + 0.125 * rng.integer(-8, 8), pa.y + 0.125 * rng.integer(-8, 8), M_PI / 2 * rng.integer(0, 3)};
    } else {
      pb = place_near(rng, A, pa, B, rng.uniform(-M_PI, M_PI), rng.uniform(-0.01, 0.08));
    }
    const Shape sa = A, sb = B;
    std::vector<Contact> found;
    find_contacts(BodyGeometry{5, &sa, pa.pose()}, BodyGeometry{2, &sb, pb.pose()}, params, found);

    std::map<std::tuple<int, int, int>, Expected2> all;
    brute_vertex_edge(A, pa, B, pb, 0, params, all);
    brute_vertex_edge(B, pb, A, pa, 1, params, all);
    std::map<std::tuple<int, int, int>, const Contact*> got;
    std::tuple<int, int, int> previous{-1, -1, -1};
    for (const Contact& c : found) {
      ASSERT_EQ(c.kind, FeatureKind::VertexEdge);
      ASSERT_TRUE((c.body_a == 5 && c.body_b == 2) || (c.body_a == 2 && c.body_b == 5));
      const std::tuple<int, int, int> k{c.body_a == 5 ? 0 : 1, c.features.feature_a, c.features.feature_b};
      ASSERT_LT(previous, k) << "order, config " << i;
      previous = k;
      got[k] = &c;
    }
    for (const auto& [k, x] : all) {
      const auto it = got.find(k);
      const bool present = it != got.end();
      if (present != (x.distance <= params.eps)) {
        ASSERT_LT(std::abs(x.distance - params.eps), 1e-9) << "config " << i;
        ++band;
        continue;
      }
      if (!present) continue;
      const Contact& c = *it->second;
      ++matched;
      primary += c.features.primary;
      EXPECT_EQ(c.normal.z(), 0.0);
      EXPECT_EQ(c.point_a.z(), 0.0);
      EXPECT_EQ(c.point_b.z(), 0.0);
      EXPECT_NEAR((c.normal.head<2>() - x.normal).norm(), 0.0, 1e-12) << "config " << i;
      EXPECT_NEAR(c.gap, x.gap, 1e-12) << "config " << i;
      EXPECT_NEAR((c.point_b - c.point_a - c.gap * c.normal).norm(), 0.0, 1e-12);
      const Polygon& V = std::get<0>(k) == 0 ? B : A;
      const Planar& pv = std::get<0>(k) == 0 ? pb : pa;
      EXPECT_NEAR((c.point_b.head<2>() - world2(pv.x, pv.y, pv.th, V.vertices[std::get<2>(k)])).norm(), 0.0, 1e-12);
      EXPECT_NEAR(c.features.applicability, x.applicability, 1e-12);
      const bool p = x.applicability >= params.eps_theta && x.feas_margin >= 0.0;
      if (std::abs(x.applicability - params.eps_theta) > 1e-9 && std::abs(x.feas_margin) > 1e-9) {
        EXPECT_EQ(c.features.primary, p) << "config " << i;
      }
    }
  }
  // the sample must exercise the comparison: most configurations have contacts
  EXPECT_GT(matched, configs / 2);
  EXPECT_GT(primary, configs / 4);
  EXPECT_GT(matched - primary, configs / 4);
  std::printf("matched %d vertex-edge contacts (%d primary), %d at the eps boundary\n", matched, primary, band);
}

TEST(Narrowphase2d, SquareRestingOnSquare) {
  const Shape lower = make_rectangle(3.0, 1.0), upper = make_rectangle(1.0, 1.0);
  NarrowphaseParams params;
  params.eps = 0.01;
  std::vector<Contact> out;
  find_contacts(BodyGeometry{0, &lower, Pose::planar(0, 0, 0)}, BodyGeometry{1, &upper, Pose::planar(0.3, 1.001, 0)},
                params, out);
  ASSERT_EQ(out.size(), 2u);
  for (const Contact& c : out) {
    EXPECT_EQ(c.body_a, 0u);
    EXPECT_NEAR((c.normal - Vec3::UnitY()).norm(), 0.0, 1e-12);
    EXPECT_NEAR(c.gap, 0.001, 1e-12);
    EXPECT_NEAR(c.point_b.y(), 0.501, 1e-12);
    EXPECT_NEAR(std::abs(c.point_b.x() - 0.3), 0.5, 1e-12);
    EXPECT_TRUE(c.features.primary);
  }
  out.clear();
  find_contacts(BodyGeometry{0, &lower, Pose::planar(0, 0, 0)}, BodyGeometry{1, &upper, Pose::planar(0.3, 1.0101, 0)},
                params, out);
  EXPECT_TRUE(out.empty());
}

TEST(Narrowphase2d, CornerNearTwoEdgesIsPrimaryOnOneOnly) {
  // Thesis Fig. 3.11: a vertex near a corner is within eps of both edges; it is
  // applicable with one of them only.
  const Shape lower = make_rectangle(1.0, 1.0);
  const Polygon tri = make_polygon({Vec2(0, 0), Vec2(0.5, 1), Vec2(-0.5, 1)});
  int apex = 0;
  for (int i = 1; i < tri.size(); ++i)
    if (tri.vertices[i].y() < tri.vertices[apex].y()) apex = i;
  const Shape upper = tri;
  NarrowphaseParams params;
  params.eps = 0.01;
  std::vector<Contact> out;
  // the triangle's apex just above and right of the square's top-right corner
  const Vec2 at = Vec2(0.503, 0.502) - tri.vertices[apex];
  find_contacts(BodyGeometry{0, &lower, Pose::planar(0, 0, 0)}, BodyGeometry{1, &upper, Pose::planar(at.x(), at.y(), 0)},
                params, out);
  int top = 0, side = 0;
  for (const Contact& c : out) {
    if (c.body_a != 0 || c.features.feature_b != apex) continue;
    if (c.normal.y() > 0.5) {
      ++top;
      EXPECT_NEAR(c.gap, 0.002, 1e-12);
      EXPECT_TRUE(c.features.primary);
    } else if (c.normal.x() > 0.5) {
      ++side;
      EXPECT_NEAR(c.gap, 0.003, 1e-12);
      EXPECT_LT(c.features.applicability, params.eps_theta);  // an edge of the apex points back along -x
      EXPECT_FALSE(c.features.primary);
    }
  }
  EXPECT_EQ(top, 1);
  EXPECT_EQ(side, 1);
}

}  // namespace
}  // namespace pegsim
