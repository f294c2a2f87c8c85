// GJK distance (geometry/gjk.hpp) against independent exact distances:
// polytope pairs against the brute-force minimum over vertex-triangle and
// edge-edge pairs (for two disjoint convex polytopes the closest pair of
// points is always realised by one of those feature pairs), spheres and
// capsules against the exact point/segment-to-polytope distance, a cylinder's
// cap against a box face in closed form. The configurations are the hard
// ones for GJK: nearly face-parallel boxes at small gaps (1e-4 .. 1e-2 m), the
// dominos / block-on-block situation where GJK was seen to return 5.4 cm with
// a sideways normal for boxes 1.8 mm apart.
#include "geometry/gjk.hpp"

#include <gtest/gtest.h>

#include "common/sampler.hpp"
#include "geometry/curved.hpp"
#include "geometry/distance.hpp"
#include "geometry/polyhedron.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <string>
#include <vector>

namespace pegsim {
namespace {

struct WorldPolytope {
  std::vector<Vec3> vertices;
  std::vector<std::array<int, 3>> triangles;
  std::vector<std::pair<Vec3, double>> planes;  // outward unit normal n, n . x <= offset inside
};

WorldPolytope at_pose(const Polyhedron& p, const Pose& pose) {
  WorldPolytope w;
  for (const Vec3& v : p.vertices) w.vertices.push_back(pose.to_world(v));
  w.triangles = p.triangles;
  for (const auto& t : w.triangles) {
    const Vec3 &a = w.vertices[t[0]], &b = w.vertices[t[1]], &c = w.vertices[t[2]];
    const Vec3 n = (b - a).cross(c - a).normalized();
    w.planes.emplace_back(n, n.dot(a));
  }
  return w;
}

// The distance of a segment (a point when p == q) to a convex polytope it does
// not touch: the closest pair is an end against a facet or the segment against
// an edge (a vertex being an edge's end).
double segment_polytope_distance(const Vec3& p, const Vec3& q, const WorldPolytope& b) {
  double best = std::numeric_limits<double>::infinity();
  for (const auto& t : b.triangles) {
    const Vec3 &x = b.vertices[t[0]], &y = b.vertices[t[1]], &z = b.vertices[t[2]];
    for (const Vec3& e : {p, q}) best = std::min(best, (closest_point_on_triangle(x, y, z, e) - e).norm());
    for (const auto& [u, v] : {std::pair{x, y}, std::pair{y, z}, std::pair{z, x}})
      best = std::min(best, closest_points_segments(p, q, u, v).distance);
  }
  return best;
}

// Two disjoint convex polytopes: vertex-facet both ways and edge-edge.
double polytope_distance(const WorldPolytope& a, const WorldPolytope& b) {
  double best = std::numeric_limits<double>::infinity();
  for (const auto& t : a.triangles)
    for (const Vec3& v : b.vertices)
      best = std::min(best, (closest_point_on_triangle(a.vertices[t[0]], a.vertices[t[1]], a.vertices[t[2]], v) - v).norm());
  for (const auto& t : b.triangles)
    for (const Vec3& v : a.vertices)
      best = std::min(best, (closest_point_on_triangle(b.vertices[t[0]], b.vertices[t[1]], b.vertices[t[2]], v) - v).norm());
  for (const auto& s : a.triangles)
    for (int i = 0; i < 3; ++i) best = std::min(best, segment_polytope_distance(a.vertices[s[i]], a.vertices[s[(i + 1) % 3]], b));
  return best;
}

double outside_by(const WorldPolytope& p, const Vec3& x) {  // > 0: x is outside by that much (a lower bound)
  double worst = -std::numeric_limits<double>::infinity();
  for (const auto& [n, offset] : p.planes) worst = std::max(worst, n.dot(x) - offset);
  return worst;
}

double reach(const WorldPolytope& p, const Vec3& n) {  // max n . x over p
  double r = -std::numeric_limits<double>::infinity();
  for (const Vec3& v : p.vertices) r = std::max(r, n.dot(v));
  return r;
}

// B placed over A's facet `face` (world normal n) nearly parallel to it: B's
// orientation is A's (so one of its faces is anti-parallel to n, up to a
// cube rotation) tilted by a small angle, with a gap between A's top and B's
// lowest point along n, and a random sideways offset.
Pose nearly_parallel(const Polyhedron& a, const Pose& pa, const Polyhedron& b, test::Sampler& s, double gap,
                     double tilt) {
  const PolyFace& f = a.faces[static_cast<std::size_t>(s.integer(0, static_cast<int>(a.faces.size()) - 1))];
  const Vec3 n = pa.rotate(f.normal);
  Pose pb;
  pb.orientation = (Quat(Eigen::AngleAxisd(tilt, s.direction())) * pa.orientation * s.axis_rotation()).normalized();
  double a_top = -1e300, b_low = 1e300;
  for (const Vec3& v : a.vertices) a_top = std::max(a_top, n.dot(pa.rotate(v)));
  for (const Vec3& v : b.vertices) b_low = std::min(b_low, n.dot(pb.rotate(v)));
  const Vec3 side = s.vec3(-0.05, 0.05);
  pb.position = pa.position + (side - n.dot(side) * n) + (a_top - b_low + gap) * n;
  return pb;
}

// Checks one pair: distance against the exact one, the witness points on
// their sets, and the normal as a separating direction achieving the
// distance. Tolerances: GJK on polytopes stops when its bounds meet within a
// relative 1e-12 (gjk.hpp: <= 1e-14 m at these gaps of at most 1e-2 m) or
// within 1e-13 of the sets' scale (~0.5 m here), the support points are
// exact vertices, and the barycentric solves of the final (possibly thin)
// simplex lose a few digits against the 1e-16 rounding of coordinates of
// size ~0.5 m: 1e-12 m for the distance and the witnesses (measured worst
// 7e-14 m, recorded as worst_error_m) is a ten-millionth of the smallest gap
// tested (1e-4 m); the old fault was off by centimetres.
void check_polytopes(const Polyhedron& a, const Pose& pa, const Polyhedron& b, const Pose& pb, double* worst_error,
                     const char* what) {
  const WorldPolytope wa = at_pose(a, pa), wb = at_pose(b, pb);
  const double exact = polytope_distance(wa, wb);
  const ConvexDistance d = shape_distance(a, pa, b, pb);
  constexpr double kTol = 1e-12;
  *worst_error = std::max(*worst_error, std::abs(d.distance - exact));
  ASSERT_NEAR(d.distance, exact, kTol) << what << " normal " << d.normal.transpose() << " iterations " << d.iterations;
  EXPECT_NEAR(d.normal.norm(), 1.0, 1e-12) << what;
  EXPECT_LE(outside_by(wa, d.point_a), kTol) << what;
  EXPECT_LE(outside_by(wb, d.point_b), kTol) << what;
  EXPECT_NEAR((d.point_b - d.point_a).norm(), exact, kTol) << what;
  // the slab between A's and B's supporting planes normal to d.normal is as
  // wide as the distance: the normal is the closest direction, not sideways.
  // The normal v/|v| carries v's round-off (~1e-15 m) over |v| >= 1e-4 m, an
  // angle up to ~1e-11, times the support points' lever (< 1 m): 1e-10 m.
  const double slab = -reach(wb, -d.normal) - reach(wa, d.normal);
  EXPECT_NEAR(slab, exact, 1e-10) << what << " normal " << d.normal.transpose();
}

std::string worst_text(double x) {  // for --gtest_output=xml
  char text[32];
  std::snprintf(text, sizeof text, "%.3g", x);
  return text;
}

TEST(Gjk, NearlyParallelBoxesAtSmallGapsMatchBruteForce) {
  test::Sampler s(20261127);
  double worst = 0.0;
  for (int k = 0; k < 3000; ++k) {
    const Polyhedron a = make_box(s.vec3(0.02, 0.5)), b = make_box(s.vec3(0.02, 0.5));
    Pose pa;
    pa.position = s.vec3(-1.0, 1.0);
    pa.orientation = s.rotation();
    const double gap = std::pow(10.0, s.uniform(-4.0, -2.0));
    // exactly parallel (tilt 0), round-off parallel, and up to 1e-2 rad
    const int kind = k % 3;
    const double tilt = kind == 0 ? 0.0 : (kind == 1 ? 1e-9 * s.unit() : std::pow(10.0, s.uniform(-6.0, -2.0)));
    const Pose pb = nearly_parallel(a, pa, b, s, gap, tilt);
    check_polytopes(a, pa, b, pb, &worst, "boxes");
    if (HasFatalFailure()) return;
  }
  RecordProperty("worst_error_m", worst_text(worst));
}

TEST(Gjk, AxisAlignedStackedBoxesLikeDominos) {
  // exactly representable poses: cube rotations and lattice offsets, the
  // most degenerate simplices (coplanar support points, ties)
  test::Sampler s(7);
  double worst = 0.0;
  for (int k = 0; k < 2000; ++k) {
    const Polyhedron a = make_box(Vec3(0.1, 0.05, 0.2)), b = make_box(Vec3(0.1, 0.05, 0.2));
    Pose pa, pb;
    pa.orientation = s.axis_rotation();
    pb.orientation = s.axis_rotation();
    const double gap = std::pow(10.0, s.uniform(-4.0, -2.0));
    double a_top = 0.0, b_low = 0.0;
    for (const Vec3& v : a.vertices) a_top = std::max(a_top, pa.rotate(v).z());
    for (const Vec3& v : b.vertices) b_low = std::min(b_low, pb.rotate(v).z());
    pb.position = Vec3(0.01 * s.integer(-5, 5), 0.01 * s.integer(-5, 5), a_top - b_low + gap);
    check_polytopes(a, pa, b, pb, &worst, "stacked");
    if (HasFatalFailure()) return;
  }
  RecordProperty("worst_error_m", worst_text(worst));
}

TEST(Gjk, RandomPolytopesMatchBruteForce) {
  test::Sampler s(99);
  double worst = 0.0;
  for (int k = 0; k < 600; ++k) {
    const Polyhedron shapes[] = {make_box(s.vec3(0.05, 0.4)), make_tetrahedron(s.uniform(0.05, 0.4)),
                                 make_octahedron(s.uniform(0.05, 0.4)), make_prism(s.integer(3, 9), s.uniform(0.05, 0.3), s.uniform(0.05, 0.3)),
                                 make_icosahedron(s.uniform(0.05, 0.3))};
    const Polyhedron& a = shapes[s.integer(0, 4)];
    const Polyhedron& b = shapes[s.integer(0, 4)];
    Pose pa;
    pa.position = s.vec3(-0.5, 0.5);
    pa.orientation = s.rotation();
    const double gap = std::pow(10.0, s.uniform(-4.0, -1.0));
    const double tilt = k % 2 ? 0.0 : std::pow(10.0, s.uniform(-8.0, 0.0));
    const Pose pb = nearly_parallel(a, pa, b, s, gap, tilt);
    if (polytope_distance(at_pose(a, pa), at_pose(b, pb)) < 1e-6) continue;  // a rotation may make them touch
    check_polytopes(a, pa, b, pb, &worst, "polytopes");
    if (HasFatalFailure()) return;
  }
  RecordProperty("worst_error_m", worst_text(worst));
}

TEST(Gjk, SpheresAndCapsulesAgainstBoxesMatchExactDistances) {
  // a sphere's and a capsule's distance to a polytope is its core's minus
  // the radius; the core's distance is exact (segment_polytope_distance).
  // GJK measures the core too (shape_distance), so the same 1e-10 holds.
  test::Sampler s(5);
  for (int k = 0; k < 1500; ++k) {
    const Polyhedron box = make_box(s.vec3(0.02, 0.5));
    Pose pb;
    pb.position = s.vec3(-0.5, 0.5);
    pb.orientation = s.rotation();
    const WorldPolytope wb = at_pose(box, pb);
    const double radius = s.uniform(0.01, 0.2), length = s.uniform(0.0, 0.4);
    const double gap = std::pow(10.0, s.uniform(-4.0, -1.0));
    // a core parallel to a facet (nearly) at height radius + gap above it
    const PolyFace& f = box.faces[static_cast<std::size_t>(s.integer(0, 5))];
    const Vec3 n = pb.rotate(f.normal);
    const Vec3 along = (Quat(Eigen::AngleAxisd(1e-3 * s.unit(), s.direction())) * (s.direction().cross(n))).normalized();
    // over a point between the facet's centre and its first corner
    const Vec3 corner = pb.to_world(box.vertices[static_cast<std::size_t>(f.loop[0])]);
    const Vec3 middle = pb.position + (corner - pb.position).dot(n) * n;
    const Vec3 centre = middle + s.unit() * (corner - middle) + (radius + gap) * n;
    Pose pc;
    pc.position = centre;
    pc.orientation = Quat::FromTwoVectors(Vec3::UnitZ(), along);
    const Vec3 p = centre - 0.5 * length * along, q = centre + 0.5 * length * along;
    const double exact = segment_polytope_distance(p, q, wb) - radius;
    const Shape shape = length > 0.0 ? Shape(make_capsule(radius, length)) : Shape(make_sphere(radius));
    const ConvexDistance d = shape_distance(shape, pc, box, pb);
    ASSERT_NEAR(d.distance, exact, 1e-10) << k;
    EXPECT_LE(outside_by(wb, d.point_b), 1e-10);
    EXPECT_NEAR((d.point_a - closest_point_on_segment(p, q, d.point_a)).norm(), radius, 1e-10);  // on the capsule's surface
  }
}

TEST(Gjk, CylinderCapParallelToABoxFaceIsTheGap) {
  // a cylinder standing on a box's top facet, its cap inside the facet: the
  // distance is the gap exactly. A cylinder's support is curved, so GJK
  // converges linearly and stops at a relative 1e-12 of its bounds, with its
  // support points on the cap's rim: 1e-9 m is far above that.
  test::Sampler s(11);
  for (int k = 0; k < 1000; ++k) {
    const Vec3 size = s.vec3(0.2, 0.5);
    const Polyhedron box = make_box(size);
    const double radius = s.uniform(0.01, 0.09), height = s.uniform(0.02, 0.3);
    const double gap = std::pow(10.0, s.uniform(-4.0, -2.0));
    Pose pb;
    pb.orientation = s.rotation();
    pb.position = s.vec3(-0.5, 0.5);
    const Vec3 up = pb.rotate(Vec3::UnitZ());
    Pose pc;
    pc.orientation = (pb.orientation * Quat(Eigen::AngleAxisd(s.uniform(0.0, 6.3), Vec3::UnitZ()))).normalized();
    pc.position = pb.to_world(Vec3(s.uniform(-0.05, 0.05), s.uniform(-0.05, 0.05), 0.5 * size.z())) + (gap + 0.5 * height) * up;
    const ConvexDistance d = shape_distance(make_cylinder(radius, height), pc, box, pb);
    ASSERT_NEAR(d.distance, gap, 1e-9) << k;
    EXPECT_NEAR(std::abs(d.normal.dot(up)), 1.0, 1e-6) << k;  // along the stack, not sideways
  }
}

}  // namespace
}  // namespace pegsim
