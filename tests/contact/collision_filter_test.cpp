// Which body pairs may touch (contact/collision_filter.hpp), against the rule
// written out pair by pair. The corrective model's use of it:
// tests/contact/corrective_test.cpp.
#include "contact/collision_filter.hpp"
#include "geometry/polyhedron.hpp"

#include <gtest/gtest.h>

namespace pegsim {
namespace {

// bodies: 0 ground (static), 1 2 3 links of tree 0 (3 without geometry),
// 4 5 links of tree 1, 6 7 loose boxes joined (no collide), 8 9 loose boxes
// joined with collide = true, 10 a loose box
Model filter_model() {
  Model m;
  m.bodies.resize(11);
  for (BodyModel& b : m.bodies) b.shape = Shape(make_box(Vec3(1, 1, 1)));
  m.bodies[0].is_static = true;
  TreeModel t0;
  t0.link_body = {1, 2, 3};
  t0.link_collides = {1, 1, 0};
  TreeModel t1;
  t1.link_body = {4, 5};
  m.trees = {t0, t1};
  JointModel j;
  j.body_a = 7;
  j.body_b = 6;
  m.joints.push_back(j);
  j.body_a = 8;
  j.body_b = 9;
  j.collide = true;
  m.joints.push_back(j);
  j.body_a = kWorldBody;
  j.body_b = 10;
  j.collide = false;
  m.joints.push_back(j);
  return m;
}

TEST(CollisionFilter, MatchesTheRulePairByPair) {
  const Model m = filter_model();
  CollisionFilter f;
  f.reset(m);
  auto tree_of = [](std::uint32_t b) { return b >= 1 && b <= 3 ? 0 : b == 4 || b == 5 ? 1 : -1; };
  for (std::uint32_t a = 0; a < 11; ++a)
    for (std::uint32_t b = 0; b < 11; ++b) {
      if (a == b) continue;
      bool expected = true;
      if (a == 3 || b == 3) expected = false;                                   // no collision geometry
      if (tree_of(a) >= 0 && tree_of(a) == tree_of(b)) expected = false;        // one tree
      if ((a == 6 && b == 7) || (a == 7 && b == 6)) expected = false;           // joined
      EXPECT_EQ(f.may_touch(a, b), expected) << a << " " << b;
    }
}

}  // namespace
}  // namespace pegsim
