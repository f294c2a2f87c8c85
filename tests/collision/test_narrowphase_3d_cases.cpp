// 3D contact determination: analytic cases (resting cubes, crossed bars,
// parallel edges) and the cost of a 10-box stack.
#include "collision/narrowphase.hpp"
#include "geometry/polyhedron.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <random>
#include <vector>

namespace pegsim {
namespace {

Pose at(const Vec3& p, const Quat& q = Quat::Identity()) {
  Pose pose;
  pose.position = p;
  pose.orientation = q;
  return pose;
}

std::vector<Contact> contacts(const Polyhedron& A, const Pose& pa, const Polyhedron& B, const Pose& pb,
                              double eps) {
  NarrowphaseParams params;
  params.eps = eps;
  const Shape sa = A, sb = B;
  std::vector<Contact> out;
  find_contacts(BodyGeometry{0, &sa, pa}, BodyGeometry{1, &sb, pb}, params, out);
  return out;
}

TEST(Narrowphase3d, CubeRestingOnCube) {
  const Polyhedron cube = make_box(Vec3(1, 1, 1));
  for (double lower_size : {1.0, 3.0}) {
    const Polyhedron lower = make_box(Vec3(lower_size, lower_size, 1));
    const std::vector<Contact> cs = contacts(lower, at(Vec3::Zero()), cube, at(Vec3(0, 0, 1.001)), 0.01);
    std::vector<Vec3> corners;
    for (const Contact& c : cs) {
      EXPECT_NEAR(c.point_b.z() - c.point_a.z(), c.gap * c.normal.z(), 1e-12);
      if (c.kind != FeatureKind::VertexFace || c.body_a != 0 || c.normal.z() < 0.5) continue;
      EXPECT_NEAR((c.normal - Vec3::UnitZ()).norm(), 0.0, 1e-12);
      EXPECT_NEAR(c.gap, 0.001, 1e-12);
      EXPECT_TRUE(c.features.primary);
      EXPECT_NEAR(c.point_b.z(), 0.501, 1e-12);
      EXPECT_NEAR(c.point_a.z(), 0.5, 1e-12);
      corners.push_back(c.point_b);
    }
    ASSERT_EQ(corners.size(), 4u) << "lower size " << lower_size;
    for (const Vec3& p : corners) {
      EXPECT_NEAR(std::abs(p.x()), 0.5, 1e-12);
      EXPECT_NEAR(std::abs(p.y()), 0.5, 1e-12);
    }
    // every contact is within eps and every primary one has a consistent normal
    for (const Contact& c : cs) {
      EXPECT_LE(std::abs(c.gap), 0.01);
      // primary contacts push the cubes apart vertically (lower onto upper: +z)
      const Vec3 lower_to_upper = c.body_a == 0 ? c.normal : Vec3(-c.normal);
      if (c.features.primary) {
        EXPECT_NEAR(lower_to_upper.z(), 1.0, 1e-12);
      }
    }
    // separated by more than eps: nothing
    EXPECT_TRUE(contacts(lower, at(Vec3::Zero()), cube, at(Vec3(0, 0, 1.0101)), 0.01).empty());
  }
  // on the larger cube only the four corners are near: exactly 4 contacts
  const std::vector<Contact> cs = contacts(make_box(Vec3(3, 3, 1)), at(Vec3::Zero()), cube,
                                           at(Vec3(0.2, -0.1, 1.001)), 0.01);
  EXPECT_EQ(cs.size(), 4u);
}

TEST(Narrowphase3d, CubeSlightlyPenetratingIsSecondaryBeyondEpsFeasible) {
  // thesis 3.3: inside the facet's Voronoi prism, feasible iff psi >= -eps_feasible
  const Polyhedron cube = make_box(Vec3(1, 1, 1));
  const Polyhedron slab = make_box(Vec3(3, 3, 1));
  NarrowphaseParams params;
  params.eps = 0.01;
  params.eps_feasible = 1e-4;
  const Shape sa = slab, sb = cube;
  for (double depth : {0.5e-4, 2e-4}) {
    std::vector<Contact> out;
    find_contacts(BodyGeometry{0, &sa, at(Vec3::Zero())}, BodyGeometry{1, &sb, at(Vec3(0, 0, 1.0 - depth))},
                  params, out);
    ASSERT_EQ(out.size(), 4u);
    for (const Contact& c : out) {
      EXPECT_NEAR(c.gap, -depth, 1e-12);
      EXPECT_EQ(c.features.primary, depth < params.eps_feasible);
    }
  }
}

TEST(Narrowphase3d, CrossedBoxesEdgeEdge) {
  // A: a bar along x turned 45 degrees about x, so its top is an edge along x at
  // height h0 = 0.1 sqrt(2). B: a bar along y turned 45 degrees about y (and
  // spun about z by 30 degrees), its lowest edge at height z_b - h0.
  const Polyhedron bar_x = make_box(Vec3(2.0, 0.2, 0.2));
  const Polyhedron bar_y = make_box(Vec3(0.2, 2.0, 0.2));
  const double h0 = 0.1 * std::sqrt(2.0);
  const double gap = 0.002;
  const Pose pa = at(Vec3(0.1, -0.2, 0), Quat(Eigen::AngleAxisd(M_PI / 4, Vec3::UnitX())));
  const Pose pb = at(Vec3(0.1, -0.2, 2 * h0 + gap), Quat(Eigen::AngleAxisd(M_PI / 6, Vec3::UnitZ())) *
                                                        Quat(Eigen::AngleAxisd(M_PI / 4, Vec3::UnitY())));
  for (bool swapped : {false, true}) {
    const std::vector<Contact> cs =
        swapped ? contacts(bar_y, pb, bar_x, pa, 0.01) : contacts(bar_x, pa, bar_y, pb, 0.01);
    int edge_edge = 0;
    for (const Contact& c : cs) {
      if (c.kind != FeatureKind::EdgeEdge) continue;
      ++edge_edge;
      EXPECT_EQ(c.body_a, 0u);  // edge-edge: A is the first argument
      EXPECT_NEAR((c.normal - (swapped ? -1.0 : 1.0) * Vec3::UnitZ()).norm(), 0.0, 1e-12);
      EXPECT_NEAR(c.gap, gap, 1e-12);
      const Vec3 lower(0.1, -0.2, h0), upper(0.1, -0.2, h0 + gap);
      EXPECT_NEAR((c.point_a - (swapped ? upper : lower)).norm(), 0.0, 1e-12);
      EXPECT_NEAR((c.point_b - (swapped ? lower : upper)).norm(), 0.0, 1e-12);
      // both edges' facets make 45 degrees with the normal: APPL = sin(45)
      EXPECT_NEAR(c.features.applicability, std::sqrt(0.5), 1e-12);
      EXPECT_TRUE(c.features.primary);
    }
    EXPECT_EQ(edge_edge, 1);
    // the only other contacts would be vertex-face, and there are no vertices nearby
    EXPECT_EQ(cs.size(), 1u);
  }
  // penetrating by 0.001: same normal, negative gap, secondary (psi < -eps_feasible)
  Pose deep = pb;
  deep.position.z() -= 0.003;
  const std::vector<Contact> cs = contacts(bar_x, pa, bar_y, deep, 0.01);
  ASSERT_EQ(cs.size(), 1u);
  EXPECT_NEAR(cs[0].gap, -0.001, 1e-12);
  EXPECT_NEAR(cs[0].normal.z(), 1.0, 1e-12);
  EXPECT_FALSE(cs[0].features.primary);
  // separated by more than eps: nothing
  Pose far = pb;
  far.position.z() += 0.0081;
  EXPECT_TRUE(contacts(bar_x, pa, bar_y, far, 0.01).empty());
}

TEST(Narrowphase3d, ParallelEdgesGiveNoEdgeEdgeContact) {
  // Two cubes side by side along x, touching along a whole facet: many edge
  // pairs are parallel (skipped, eq. 3.6); the facet's vertex-face contacts
  // carry the constraint.
  const Polyhedron cube = make_box(Vec3(1, 1, 1));
  const std::vector<Contact> cs = contacts(cube, at(Vec3::Zero()), cube, at(Vec3(1.001, 0, 0)), 0.01);
  int edge_edge = 0;
  for (const Contact& c : cs) {
    if (c.kind != FeatureKind::EdgeEdge) continue;
    ++edge_edge;
    const PolyEdge& ea = cube.edges[static_cast<std::size_t>(c.features.feature_a)];
    const PolyEdge& eb = cube.edges[static_cast<std::size_t>(c.features.feature_b)];
    const Vec3 da = cube.vertices[ea.head] - cube.vertices[ea.tail];
    const Vec3 db = cube.vertices[eb.head] - cube.vertices[eb.tail];
    EXPECT_GT(da.cross(db).norm(), 0.5);  // cube edges: parallel or perpendicular
    EXPECT_LE(std::abs(c.gap), 0.001 + 1e-12);
    if (c.features.primary) {
      EXPECT_NEAR(c.normal.x(), 1.0, 1e-12);  // from A onto B
    }
  }
  EXPECT_GT(edge_edge, 0);  // perpendicular edges meeting at the facets' corners
  int facet_contacts = 0;
  for (const Contact& c : cs)
    if (c.kind == FeatureKind::VertexFace && std::abs(c.normal.x()) > 0.5) {
      ++facet_contacts;
      EXPECT_NEAR(c.gap, 0.001, 1e-12);
      EXPECT_NEAR(c.normal.x(), c.body_a == 0 ? 1.0 : -1.0, 1e-12);
      EXPECT_TRUE(c.features.primary);
    }
  EXPECT_EQ(facet_contacts, 8);  // 4 corners each way
}

}  // namespace
}  // namespace pegsim
