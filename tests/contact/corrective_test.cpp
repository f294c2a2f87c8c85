// The corrective contact model (thesis 5.2, contact/corrective.cpp): one
// U-constraint per overlapping body pair, none for pairs apart or touching.
#include "contact/contact_model.hpp"
#include "geometry/penetration.hpp"
#include "geometry/polygon.hpp"
#include "geometry/polyhedron.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <numbers>
#include <vector>

namespace pegsim {
namespace {

// A model built by hand (this test links the contact stage only).
struct Scene {
  Model model;
  State state;
  ConstraintSet set;

  explicit Scene(Dimension dim, double mu = 0.0) {
    model.options.dimension = dim;
    model.materials = {Material{"default"}};
    model.friction = {mu};
  }
  std::uint32_t add(Shape shape, const Pose& pose, bool is_static = false) {
    BodyModel b;
    b.is_static = is_static;
    b.shape = std::move(shape);
    b.mass = 1.0;
    model.bodies.push_back(b);
    BodyState s;
    s.pose = pose;
    state.bodies.push_back(s);
    return static_cast<std::uint32_t>(model.bodies.size() - 1);
  }
  const ConstraintSet& build() {
    make_contact_model(ContactModelKind::Corrective, model.options.dimension)->build(model, state, {}, set);
    return set;
  }
};

Pose at(const Vec3& p, const Quat& q = Quat::Identity()) {
  Pose pose;
  pose.position = p;
  pose.orientation = q;
  return pose;
}

// The conventions of collision/contact.hpp, and the depth of the separating axis test.
void expect_consistent(const Scene& s, const ConstrainedContact& cc) {
  const Contact& c = cc.contact;
  EXPECT_EQ(c.kind, FeatureKind::Overlap);
  EXPECT_EQ(c.features.feature_a, -1);
  EXPECT_EQ(c.features.feature_b, -1);
  EXPECT_TRUE(c.features.primary);
  EXPECT_NEAR(c.normal.norm(), 1.0, 1e-12);
  EXPECT_LT(c.gap, 0.0);
  EXPECT_TRUE(c.point_b.isApprox(c.point_a + c.gap * c.normal, 1e-15));
  const double depth = penetration_depth(s.model.bodies[c.body_a].shape, s.state.bodies[c.body_a].pose,
                                         s.model.bodies[c.body_b].shape, s.state.bodies[c.body_b].pose);
  EXPECT_NEAR(c.gap, -depth, 1e-12);
  // moving B by the depth along the normal separates the pair
  Pose moved = s.state.bodies[c.body_b].pose;
  moved.position -= c.gap * c.normal;
  EXPECT_LT(penetration_depth(s.model.bodies[c.body_a].shape, s.state.bodies[c.body_a].pose,
                              s.model.bodies[c.body_b].shape, moved),
            1e-12);
  if (s.model.options.dimension == Dimension::Planar) {
    EXPECT_EQ(c.normal.z(), 0.0);
    EXPECT_EQ(c.point_a.z(), 0.0);
    EXPECT_EQ(c.point_b.z(), 0.0);
  }
}

TEST(Corrective, IsAvailableInBothDimensions) {
  EXPECT_EQ(make_contact_model(ContactModelKind::Corrective, Dimension::Planar)->name(), "corrective");
  EXPECT_EQ(make_contact_model(ContactModelKind::Corrective, Dimension::Spatial)->name(), "corrective");
  ContactModelKind kind;
  ASSERT_TRUE(parse_contact_model("corrective", kind));
  EXPECT_EQ(kind, ContactModelKind::Corrective);
}

TEST(Corrective, BoxSunkIntoTheGroundGetsOneConstraint) {
  Scene s(Dimension::Spatial);
  s.add(HalfSpace{Vec3::UnitZ(), 0.0}, Pose(), true);
  s.add(make_box(Vec3(1, 0.6, 0.4)), at(Vec3(0.3, -0.2, 0.19)));
  const ConstraintSet& set = s.build();
  ASSERT_EQ(set.constraints.size(), 1u);
  ASSERT_EQ(set.contacts.size(), 1u);
  EXPECT_EQ(set.constraints[0].kind, ConstraintKind::U);
  EXPECT_EQ(set.constraints[0].contacts, std::vector<int>{0});
  EXPECT_TRUE(set.constraints[0].friction.empty());  // mu = 0
  const Contact& c = set.contacts[0].contact;
  EXPECT_EQ(c.body_a, 0u);  // the half-space is A
  EXPECT_EQ(c.body_b, 1u);
  EXPECT_TRUE(c.normal.isApprox(Vec3::UnitZ(), 1e-15));
  EXPECT_NEAR(c.gap, -0.01, 1e-12);
  // at the centroid of the sunk slab, on the ground's surface
  EXPECT_TRUE(c.point_a.isApprox(Vec3(0.3, -0.2, 0.0), 1e-12)) << c.point_a.transpose();
  EXPECT_TRUE(c.point_b.isApprox(Vec3(0.3, -0.2, -0.01), 1e-12)) << c.point_b.transpose();
  expect_consistent(s, set.contacts[0]);
}

TEST(Corrective, BoxRestingOnOrAboveTheGroundGetsNone) {
  for (double z : {0.2, 0.2 + 1e-9, 0.5}) {
    Scene s(Dimension::Spatial);
    s.add(HalfSpace{Vec3::UnitZ(), 0.0}, Pose(), true);
    s.add(make_box(Vec3(1, 0.6, 0.4)), at(Vec3(0.3, -0.2, z)));
    EXPECT_TRUE(s.build().constraints.empty()) << "z = " << z;
    EXPECT_TRUE(s.set.contacts.empty());
  }
}

TEST(Corrective, TiltedBoxIsPushedOutByItsDeepestCorner) {
  Scene s(Dimension::Spatial, 0.5);
  s.add(HalfSpace{Vec3::UnitZ(), 0.0}, Pose(), true);
  const Quat tilt(Eigen::AngleAxisd(0.3, Vec3(1, 1, 0).normalized()));
  s.add(make_cube(1.0), at(Vec3(0, 0, 0.6), tilt));
  const ConstraintSet& set = s.build();
  ASSERT_EQ(set.constraints.size(), 1u);
  EXPECT_EQ(set.constraints[0].friction, std::vector<int>{0});  // mu = 0.5
  EXPECT_DOUBLE_EQ(set.contacts[0].mu, 0.5);
  double lowest = 1e9;
  for (const Vec3& v : make_cube(1.0).vertices) lowest = std::min(lowest, (tilt * v).z() + 0.6);
  EXPECT_NEAR(set.contacts[0].contact.gap, lowest, 1e-12);
  expect_consistent(s, set.contacts[0]);
}

TEST(Corrective, OneConstraintPerOverlappingPair) {
  Scene s(Dimension::Spatial);
  s.add(HalfSpace{Vec3::UnitZ(), 0.0}, Pose(), true);                  // 0
  s.add(make_cube(1.0), at(Vec3(0, 0, 0.49)));                          // 1: into the ground
  s.add(make_cube(1.0), at(Vec3(0.3, 0.1, 1.45), Quat(Eigen::AngleAxisd(0.4, Vec3::UnitZ()))));  // 2: into 1
  s.add(make_cube(1.0), at(Vec3(5, 0, 0.5)));                           // 3: resting, touching only
  s.add(make_cube(1.0), at(Vec3(5, 0, 1.5)));                           // 4: on 3, touching only
  s.add(make_cube(1.0), at(Vec3(-5, 0, 3)));                            // 5: falling, apart
  const ConstraintSet& set = s.build();
  ASSERT_EQ(set.constraints.size(), 2u);
  EXPECT_EQ(set.contacts[0].contact.body_a, 0u);
  EXPECT_EQ(set.contacts[0].contact.body_b, 1u);
  EXPECT_EQ(set.contacts[1].contact.body_a, 1u);
  EXPECT_EQ(set.contacts[1].contact.body_b, 2u);
  EXPECT_TRUE(set.contacts[1].contact.normal.isApprox(Vec3::UnitZ(), 1e-12));
  EXPECT_NEAR(set.contacts[1].contact.gap, -0.04, 1e-12);  // 1's top at 0.99, 2's bottom at 0.95
  for (const ConstrainedContact& c : set.contacts) expect_consistent(s, c);
}

TEST(Corrective, StaticPairsGetNone) {
  Scene s(Dimension::Spatial);
  s.add(HalfSpace{Vec3::UnitZ(), 0.0}, Pose(), true);
  s.add(make_cube(1.0), at(Vec3(0, 0, 0.2)), true);
  s.add(make_cube(1.0), at(Vec3(0.5, 0, 0.2)), true);
  EXPECT_TRUE(s.build().constraints.empty());
}

TEST(Corrective, PolygonsOverlappingGetOneConstraintEach) {
  Scene s(Dimension::Planar);
  s.add(HalfSpace{Vec3::UnitY(), 0.0}, Pose::planar(0, 0, 0), true);  // 0: floor y <= 0
  s.add(make_rectangle(1, 1), Pose::planar(0, 0.45, 0));             // 1: 5 cm into the floor
  s.add(make_rectangle(1, 1), Pose::planar(0.2, 1.4, 0.1));          // 2: into 1
  s.add(make_rectangle(1, 1), Pose::planar(3, 0.5, 0));              // 3: resting
  const ConstraintSet& set = s.build();
  ASSERT_EQ(set.constraints.size(), 2u);
  EXPECT_EQ(set.contacts[0].contact.body_a, 0u);
  EXPECT_EQ(set.contacts[0].contact.body_b, 1u);
  EXPECT_NEAR(set.contacts[0].contact.gap, -0.05, 1e-12);
  EXPECT_TRUE(set.contacts[0].contact.point_a.isApprox(Vec3(0, 0, 0), 1e-12));
  EXPECT_EQ(set.contacts[1].contact.body_a, 1u);
  EXPECT_EQ(set.contacts[1].contact.body_b, 2u);
  for (const ConstrainedContact& c : set.contacts) expect_consistent(s, c);
}

// Two triangles crossed like a six-pointed star: no vertex of either is
// inside the other, yet they overlap; the model finds them from the geometry.
TEST(Corrective, CrossedTrianglesWithNoVertexInsideAreFound) {
  Scene s(Dimension::Planar);
  const Polygon tri = make_regular_polygon(3, 1.0);
  s.add(tri, Pose::planar(0, 0, 0));
  s.add(tri, Pose::planar(0, 0, std::numbers::pi));
  const ConstraintSet& set = s.build();
  ASSERT_EQ(set.constraints.size(), 1u);
  const Contact& c = set.contacts[0].contact;
  // the hexagon of the star is centred at the origin
  EXPECT_NEAR(c.point_a.x() - c.normal.x() * c.normal.dot(c.point_a), 0.0, 1e-12);
  EXPECT_NEAR(c.point_a.y() - c.normal.y() * c.normal.dot(c.point_a), 0.0, 1e-12);
  expect_consistent(s, set.contacts[0]);
}

TEST(Corrective, ManyBodiesSweepFindsEveryOverlappingPair) {
  // a row of unit squares 0.9 apart: each overlaps its neighbours only
  Scene s(Dimension::Planar);
  for (int i = 0; i < 20; ++i) s.add(make_rectangle(1, 1), Pose::planar(0.9 * ((i * 7) % 20), 0.0, 0.0));
  const ConstraintSet& set = s.build();
  EXPECT_EQ(set.constraints.size(), 19u);
  for (const ConstrainedContact& c : set.contacts) {
    EXPECT_LT(c.contact.body_a, c.contact.body_b);
    EXPECT_NEAR(c.contact.gap, -0.1, 1e-12);
    expect_consistent(s, c);
  }
}

// The overlap search skips the pairs no contact search takes
// (contact/collision_filter.hpp): two unit boxes overlapping by 0.1 m along x
// get one contact when loose and none when joined or links of one tree. (It
// once took them: a robot's links overlap at their joints, and the joint rows
// then made every step's problem infeasible under the corrective model.)
TEST(Corrective, JoinedBodiesAndLinksOfOneTreeGetNoContact) {
  Scene s(Dimension::Spatial);
  s.add(Shape(make_box(Vec3(1, 1, 1))), at(Vec3(0, 0, 0)));
  s.add(Shape(make_box(Vec3(1, 1, 1))), at(Vec3(0.9, 0, 0)));
  EXPECT_EQ(s.build().contacts.size(), 1u);
  JointModel j;
  j.body_a = 0;
  j.body_b = 1;
  s.model.joints.push_back(j);
  EXPECT_EQ(s.build().contacts.size(), 0u);
  j.collide = true;  // a joint that asks for its bodies to collide
  s.model.joints = {j};
  EXPECT_EQ(s.build().contacts.size(), 1u);
  s.model.joints.clear();
  TreeModel t;
  t.link_body = {0, 1};
  s.model.trees.push_back(t);
  EXPECT_EQ(s.build().contacts.size(), 0u);
}

}  // namespace
}  // namespace pegsim
