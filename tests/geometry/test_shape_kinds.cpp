// The shape-kind registry (geometry/shape.hpp, shape_kind.hpp): one name per
// kind, the dimensions, the support mapping against brute force over the
// vertices, world boxes against the vertices at a pose, and the pair tables'
// completeness (geometry/shape_pairs.hpp).
#include "geometry/shape.hpp"
#include "geometry/curved_pairs.hpp"
#include "geometry/shape_pairs.hpp"

#include <gtest/gtest.h>

#include "common/sampler.hpp"

#include <algorithm>
#include <limits>
#include <set>
#include <string>

namespace pegsim {
namespace {

TEST(ShapeKinds, NamedOnceAndFound) {
  std::set<std::string> names;
  for (std::size_t i = 0; i < kShapeKindCount; ++i) {
    EXPECT_TRUE(names.insert(kShapeKinds[i].name).second) << kShapeKinds[i].name;
    EXPECT_EQ(find_shape_kind(kShapeKinds[i].name), i);
  }
  EXPECT_FALSE(find_shape_kind("ball").has_value());
  EXPECT_EQ(find_shape_kind("sphere"), kind_index<Sphere>);
  EXPECT_STREQ(shape_kind_name(Shape(make_cube(1.0))), "polyhedron");
  EXPECT_STREQ(shape_kind_name(Shape(make_rectangle(1.0, 2.0))), "polygon");
  EXPECT_STREQ(shape_kind_name(Shape(HalfSpace{})), "half_space");
  EXPECT_STREQ(shape_kind_name(Shape(make_compound({make_cube(1.0)}))), "compound");
  EXPECT_EQ(kind_index<HalfSpace>, kind_of(Shape(HalfSpace{})));
  EXPECT_EQ(shape_kind_names(Dimension::Spatial), "polyhedron, half_space, compound, sphere, capsule, cylinder, cone");
  EXPECT_EQ(shape_kind_names(Dimension::Planar), "polygon, half_space, compound, disc, capsule_2d");
}

// The farthest vertex by brute force: the support point's reach must equal it
// exactly, and the point must be a vertex.
template <class Points>
double brute_reach(const Points& vertices, const Vec3& d) {
  double best = -std::numeric_limits<double>::infinity();
  for (const auto& v : vertices) {
    Vec3 p = Vec3::Zero();
    p.head(v.size()) = v;
    best = std::max(best, d.dot(p));
  }
  return best;
}

TEST(ShapeKinds, SupportIsTheFarthestVertex) {
  test::Sampler rng(7);
  const Shape solids[] = {make_box(Vec3(1, 2, 3)), make_icosahedron(1.5), make_prism(7, 1.0, 0.5),
                          polyhedron_from_points({Vec3(0, 0, 0), Vec3(2, 0, 0), Vec3(0, 3, 0), Vec3(0, 0, 1),
                                                  Vec3(1, 1, 1)})};
  const Shape laminae[] = {make_rectangle(2.0, 1.0), make_regular_polygon(9, 1.3),
                           make_polygon({Vec2(0, 0), Vec2(3, 0), Vec2(0, 1)})};
  for (int trial = 0; trial < 200; ++trial) {
    const Vec3 d = rng.direction();
    for (const Shape& s : solids) {
      const Polyhedron& p = std::get<Polyhedron>(s);
      const Vec3 x = support(s, d);
      EXPECT_EQ(d.dot(x), brute_reach(p.vertices, d));
      EXPECT_NE(std::find(p.vertices.begin(), p.vertices.end(), x), p.vertices.end());
    }
    for (const Shape& s : laminae) {
      const Polygon& p = std::get<Polygon>(s);
      const Vec3 x = support(s, d);
      const Vec3 flat(d.x(), d.y(), 0.0);
      EXPECT_EQ(flat.dot(x), brute_reach(p.vertices, flat));
      EXPECT_EQ(x.z(), 0.0);
    }
  }
  EXPECT_THROW(support(Shape(HalfSpace{}), Vec3::UnitX()), GeometryError);
}

TEST(ShapeKinds, CompoundSupportIsItsPartsFarthest) {
  test::Sampler rng(11);
  Polyhedron left = make_box(Vec3(2, 1, 1)), right = make_tetrahedron(1.5);
  right.translate(Vec3(-1.2, 0.3, 0.0));
  const Shape c = make_compound({left, right});
  std::vector<Vec3> all = left.vertices;
  all.insert(all.end(), right.vertices.begin(), right.vertices.end());
  for (int trial = 0; trial < 200; ++trial) {
    const Vec3 d = rng.direction();
    EXPECT_EQ(d.dot(support(c, d)), brute_reach(all, d));
  }
}

TEST(ShapeKinds, WorldBoxHoldsTheVerticesAtThePose) {
  test::Sampler rng(3);
  const Shape s = make_dodecahedron(0.7);
  for (int trial = 0; trial < 50; ++trial) {
    Pose pose;
    pose.position = rng.vec3(-5, 5);
    pose.orientation = rng.rotation();
    const Aabb box = world_bounds(s, pose);
    Vec3 lo = Vec3::Constant(std::numeric_limits<double>::infinity()), hi = -lo;
    for (const Vec3& v : std::get<Polyhedron>(s).vertices) {
      lo = lo.cwiseMin(pose.to_world(v));
      hi = hi.cwiseMax(pose.to_world(v));
    }
    EXPECT_LT((box.lo - lo).cwiseAbs().maxCoeff(), 1e-12);
    EXPECT_LT((box.hi - hi).cwiseAbs().maxCoeff(), 1e-12);
    // the box's faces are the support points along the world axes
    for (int axis = 0; axis < 3; ++axis) {
      const Vec3 e = Vec3::Unit(axis);
      EXPECT_NEAR(box.hi[axis], pose.to_world(support(s, pose.orientation.conjugate() * e))[axis], 1e-12);
      EXPECT_NEAR(box.lo[axis], pose.to_world(support(s, pose.orientation.conjugate() * -e))[axis], 1e-12);
    }
  }
  const Aabb h = world_bounds(Shape(HalfSpace{}), Pose());
  EXPECT_EQ(h.lo.maxCoeff(), -std::numeric_limits<double>::infinity());
  EXPECT_EQ(h.hi.minCoeff(), std::numeric_limits<double>::infinity());
}

TEST(ShapeKinds, MeshOfAPolygonIsOneFacet) {
  ShapeMesh mesh;
  append_mesh(Shape(make_regular_polygon(5, 1.0)), mesh);
  EXPECT_EQ(mesh.vertices.size(), 5u);
  EXPECT_EQ(mesh.triangles.size(), 3u);
  ASSERT_EQ(mesh.facets.size(), 1u);
  EXPECT_EQ(mesh.facet_normals.front(), Vec3::UnitZ());
  ShapeMesh solid;
  append_mesh(Shape(make_compound({make_cube(1.0), make_cube(2.0)})), solid);
  EXPECT_EQ(solid.vertices.size(), 16u);
  EXPECT_EQ(solid.facets.size(), 12u);
  EXPECT_THROW(append_mesh(Shape(HalfSpace{}), solid), GeometryError);
}

TEST(ShapePairTable, RejectsAMissingOrDoubleRule) {
  using Table = ShapePairTable<int (*)()>;
  Table t("test");
  t.none<HalfSpace, HalfSpace>();
  t.none<Polyhedron, Polygon>();
  t.parts<Compound>();
  EXPECT_THROW(t.check_complete(), std::logic_error);  // polyhedron x polyhedron, ...
  EXPECT_THROW((t.none<Polygon, Polyhedron>()), std::logic_error);
  t.none<Polyhedron, Polyhedron>();
  t.none<Polygon, Polygon>();
  t.none<HalfSpace, Polyhedron>();
  t.none<HalfSpace, Polygon>();
  EXPECT_THROW(t.check_complete(), std::logic_error);  // the curved kinds
  register_curved_pairs<int (*)()>(t, [] { return 0; });
  EXPECT_NO_THROW(t.check_complete());
}

}  // namespace
}  // namespace pegsim
