// Standard-model traps (contact/traps.hpp; thesis Figs. 4.1, 5.1, 5.12, the
// statistic of Figs. 5.13 and 5.15): counted on narrowphase contacts of
// hand-placed squares and on hand-built contact lists.
#include "collision/narrowphase.hpp"
#include "contact/traps.hpp"
#include "geometry/polygon.hpp"
#include "math/pose.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <vector>

namespace pegsim {
namespace {

constexpr double kEpsFeasible = 1e-6;  // SimOptions' default

// The narrowphase's contacts between a static square "base" of side
// `base_side` at the origin (body 0) and a unit square "top" at (x, y)
// (body 1), as in tests/contact/peg_2d_test.cpp. make_rectangle: vertex 0
// bottom-left, 1 bottom-right, 2 top-right, 3 top-left; edge i from vertex i
// to i+1: 0 bottom, 1 right, 2 top, 3 left.
std::vector<Contact> square_on_square(double x, double y, double base_side, double eps = 0.1) {
  const Shape base = make_rectangle(base_side, base_side);
  const Shape top = make_rectangle(1.0, 1.0);
  NarrowphaseParams params;
  params.eps = eps;
  params.eps_feasible = kEpsFeasible;
  std::vector<Contact> contacts;
  find_contacts(BodyGeometry{0, &base, Pose::planar(0, 0, 0)}, BodyGeometry{1, &top, Pose::planar(x, y, 0)},
                params, contacts);
  return contacts;
}

Contact vertex_contact(std::uint32_t facet_body, int facet, std::uint32_t vertex_body, int vertex, double gap,
                       FeatureKind kind = FeatureKind::VertexEdge) {
  Contact c;
  c.body_a = facet_body;
  c.features.feature_a = facet;
  c.body_b = vertex_body;
  c.features.feature_b = vertex;
  c.kind = kind;
  c.gap = gap;
  return c;
}

// Thesis Fig. 5.1: the top square's bottom-right vertex lies on the top edge
// of a 2 m base, 0.05 m left of the base's top-right corner: it has contacts
// with the top edge (gap 0) and, 0.05 m deep, with the right edge. One trap.
// The base's corner has contacts with the top's bottom edge (gap 0) and right
// edge (gap +0.05): no negative gap, no trap.
TEST(Traps, VertexInsideASideEdgesHalfPlane_Fig5_1) {
  const std::vector<Contact> contacts = square_on_square(0.45, 1.5, 2.0);
  bool deep = false;
  for (const Contact& c : contacts) deep |= c.body_b == 1 && c.features.feature_b == 1 && c.features.feature_a == 1 && c.gap < -0.04;
  ASSERT_TRUE(deep) << "the fixture lost the 0.05 m deep contact";
  EXPECT_EQ(count_standard_model_traps(contacts, kEpsFeasible), 1);
}

// Thesis Fig. 5.12: a unit square centred on a 1.1 m base. Each bottom vertex
// of the top square touches the base's top edge and lies 0.05 m inside the
// half-plane of the base's nearer side edge: two traps, one per vertex.
TEST(Traps, BothBottomVerticesTrapped_Fig5_12) {
  const std::vector<Contact> contacts = square_on_square(0.0, 1.05, 1.1);
  EXPECT_EQ(count_standard_model_traps(contacts, kEpsFeasible), 2);
}

// A square resting on the base far from its corners: one contact per vertex.
TEST(Traps, RestingAwayFromCornersHasNone) {
  EXPECT_EQ(count_standard_model_traps(square_on_square(0.3, 1.0, 1.0), kEpsFeasible), 0);
}

// Thesis Fig. 4.1 before the trap closes: the top square's corner is above and
// right of the base's corner, within eps of both edges, with positive gaps.
// Not (yet) a trap by the definition: no negative gap.
TEST(Traps, ApproachingACornerWithPositiveGapsIsNotCounted) {
  const std::vector<Contact> contacts = square_on_square(1.01, 1.02, 1.0);
  int at_corner = 0;
  for (const Contact& c : contacts) at_corner += c.body_b == 1 && c.features.feature_b == 0;
  ASSERT_GE(at_corner, 2);
  EXPECT_EQ(count_standard_model_traps(contacts, kEpsFeasible), 0);
}

// A negative gap counts only below -eps_feasible (round-off allowance).
TEST(Traps, NegativeGapMustExceedTheFeasibilityTolerance) {
  EXPECT_EQ(count_standard_model_traps({vertex_contact(0, 2, 1, 0, 0.0), vertex_contact(0, 3, 1, 0, -0.5e-6)},
                                       kEpsFeasible),
            0);
  EXPECT_EQ(count_standard_model_traps({vertex_contact(0, 2, 1, 0, 0.0), vertex_contact(0, 3, 1, 0, -2e-6)},
                                       kEpsFeasible),
            1);
  // one deep contact alone is a penetration, not a trap
  EXPECT_EQ(count_standard_model_traps({vertex_contact(0, 2, 1, 0, -0.3)}, kEpsFeasible), 0);
}

// Groups are (vertex body, vertex, facet body): the same vertex index on
// another body, or the same vertex against another body, is another group;
// edge-edge contacts are not vertex-facet contacts; order does not matter.
TEST(Traps, GroupsByVertexAndOtherBody) {
  std::vector<Contact> c = {
      vertex_contact(0, 1, 1, 2, -0.01),  // body 1 vertex 2 against body 0: one contact
      vertex_contact(3, 1, 1, 2, 0.0),    // ... against body 3: one contact
      vertex_contact(0, 2, 4, 2, 0.0),    // body 4 vertex 2 against body 0: one contact
      vertex_contact(0, 0, 5, 7, -0.02, FeatureKind::EdgeEdge),
      vertex_contact(0, 1, 5, 7, 0.0, FeatureKind::EdgeEdge),
  };
  EXPECT_EQ(count_standard_model_traps(c, kEpsFeasible), 0);

  // 3D: a vertex near three faces of a block (thesis Fig. 5.3), one below its face
  c.push_back(vertex_contact(2, 0, 6, 3, 0.001, FeatureKind::VertexFace));
  c.push_back(vertex_contact(2, 4, 6, 3, -0.004, FeatureKind::VertexFace));
  c.push_back(vertex_contact(2, 5, 6, 3, 0.0, FeatureKind::VertexFace));
  // and the dual trap of Fig. 5.2: body 0 vertex 1 against two edges of body 1
  c.push_back(vertex_contact(1, 0, 0, 1, -0.03));
  c.push_back(vertex_contact(1, 3, 0, 1, 0.0));
  EXPECT_EQ(count_standard_model_traps(c, kEpsFeasible), 2);
  std::reverse(c.begin(), c.end());
  EXPECT_EQ(count_standard_model_traps(c, kEpsFeasible), 2);
  EXPECT_EQ(count_standard_model_traps({}, kEpsFeasible), 0);
}

}  // namespace
}  // namespace pegsim
