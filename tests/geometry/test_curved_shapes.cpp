// The curved shape kinds (geometry/curved.hpp): mass properties against an
// independent path (the divergence theorem of mass_properties.cpp over a
// fine inscribed polytope: the convex hull of surface samples), support
// points against brute force over sampled surfaces, world boxes, meshes.
#include "geometry/intersection.hpp"
#include "geometry/penetration.hpp"
#include "geometry/shape.hpp"

#include <gtest/gtest.h>

#include "common/curved_surface.hpp"
#include "common/sampler.hpp"

#include <numbers>

namespace pegsim {
namespace {

constexpr double kPi = std::numbers::pi;

// Relative agreement of mass, centre of mass and inertia. The inscribed
// hull misses a sliver of the curved surface: for a ring of n sides the
// area deficit is (2 pi / n)^2 / 6 relative, and a lat-long ball of n
// sectors about twice that; `tolerance` is a few times that deficit.
void expect_close(const MassProperties& exact, const MassProperties& hull, double tolerance, double size) {
  EXPECT_NEAR(hull.mass / exact.mass, 1.0, tolerance);
  EXPECT_LT((hull.centre_of_mass - exact.centre_of_mass).norm(), tolerance * size);
  const double scale = exact.inertia.norm();
  EXPECT_LT((hull.inertia - exact.inertia).norm() / scale, 2.0 * tolerance)
      << "exact\n" << exact.inertia << "\nhull\n" << hull.inertia;
}

MassProperties hull_of(const Shape& s, int n) {
  return mass_properties(polyhedron_from_points(test::surface_points(s, n)), 2.5);
}
MassProperties outline_of(const Shape& s, int n) {
  std::vector<Vec2> points;
  for (const Vec3& p : test::surface_points(s, n)) points.emplace_back(p.x(), p.y());
  return mass_properties(polygon_hull(points), 2.5);
}

TEST(CurvedShapes, MassPropertiesAreTheClosedForms) {
  const double rho = 2.5;
  // the closed forms themselves, by hand, for one size each
  const MassProperties ball = mass_properties(Shape(make_sphere(0.5)), rho);
  EXPECT_DOUBLE_EQ(ball.mass, rho * 4.0 / 3.0 * kPi * 0.125);
  EXPECT_DOUBLE_EQ(ball.inertia(0, 0), 0.4 * ball.mass * 0.25);
  const MassProperties cone = mass_properties(Shape(make_cone(0.3, 1.2)), rho);
  EXPECT_DOUBLE_EQ(cone.centre_of_mass.z(), 0.3);  // h / 4 above the base
  EXPECT_DOUBLE_EQ(cone.inertia(2, 2), 0.3 * cone.mass * 0.09);
  // and each against the hull of its surface (an independent computation)
  expect_close(ball, hull_of(make_sphere(0.5), 128), 3e-3, 0.5);
  expect_close(mass_properties(Shape(make_capsule(0.3, 0.8)), rho), hull_of(make_capsule(0.3, 0.8), 128), 3e-3, 0.7);
  expect_close(mass_properties(Shape(make_cylinder(0.4, 0.7)), rho), hull_of(make_cylinder(0.4, 0.7), 256), 5e-4, 0.5);
  expect_close(cone, hull_of(make_cone(0.3, 1.2), 256), 5e-4, 1.0);
  // laminae: Izz and the in-plane moments
  const MassProperties disc = mass_properties(Shape(make_disc(0.6)), rho);
  EXPECT_DOUBLE_EQ(disc.inertia(2, 2), 0.5 * disc.mass * 0.36);
  const MassProperties d_hull = outline_of(make_disc(0.6), 2048);
  EXPECT_NEAR(d_hull.mass / disc.mass, 1.0, 1e-5);
  EXPECT_NEAR(d_hull.inertia(2, 2) / disc.inertia(2, 2), 1.0, 2e-5);
  const Shape stadium = make_capsule_2d(0.25, 1.0);
  const MassProperties s = mass_properties(stadium, rho), s_hull = outline_of(stadium, 2048);
  EXPECT_NEAR(s_hull.mass / s.mass, 1.0, 1e-5);
  for (int i = 0; i < 3; ++i) EXPECT_NEAR(s_hull.inertia(i, i) / s.inertia(i, i), 1.0, 2e-5) << i;
}

TEST(CurvedShapes, FrameMovesWithTranslate) {
  Shape cone = make_cone(0.3, 1.2);
  const MassProperties m = mass_properties(cone, 1.0);
  translate_shape(cone, m.centre_of_mass);
  EXPECT_LT(mass_properties(cone, 1.0).centre_of_mass.norm(), 1e-15);
  EXPECT_NEAR(bounding_radius(cone), 0.9, 1e-15);  // the apex, 3h/4 above the centre of mass
}

const std::vector<Shape>& curved_shapes() {
  static const std::vector<Shape> shapes = [] {
    std::vector<Shape> s = {make_sphere(0.5), make_capsule(0.3, 0.8), make_cylinder(0.4, 0.7), make_cone(0.3, 1.2),
                            make_disc(0.6), make_capsule_2d(0.25, 1.0)};
    translate_shape(s[3], Vec3(0.1, -0.2, 0.3));
    return s;
  }();
  return shapes;
}

// The support point reaches at least as far as every sampled surface point,
// and no farther than the farthest by more than the samples' sagitta; it
// lies in the shape.
TEST(CurvedShapes, SupportIsTheFarthestPoint) {
  test::Sampler rng(17);
  for (const Shape& s : curved_shapes()) {
    const std::vector<Vec3> samples = test::surface_points(s, 256);
    const bool planar = kind_info(s).dims == ShapeDims::Planar;
    for (int trial = 0; trial < 100; ++trial) {
      Vec3 d = rng.direction();
      if (planar) d.z() = 0.0;
      const Vec3 x = support(s, d);
      double reach = -INFINITY;
      for (const Vec3& p : samples) reach = std::max(reach, d.dot(p));
      EXPECT_GE(d.dot(x), reach - 1e-12) << shape_kind_name(s);
      EXPECT_LE(d.dot(x), reach + 1e-3) << shape_kind_name(s);  // (2 pi r / 256)^2 / (2 r) < 1e-3
      EXPECT_TRUE(std::visit([&](const auto& k) {
        // just inside, towards the centre of mass (a cone's apex has no room along -d)
        const Vec3 in = (mass_properties(s, 1.0).centre_of_mass - x).normalized();
        if constexpr (requires { contains(k, x); }) return contains(k, x + 1e-9 * in);
        else return false;
      }, s)) << shape_kind_name(s);
    }
  }
}

TEST(CurvedShapes, WorldBoxIsTheSupportAlongTheAxes) {
  test::Sampler rng(23);
  for (const Shape& s : curved_shapes()) {
    for (int trial = 0; trial < 30; ++trial) {
      Pose pose;
      pose.position = rng.vec3(-3, 3);
      pose.orientation = rng.rotation();
      if (kind_info(s).dims == ShapeDims::Planar) pose = Pose::planar(pose.position.x(), pose.position.y(), rng.uniform(-3, 3));
      const Aabb box = world_bounds(s, pose);
      const int axes = kind_info(s).dims == ShapeDims::Planar ? 2 : 3;
      for (int axis = 0; axis < axes; ++axis) {
        const Vec3 e = Vec3::Unit(axis);
        EXPECT_NEAR(box.hi[axis], pose.to_world(support(s, pose.orientation.conjugate() * e))[axis], 1e-12);
        EXPECT_NEAR(box.lo[axis], pose.to_world(support(s, pose.orientation.conjugate() * -e))[axis], 1e-12);
      }
    }
  }
}

TEST(CurvedShapes, MeshLiesOnTheSurface) {
  for (const Shape& s : curved_shapes()) {
    ShapeMesh mesh;
    append_mesh(s, mesh);
    EXPECT_GT(mesh.triangles.size(), 10u);
    EXPECT_EQ(mesh.facets.size(), mesh.facet_normals.size());
    for (const Vec3& v : mesh.vertices)  // within the bounding radius and reached by the support along it
      EXPECT_LE(v.norm(), bounding_radius(s) + 1e-12) << shape_kind_name(s);
  }
  EXPECT_THROW(make_sphere(-1.0), GeometryError);
  EXPECT_THROW(make_cylinder(1.0, 0.0), GeometryError);
  EXPECT_THROW(make_capsule(1.0, -0.1), GeometryError);
}

// The pair tables' curved entries (geometry/curved_pairs.hpp): penetration
// depth of two balls and of a ball in a half-space in closed form; the overlap
// volume by quadrature against the lens and the spherical cap (a 40^3 grid
// over the common box: a few per cent, one layer of cells over the region).
TEST(CurvedShapes, PenetrationAndOverlapOfBalls) {
  const Shape ball = make_sphere(0.5), ground = HalfSpace{};
  const Pose at_origin, apart{Vec3(0.6, 0.0, 0.0), Quat::Identity()}, low{Vec3(0, 0, 0.3), Quat::Identity()};
  const PenetrationAxis two = penetration_axis(ball, at_origin, ball, apart);
  EXPECT_NEAR(two.depth, 0.4, 1e-12);
  EXPECT_LT((two.normal - Vec3::UnitX()).norm(), 1e-12);
  EXPECT_NEAR(penetration_depth(ground, at_origin, ball, low), 0.2, 1e-15);
  EXPECT_NEAR(penetration_depth(ball, low, ground, at_origin), 0.2, 1e-15);
  const double r = 0.5, d = 0.6, h = 0.2;
  const double lens = kPi * (4.0 * r + d) * (2.0 * r - d) * (2.0 * r - d) / 12.0;
  const double cap = kPi * h * h * (3.0 * r - h) / 3.0;
  EXPECT_NEAR(intersect_shapes(ball, at_origin, ball, apart).measure / lens, 1.0, 0.03);
  EXPECT_NEAR(intersect_shapes(ground, at_origin, ball, low).measure / cap, 1.0, 0.03);
  EXPECT_NEAR(intersect_shapes(ball, at_origin, ball, apart).centroid.x(), 0.3, 1e-9);  // the symmetry plane
  EXPECT_EQ(intersect_shapes(ball, at_origin, ball, Pose{Vec3(1.01, 0, 0), Quat::Identity()}).measure, 0.0);
}

}  // namespace
}  // namespace pegsim
