// Contact determination with curved shapes (collision/narrowphase_curved.hpp)
// against brute force: every analytic routine and the GJK / EPA pairs, at
// random poses, through the collision table.
//
// Apart: the nearest contact's gap is at most the smallest distance between
// densely sampled surface points (the exact distance can only be smaller;
// 1e-9 for round-off), and at least that minus the sampling's spacing (the
// sampled points nearest the true closest points are within a spacing of
// them); its points lie on the two surfaces (1e-7 towards a shape's centre of
// mass is inside, 1e-7 away from it outside), and point_b = point_a + gap n.
// Overlapping: the depth is at most the overlap of the shapes' projections
// on every sampled direction (the minimum over all directions is the depth),
// and B moved by the depth (plus 1e-9) along the normal clears A to within
// 1e-8 (EPA's stop: 1e-9 of the scale, geometry/gjk.hpp).
#include "collision/collision_table.hpp"
#include "geometry/gjk.hpp"

#include <gtest/gtest.h>

#include "common/curved_surface.hpp"
#include "common/sampler.hpp"

#include <algorithm>
#include <numbers>

namespace pegsim {
namespace {

// whether a world point is in the shape
bool inside(const Shape& s, const Pose& pose, const Vec3& x) {
  const Vec3 y = pose.to_body(x);
  if (const auto* h = std::get_if<HalfSpace>(&s)) return h->normal.dot(y) <= h->offset;
  if (const auto* p = std::get_if<Polyhedron>(&s))
    return std::all_of(p->faces.begin(), p->faces.end(), [&](const PolyFace& f) { return f.normal.dot(y) <= f.offset; });
  if (const auto* p = std::get_if<Polygon>(&s)) {
    for (int e = 0; e < p->size(); ++e)
      if (p->edge_normals[e].dot(Vec2(y.x(), y.y()) - p->vertices[e]) > 0.0) return false;
    return true;
  }
  return std::visit([&](const auto& k) {
    if constexpr (requires { contains(k, y); }) return contains(k, y);
    else return false;
  }, s);
}

// on the boundary of a convex shape: just inside towards its centre of mass,
// just outside away from it (along -n a cone's apex or a box's edge may have
// no room, so the contact normal is not used)
bool on_surface(const Shape& s, const Pose& pose, const Vec3& x) {
  const Vec3 in = (pose.to_world(mass_properties(s, 1.0).centre_of_mass) - x).normalized();
  return inside(s, pose, x + 1e-7 * in) && !inside(s, pose, x - 1e-7 * in);
}

Vec3 world_support(const Shape& s, const Pose& p, const Vec3& d) {
  return p.to_world(support(s, p.orientation.conjugate() * d));
}

struct Case {
  Shape a, b;
  bool planar;
};

std::vector<Case> cases() {
  Shape slab = make_box(Vec3(1.2, 0.8, 0.5)), tri = make_polygon({Vec2(-0.6, -0.4), Vec2(0.7, -0.3), Vec2(0.1, 0.6)});
  const Shape sphere = make_sphere(0.4), capsule = make_capsule(0.25, 0.6), cylinder = make_cylinder(0.35, 0.7),
              cone = make_cone(0.4, 0.8), disc = make_disc(0.45), stadium = make_capsule_2d(0.2, 0.7),
              octa = make_octahedron(0.9);
  return {{sphere, sphere, false},   {sphere, capsule, false},  {capsule, capsule, false}, {slab, sphere, false},
          {slab, capsule, false},    {octa, capsule, false},    {cylinder, slab, false},   {cone, sphere, false},
          {cylinder, capsule, false}, {cylinder, cone, false},  {cone, cone, false},       {cylinder, cylinder, false},
          {disc, disc, true},        {disc, stadium, true},     {stadium, stadium, true},  {tri, disc, true},
          {tri, stadium, true}};
}

Pose random_pose(test::Sampler& rng, bool planar, double reach) {
  if (planar) {
    const Vec2 p = rng.in_disc(reach);
    return Pose::planar(p.x(), p.y(), rng.uniform(-3.0, 3.0));
  }
  Pose pose;
  pose.position = rng.in_ball(reach);
  pose.orientation = rng.rotation();
  return pose;
}

TEST(NarrowphaseCurved, NearestContactIsTheDistance) {
  test::Sampler rng(41);
  NarrowphaseParams params;
  params.eps = 10.0;  // every pair reports its contacts
  int apart = 0, overlapping = 0;
  for (const Case& c : cases()) {
    const std::vector<Vec3> sa = test::surface_points(c.a, 72), sb = test::surface_points(c.b, 72);
    const double spacing = 2.0 * std::numbers::pi * 0.8 / 72;  // the largest radius's spacing
    for (int trial = 0; trial < 10; ++trial) {
      const Pose pa = random_pose(rng, c.planar, 0.3), pb = random_pose(rng, c.planar, 1.6);
      std::vector<Contact> out;
      find_contacts({0, &c.a, pa}, {1, &c.b, pb}, params, out);
      ASSERT_FALSE(out.empty()) << shape_kind_name(c.a) << " x " << shape_kind_name(c.b);
      const Contact& k = *std::min_element(out.begin(), out.end(), [](const Contact& x, const Contact& y) { return x.gap < y.gap; });
      const std::string what = std::string(shape_kind_name(c.a)) + " x " + shape_kind_name(c.b) + " trial " + std::to_string(trial);
      EXPECT_EQ(k.kind, FeatureKind::Curved);
      EXPECT_NEAR(k.normal.norm(), 1.0, 1e-12) << what;
      EXPECT_LT((k.point_b - k.point_a - k.gap * k.normal).norm(), 1e-12) << what;
      if (c.planar) {
        EXPECT_EQ(k.normal.z(), 0.0) << what;
      }
      const Pose& pa_ = k.body_a == 0 ? pa : pb;
      const Pose& pb_ = k.body_a == 0 ? pb : pa;
      const Shape& a = k.body_a == 0 ? c.a : c.b;
      const Shape& b = k.body_a == 0 ? c.b : c.a;
      EXPECT_TRUE(on_surface(a, pa_, k.point_a)) << what << " point_a";
      EXPECT_TRUE(on_surface(b, pb_, k.point_b)) << what << " point_b";
      if (k.gap > 0.0) {
        ++apart;
        const double sampled = test::sampled_distance(sa, pa, sb, pb);
        EXPECT_LE(k.gap, sampled + 1e-9) << what;
        EXPECT_GE(k.gap, sampled - spacing) << what;
      } else {
        ++overlapping;
        // the depth is the least overlap of the projections over all directions
        double least = INFINITY;
        for (int i = 0; i < 2000; ++i) {
          Vec3 u = rng.direction();
          if (c.planar) u = Vec3(u.x(), u.y(), 0.0).normalized();
          least = std::min(least, u.dot(world_support(a, pa_, u)) - u.dot(world_support(b, pb_, -u)));
        }
        EXPECT_LE(-k.gap, least + 1e-9) << what;
        Pose moved = pb_;
        moved.position += (-k.gap + 1e-9) * k.normal;
        const ConvexDistance after = shape_distance(a, pa_, b, moved);
        EXPECT_GE(after.distance, -1e-8) << what << " EPA iterations " << shape_distance(a, pa_, b, pb_).iterations
                                         << " converged " << shape_distance(a, pa_, b, pb_).converged;
      }
    }
  }
  EXPECT_GT(apart, 90);
  EXPECT_GT(overlapping, 15);
}

// Round kinds against half-spaces and cylinders / cones on their rims: every
// contact's gap is its point's height above the plane, and the nearest one
// is the shape's lowest point (its support along -n).
TEST(NarrowphaseCurved, HalfSpaceContactsAreTheLowestPoints) {
  test::Sampler rng(43);
  NarrowphaseParams params;
  params.eps = 10.0;
  const Shape ground = HalfSpace{Vec3(0.1, -0.2, 1.0).normalized(), 0.05};
  const Shape line = HalfSpace{Vec3(0.3, 1.0, 0.0).normalized(), -0.1};
  for (const Shape& s : {Shape(make_sphere(0.4)), Shape(make_capsule(0.25, 0.6)), Shape(make_cylinder(0.35, 0.7)),
                         Shape(make_cone(0.4, 0.8)), Shape(make_disc(0.3)), Shape(make_capsule_2d(0.2, 0.7))}) {
    const bool planar = kind_info(s).dims == ShapeDims::Planar;
    const Shape& plane = planar ? line : ground;
    const Vec3 n = std::get<HalfSpace>(plane).normal;
    for (int trial = 0; trial < 50; ++trial) {
      const Pose pose = random_pose(rng, planar, 1.0);
      std::vector<Contact> out;
      find_contacts({0, &plane, Pose()}, {1, &s, pose}, params, out);
      ASSERT_FALSE(out.empty());
      double lowest = INFINITY;
      for (const Contact& k : out) {
        EXPECT_EQ(k.body_a, 0u);
        EXPECT_LT((k.normal - n).norm(), 1e-15);
        EXPECT_NEAR(k.gap, n.dot(k.point_b) - 0.05 * !planar + 0.1 * planar, 1e-12);
        // in the shape (a capsule's upper end contact may lie inside it: it
        // holds that end's ball, and the capsule is the hull of its two balls)
        const Vec3 in = (pose.to_world(mass_properties(s, 1.0).centre_of_mass) - k.point_b).normalized();
        EXPECT_TRUE(inside(s, pose, k.point_b + 1e-7 * in)) << shape_kind_name(s) << " point " << k.features.feature_b;
        lowest = std::min(lowest, k.gap);
      }
      const Contact& low = *std::min_element(out.begin(), out.end(), [](const Contact& x, const Contact& y) { return x.gap < y.gap; });
      EXPECT_TRUE(on_surface(s, pose, low.point_b)) << shape_kind_name(s);
      EXPECT_NEAR(lowest, n.dot(world_support(s, pose, -n)) - (planar ? -0.1 : 0.05), 1e-12) << shape_kind_name(s);
    }
  }
}

// A cylinder standing on the ground rests on its rim points; lying on its
// side, on the two ends of its line of contact.
TEST(NarrowphaseCurved, CylinderStandsOnItsRimAndLiesOnTwoPoints) {
  const Shape ground = HalfSpace{}, cylinder = make_cylinder(0.3, 1.0);
  NarrowphaseParams params;
  params.eps = 0.01;
  std::vector<Contact> standing, lying;
  find_contacts({0, &ground, Pose()}, {1, &cylinder, Pose{Vec3(0, 0, 0.5), Quat::Identity()}}, params, standing);
  EXPECT_EQ(standing.size(), 8u);
  for (const Contact& k : standing) EXPECT_NEAR(k.gap, 0.0, 1e-15);
  const Pose side{Vec3(0, 0, 0.3), Quat(Eigen::AngleAxisd(std::numbers::pi / 2, Vec3::UnitX()))};
  find_contacts({0, &ground, Pose()}, {1, &cylinder, side}, params, lying);
  ASSERT_EQ(lying.size(), 2u);
  EXPECT_NEAR(std::abs(lying[0].point_b.y() - lying[1].point_b.y()), 1.0, 1e-12);
  for (const Contact& k : lying) EXPECT_NEAR(k.gap, 0.0, 1e-15);
}

// A cylinder or cone on a polyhedron's facet, or on a cylinder's flat face,
// is held as on a half-space in that face's plane (narrowphase_rim.cpp):
// where the face is wide enough to hold every rim point the routines are
// independent paths to the same contacts (same points, gaps and numbers), at
// rest (gap 0, where GJK's normal is arbitrary), apart, overlapping, tilted
// within and past the flat limit.
TEST(NarrowphaseCurved, RimOnAWideFacetIsRimOnItsPlane) {
  const Shape box_table = make_box(Vec3(4.0, 4.0, 0.2));  // top face z = 0.1 at the origin
  const Shape round_table = make_cylinder(4.0, 0.2);
  const Shape top_plane = HalfSpace{Vec3::UnitZ(), 0.1};
  NarrowphaseParams params;
  params.eps = 0.01;
  int compared = 0;
  for (const Shape& table : {box_table, round_table})
  for (const Shape& s : {Shape(make_cylinder(0.3, 1.0)), Shape(make_cone(0.3, 0.8))}) {
    for (const double tilt : {0.0, 0.004, 0.3, std::numbers::pi / 2}) {
      for (const double gap : {0.0, 0.004, -0.002}) {
        Pose pose;
        pose.orientation = Quat(Eigen::AngleAxisd(tilt, Vec3(1.0, 2.0, 0.0).normalized()));
        pose.position = Vec3(0.2, -0.1, 0.0);
        pose.position.z() += 0.1 + gap - world_support(s, pose, -Vec3::UnitZ()).z();  // lowest point at 0.1 + gap
        std::vector<Contact> on_box, on_plane;
        find_contacts({0, &table, Pose()}, {1, &s, pose}, params, on_box);
        find_contacts({0, &top_plane, Pose()}, {1, &s, pose}, params, on_plane);
        const std::string what = std::string(shape_kind_name(s)) + " on " + shape_kind_name(table) + " tilt " +
                                 std::to_string(tilt) + " gap " + std::to_string(gap);
        ASSERT_FALSE(on_plane.empty()) << what;
        ASSERT_EQ(on_box.size(), on_plane.size()) << what;
        for (std::size_t i = 0; i < on_box.size(); ++i) {
          EXPECT_EQ(on_box[i].features.feature_b, on_plane[i].features.feature_b) << what;
          EXPECT_LT((on_box[i].point_b - on_plane[i].point_b).norm(), 1e-12) << what;
          EXPECT_NEAR(on_box[i].gap, on_plane[i].gap, 1e-12) << what;
          EXPECT_LT((on_box[i].normal - Vec3::UnitZ()).norm(), 1e-15) << what;
        }
        ++compared;
      }
    }
  }
  EXPECT_EQ(compared, 48);
}

// The other way round: a box resting on a cylinder's flat face stands on its
// corners (the facet's vertices over the face's disc), and a cylinder half
// over a box's edge keeps only the rim points over the facet, with the box's
// corners under its disc: every contact over both the facet and the disc, so
// the support polygon is that of the overlap.
TEST(NarrowphaseCurved, BoxOnACapStandsOnItsCornersAndARimOverAnEdgeOnTheOverlap) {
  const Shape box = make_box(Vec3(0.2, 0.2, 0.2)), table = make_cylinder(1.0, 0.1);
  NarrowphaseParams params;
  params.eps = 0.01;
  std::vector<Contact> out;
  const Pose table_pose{Vec3(0, 0, -0.05), Quat(Eigen::AngleAxisd(0.7, Vec3::UnitZ()))};
  find_contacts({0, &box, Pose{Vec3(0.3, 0.2, 0.1), Quat::Identity()}}, {1, &table, table_pose}, params, out);
  ASSERT_EQ(out.size(), 4u);
  for (const Contact& k : out) {
    EXPECT_NEAR(k.gap, 0.0, 1e-15);
    EXPECT_NEAR(k.point_a.z(), 0.0, 1e-15);
    EXPECT_NEAR(std::abs(k.point_a.x() - 0.3), 0.1, 1e-15);  // a corner of the box's bottom face
    EXPECT_NEAR(std::abs(k.point_a.y() - 0.2), 0.1, 1e-15);
    EXPECT_LT((k.normal + Vec3::UnitZ()).norm(), 1e-15);  // from the box (A) down into the table
    EXPECT_GE(k.features.feature_b, 64);
  }
  // a can of radius 0.3 centred 0.1 inside the box's edge x = 0.1 (box 0.2 wide at the origin, top z = 0.1)
  const Shape can = make_cylinder(0.3, 0.5);
  out.clear();
  find_contacts({0, &box, Pose()}, {1, &can, Pose{Vec3(0.0, 0.0, 0.35), Quat::Identity()}}, params, out);
  ASSERT_GE(out.size(), 4u);
  int corners = 0;
  for (const Contact& k : out) {
    EXPECT_NEAR(k.gap, 0.0, 1e-15);
    EXPECT_LE(std::abs(k.point_a.x()), 0.1 + 1e-15);  // over the box's top face
    EXPECT_LE(std::abs(k.point_a.y()), 0.1 + 1e-15);
    EXPECT_LE(std::hypot(k.point_a.x(), k.point_a.y()), 0.3 + 1e-15);  // under the can's disc
    corners += k.features.feature_b >= 64;
  }
  EXPECT_EQ(corners, 4);  // the box's top is inside the can's disc: all four corners, no rim point over it
  // a can lying along x across the box's edge x = 0.1 (from x = -0.1 to 0.2): its line of contact clipped there
  const Shape rod = make_cylinder(0.05, 0.3);
  out.clear();
  find_contacts({0, &box, Pose()},
                {1, &rod, Pose{Vec3(0.05, 0.0, 0.15), Quat(Eigen::AngleAxisd(std::numbers::pi / 2, Vec3::UnitY()))}},
                params, out);
  ASSERT_EQ(out.size(), 2u);
  std::vector<double> xs = {out[0].point_a.x(), out[1].point_a.x()};
  std::sort(xs.begin(), xs.end());
  EXPECT_NEAR(xs[0], -0.1, 1e-12);
  EXPECT_NEAR(xs[1], 0.1, 1e-12);  // the edge, not the rod's end at 0.2 in the air
  for (const Contact& k : out) EXPECT_NEAR(k.gap, 0.0, 1e-12);
  // cans stacked on a common axis: two equal rims give one rim's 8 points (not
  // 16 coincident ones); a smaller can on a larger one stands on its own rim, a
  // larger on a smaller on the smaller's. Off axis by 1 mm, the contacts lie
  // over both faces (the lens where they overlap).
  const Shape small = make_cylinder(0.03, 0.12), large = make_cylinder(0.05, 0.12);
  for (const double offset : {0.0, 0.001})
    for (const auto& [lower, upper] : {std::pair{&small, &small}, std::pair{&large, &small}, std::pair{&small, &large}}) {
      out.clear();
      find_contacts({0, lower, Pose{Vec3(0, 0, 0.06), Quat::Identity()}},
                    {1, upper, Pose{Vec3(offset, 0, 0.18), Quat::Identity()}}, params, out);
      if (offset == 0.0) {
        ASSERT_EQ(out.size(), 8u);
      }
      ASSERT_GE(out.size(), 3u);
      for (const Contact& k : out) {
        EXPECT_NEAR(k.gap, 0.0, 1e-15);
        if (offset == 0.0) {
          EXPECT_NEAR(std::hypot(k.point_a.x(), k.point_a.y()), 0.03, 1e-12);  // the small rim
        }
        const double r_lower = lower == &small ? 0.03 : 0.05, r_upper = upper == &small ? 0.03 : 0.05;
        EXPECT_LE(std::hypot(k.point_a.x(), k.point_a.y()), r_lower * (1 + 1e-9));
        EXPECT_LE(std::hypot(k.point_a.x() - offset, k.point_a.y()), r_upper * (1 + 1e-9));
        EXPECT_LT((k.normal - Vec3::UnitZ()).norm(), 1e-15);
      }
    }
}

// A compound's parts meet a curved shape one by one (thesis 4.5): a ball in
// the corner of an L touches both parts, each contact tagged with its part.
TEST(NarrowphaseCurved, CompoundPartsMeetACurvedShape) {
  Polyhedron foot = make_box(Vec3(1.0, 0.2, 0.2)), post = make_box(Vec3(0.2, 0.2, 1.0));
  post.translate(Vec3(-0.4, 0.0, -0.4));  // its centre to (0.4, 0, 0.4): it stands on the foot's right end
  const Shape ell = make_compound({foot, post}), ball = make_sphere(0.1);
  NarrowphaseParams params;
  params.eps = 0.01;
  std::vector<Contact> out;
  // the ball sits on the foot against the post: 0.1 above the top, 0.1 left of the post
  find_contacts({0, &ell, Pose()}, {1, &ball, Pose{Vec3(0.2, 0.0, 0.2), Quat::Identity()}}, params, out);
  ASSERT_EQ(out.size(), 2u);
  for (const Contact& k : out) {
    EXPECT_EQ(k.kind, FeatureKind::Curved);
    EXPECT_NEAR(k.gap, 0.0, 1e-12);
  }
  EXPECT_EQ(out[0].part_a, 0);  // the foot, normal up
  EXPECT_LT((out[0].normal - Vec3::UnitZ()).norm(), 1e-12);
  EXPECT_EQ(out[1].part_a, 1);  // the post, normal to the left
  EXPECT_LT((out[1].normal + Vec3::UnitX()).norm(), 1e-12);
}

}  // namespace
}  // namespace pegsim
