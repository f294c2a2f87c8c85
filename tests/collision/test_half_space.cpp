// Vertex-plane contacts with half-spaces (3D) and half-planes (2D):
// brute-force agreement and sanity cases; pairs without contacts.
#include "collision/narrowphase.hpp"
#include "geometry/polygon.hpp"
#include "geometry/polyhedron.hpp"

#include <gtest/gtest.h>

#include "common/polygon_pool.hpp"
#include "common/sampler.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <random>
#include <vector>

namespace pegsim {
namespace {

using Rng = test::Sampler;

using test::Planar;
using test::polygon_pool;
using test::world2;

TEST(HalfSpace, MatchesBruteForce3d) {
  Rng rng(23);
  std::vector<Polyhedron> pool;
  for (int i = 0; i < 12; ++i) {
    std::vector<Vec3> pts;
    const int count = rng.integer(4, 16);
    for (int k = 0; k < count; ++k) pts.push_back(0.5 * Vec3(rng.uniform(-1, 1), rng.uniform(-1, 1), rng.uniform(-1, 1)));
    try {
      pool.push_back(polyhedron_from_points(pts));
    } catch (const std::exception&) {
    }
  }
  pool.push_back(make_box(Vec3(1, 2, 0.5)));
  int matched = 0;
  for (int i = 0; i < 2000; ++i) {
    const Polyhedron& P = pool[static_cast<std::size_t>(rng.integer(0, static_cast<int>(pool.size()) - 1))];
    HalfSpace hs;
    hs.normal = rng.direction();
    hs.offset = rng.uniform(-0.5, 0.5);
    Pose ph, pp;
    ph.orientation = rng.rotation();
    ph.position = Vec3(rng.uniform(-1, 1), rng.uniform(-1, 1), rng.uniform(-1, 1));
    pp.orientation = rng.rotation();
    // the polyhedron's origin near the plane
    const Vec3 n_w = ph.orientation * hs.normal;
    const Vec3 x0 = ph.orientation * (hs.offset * hs.normal) + ph.position;
    pp.position = x0 + rng.uniform(-0.3, 0.8) * n_w + Vec3(rng.uniform(-1, 1), rng.uniform(-1, 1), rng.uniform(-1, 1)).cross(n_w);
    NarrowphaseParams params;
    params.eps = 0.1;
    const Shape sh = hs, sp = P;
    for (bool swapped : {false, true}) {
      std::vector<Contact> out;
      const BodyGeometry gh{9, &sh, ph}, gp{4, &sp, pp};
      if (swapped) find_contacts(gp, gh, params, out);
      else find_contacts(gh, gp, params, out);
      std::size_t k = 0;
      for (std::size_t v = 0; v < P.vertices.size(); ++v) {
        const Vec3 p = pp.orientation * P.vertices[v] + pp.position;
        const double psi = n_w.dot(p - x0);
        if (std::abs(psi - params.eps) < 1e-9) {  // boundary: either way
          if (k < out.size() && out[k].features.feature_b == static_cast<int>(v)) ++k;
          continue;
        }
        if (psi > params.eps) continue;
        ASSERT_LT(k, out.size()) << "config " << i;
        const Contact& c = out[k++];
        ++matched;
        EXPECT_EQ(c.kind, FeatureKind::VertexPlane);
        EXPECT_EQ(c.body_a, 9u);
        EXPECT_EQ(c.body_b, 4u);
        EXPECT_EQ(c.features.feature_b, static_cast<int>(v));
        EXPECT_NEAR(c.gap, psi, 1e-12);
        EXPECT_NEAR((c.normal - n_w).norm(), 0.0, 1e-12);
        EXPECT_NEAR((c.point_b - p).norm(), 0.0, 1e-12);
        EXPECT_NEAR((c.point_a - (p - psi * n_w)).norm(), 0.0, 1e-12);
        double appl = 1e300;
        for (int j : P.vertex_neighbors[v])
          appl = std::min(appl, n_w.dot((pp.orientation * P.vertices[j] + pp.position - p).normalized()));
        EXPECT_NEAR(c.features.applicability, appl, 1e-12);
        if (std::abs(appl - params.eps_theta) > 1e-9) {
          EXPECT_EQ(c.features.primary, appl >= params.eps_theta);
        }
      }
      EXPECT_EQ(k, out.size()) << "config " << i;
    }
  }
  EXPECT_GT(matched, 4000);
}

TEST(HalfSpace, MatchesBruteForce2d) {
  const std::vector<Polygon> pool = polygon_pool();
  Rng rng(29);
  int matched = 0;
  for (int i = 0; i < 2000; ++i) {
    const Polygon& P = pool[static_cast<std::size_t>(rng.integer(0, static_cast<int>(pool.size()) - 1))];
    const double phi = rng.uniform(0, 2 * M_PI);
    HalfSpace hs;
    hs.normal = Vec3(std::cos(phi), std::sin(phi), 0.0);
    hs.offset = rng.uniform(-0.5, 0.5);
    const Planar ph{rng.uniform(-1, 1), rng.uniform(-1, 1), rng.uniform(-M_PI, M_PI)};
    const Vec2 n_w = world2(0, 0, ph.th, hs.normal.head<2>());
    const Vec2 x0 = world2(ph.x, ph.y, ph.th, hs.offset * hs.normal.head<2>());
    const Vec2 c = x0 + rng.uniform(-0.3, 0.8) * n_w + rng.uniform(-1, 1) * perp_cw(n_w);
    const Planar pp{c.x(), c.y(), rng.uniform(-M_PI, M_PI)};
    NarrowphaseParams params;
    params.eps = 0.1;
    const Shape sh = hs, sp = P;
    std::vector<Contact> out;
    find_contacts(BodyGeometry{4, &sp, pp.pose()}, BodyGeometry{1, &sh, ph.pose()}, params, out);
    std::size_t k = 0;
    for (int v = 0; v < P.size(); ++v) {
      const Vec2 p = world2(pp.x, pp.y, pp.th, P.vertices[v]);
      const double psi = n_w.dot(p - x0);
      if (std::abs(psi - params.eps) < 1e-9) {
        if (k < out.size() && out[k].features.feature_b == v) ++k;
        continue;
      }
      if (psi > params.eps) continue;
      ASSERT_LT(k, out.size());
      const Contact& ct = out[k++];
      ++matched;
      EXPECT_EQ(ct.body_a, 1u);
      EXPECT_EQ(ct.features.feature_b, v);
      EXPECT_EQ(ct.normal.z(), 0.0);
      EXPECT_NEAR((ct.normal.head<2>() - n_w).norm(), 0.0, 1e-12);
      EXPECT_NEAR(ct.gap, psi, 1e-12);
      EXPECT_NEAR((ct.point_b.head<2>() - p).norm(), 0.0, 1e-12);
      const Vec2 prev = world2(pp.x, pp.y, pp.th, P.vertices[P.prev(v)]);
      const Vec2 next = world2(pp.x, pp.y, pp.th, P.vertices[P.next(v)]);
      const double appl = std::min(n_w.dot((prev - p).normalized()), n_w.dot((next - p).normalized()));
      EXPECT_NEAR(ct.features.applicability, appl, 1e-12);
    }
    EXPECT_EQ(k, out.size());
  }
  EXPECT_GT(matched, 2000);
}

TEST(HalfSpace, CubeOnGround) {
  const Shape ground = HalfSpace{Vec3::UnitZ(), 0.0};
  const Shape cube = make_box(Vec3(1, 1, 1));
  NarrowphaseParams params;
  params.eps = 0.01;
  std::vector<Contact> out;
  Pose p;
  p.position = Vec3(0.3, 0.2, 0.501);
  find_contacts(BodyGeometry{1, &cube, p}, BodyGeometry{0, &ground, Pose{}}, params, out);
  ASSERT_EQ(out.size(), 4u);
  for (const Contact& c : out) {
    EXPECT_EQ(c.kind, FeatureKind::VertexPlane);
    EXPECT_EQ(c.body_a, 0u);
    EXPECT_EQ(c.body_b, 1u);
    EXPECT_NEAR((c.normal - Vec3::UnitZ()).norm(), 0.0, 1e-15);
    EXPECT_NEAR(c.gap, 0.001, 1e-12);
    EXPECT_NEAR(c.point_a.z(), 0.0, 1e-12);
    EXPECT_NEAR(std::abs(c.point_b.x() - 0.3), 0.5, 1e-12);
    EXPECT_NEAR(std::abs(c.point_b.y() - 0.2), 0.5, 1e-12);
    EXPECT_TRUE(c.features.primary);
  }
  out.clear();
  p.position.z() = 0.5101;
  find_contacts(BodyGeometry{1, &cube, p}, BodyGeometry{0, &ground, Pose{}}, params, out);
  EXPECT_TRUE(out.empty());
  // a raised, tilted ground plane: z <= 1 in a frame rotated 90 degrees about x
  Pose g;
  g.position = Vec3(0, 0, 2.0);
  g.orientation = Quat(Eigen::AngleAxisd(M_PI / 2, Vec3::UnitX()));  // body +y -> world +z
  const Shape raised = HalfSpace{Vec3::UnitY(), -1.0};                    // world z <= 1
  p.position.z() = 1.501;
  out.clear();
  find_contacts(BodyGeometry{0, &raised, g}, BodyGeometry{1, &cube, p}, params, out);
  ASSERT_EQ(out.size(), 4u);
  for (const Contact& c : out) {
    EXPECT_NEAR((c.normal - Vec3::UnitZ()).norm(), 0.0, 1e-12);
    EXPECT_NEAR(c.gap, 0.001, 1e-12);
  }
}

TEST(HalfSpace, SquareOnGroundLine) {
  const Shape ground = HalfSpace{Vec3::UnitY(), 0.0};
  const Shape square = make_rectangle(1.0, 1.0);
  NarrowphaseParams params;
  params.eps = 0.01;
  std::vector<Contact> out;
  find_contacts(BodyGeometry{0, &ground, Pose{}}, BodyGeometry{1, &square, Pose::planar(2.0, 0.4995, 0.0)}, params,
                out);
  ASSERT_EQ(out.size(), 2u);
  for (const Contact& c : out) {
    EXPECT_NEAR((c.normal - Vec3::UnitY()).norm(), 0.0, 1e-15);
    EXPECT_NEAR(c.gap, -0.0005, 1e-12);
    EXPECT_TRUE(c.features.primary);  // half-spaces are always feasible
  }
}

TEST(Narrowphase, UnsupportedPairsGiveNothing) {
  const Shape ground = HalfSpace{Vec3::UnitZ(), 0.0};
  const Shape cube = make_box(Vec3(1, 1, 1));
  const Shape square = make_rectangle(1.0, 1.0);
  NarrowphaseParams params;
  params.eps = 1.0;
  std::vector<Contact> out;
  find_contacts(BodyGeometry{0, &ground, Pose{}}, BodyGeometry{1, &ground, Pose{}}, params, out);
  find_contacts(BodyGeometry{0, &cube, Pose{}}, BodyGeometry{1, &square, Pose{}}, params, out);
  find_contacts(BodyGeometry{0, &square, Pose{}}, BodyGeometry{1, &cube, Pose{}}, params, out);
  // a ground plane whose normal leaves the plane never touches a planar body
  find_contacts(BodyGeometry{0, &ground, Pose{}}, BodyGeometry{1, &square, Pose{}}, params, out);
  EXPECT_TRUE(out.empty());
}

}  // namespace
}  // namespace pegsim
