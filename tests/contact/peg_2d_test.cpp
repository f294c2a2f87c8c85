// The PEG 2D contact model (thesis 4.3, Algorithms 8-11): which U-, I- and
// X-constraints a pair of polygons gets, on the configurations of thesis
// Figs. 4.1-4.3 and 5.1.
#include "collision/narrowphase.hpp"
#include "contact/contact_model.hpp"
#include "contact/peg.hpp"
#include "geometry/polygon.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>
#include <vector>

namespace pegsim {
namespace {

// Two squares (Model built by hand: this test links the contact stage only):
// body 0 static "base" of side `base_side` centred at the origin, body 1 "top"
// a unit square at `top`.
// make_rectangle's vertices: 0 bottom-left, 1 bottom-right, 2 top-right,
// 3 top-left; edge i runs from vertex i to i+1: 0 bottom, 1 right, 2 top, 3 left.
struct Pair {
  Model model;
  Pose base = Pose::planar(0.0, 0.0, 0.0);
  Pose top;
  std::vector<Contact> contacts;
  ConstraintSet set;

  Pair(double x, double y, double theta = 0.0, double eps = 0.1, double mu = 0.0, double base_side = 1.0) {
    model.options.dimension = Dimension::Planar;
    model.materials = {Material{"default"}};
    model.friction = {mu};
    for (bool is_static : {true, false}) {
      BodyModel b;
      b.is_static = is_static;
      b.shape = is_static ? make_rectangle(base_side, base_side) : make_rectangle(1.0, 1.0);
      b.mass = 1.0;
      model.bodies.push_back(b);
    }
    top = Pose::planar(x, y, theta);
    NarrowphaseParams params;
    params.eps = eps;
    params.eps_theta = model.options.eps_theta;
    params.eps_feasible = model.options.eps_feasible;
    find_contacts(BodyGeometry{0, &model.bodies[0].shape, base}, BodyGeometry{1, &model.bodies[1].shape, top},
                  params, contacts);
  }

  void build(ContactModelKind kind) {
    State state;
    state.bodies.resize(2);
    state.bodies[0].pose = base;
    state.bodies[1].pose = top;
    make_contact_model(kind, Dimension::Planar)->build(model, state, contacts, set);
  }

  // index in set.contacts of vertex `vertex` of body `vb` against edge `edge` of the other body
  int find(std::uint32_t vb, int vertex, int edge) const {
    for (std::size_t c = 0; c < set.contacts.size(); ++c) {
      const Contact& k = set.contacts[c].contact;
      if (k.body_b == vb && k.features.feature_b == vertex && k.features.feature_a == edge) return static_cast<int>(c);
    }
    return -1;
  }
  // the constraint of `kind` whose sub-contacts are exactly `cs` (any order), or nullptr
  const ContactConstraint* constraint(ConstraintKind kind, std::vector<int> cs) const {
    std::sort(cs.begin(), cs.end());
    for (const ContactConstraint& k : set.constraints) {
      std::vector<int> have = k.contacts;
      std::sort(have.begin(), have.end());
      if (k.kind == kind && have == cs) return &k;
    }
    return nullptr;
  }
};

// The top square rests on the base shifted right by 0.3 m: its bottom-left
// vertex lies on the base's top edge, 0.3 m from the nearest corner (> eps).
// The base's top-right corner touches the top's bottom edge, 0.2 m from the
// top's corner. No vertex is near a vertex: unilateral constraints only.
TEST(Peg2d, BoxResting_OnlyUnilateralConstraints) {
  Pair q(0.3, 1.0, 0.0, 0.1);
  q.build(ContactModelKind::Peg);
  const ConstraintCounts n = q.set.counts();
  EXPECT_EQ(n.i, 0);
  EXPECT_EQ(n.x, 0);
  EXPECT_EQ(n.u, static_cast<int>(q.set.contacts.size()));
  EXPECT_GE(n.u, 1);  // the top's bottom-left vertex on the base's top edge
  EXPECT_FALSE(q.set.has_peg_constraints());
}

// Thesis Fig. 5.1: the top square's bottom-right vertex v_a (vertex 1 of
// body 1) lies on the top edge of a 2 m base, 0.05 m left of its top-right
// corner v_b (vertex 2 of body 0), within eps = 0.1: a vertex-vertex
// configuration. The top's bottom-left vertex is 0.95 m from the other corner.
TEST(Peg2d, VertexNearVertex_Algorithm10) {
  Pair p(0.45, 1.5, 0.0, 0.1, 0.0, 2.0);
  p.build(ContactModelKind::Peg);
  const int c1 = p.find(1, 1, 1);  // v_a against e_b1 = base's right edge (edge 1): psi = -0.05
  const int c2 = p.find(1, 1, 2);  // v_a against e_b2 = base's top edge (edge 2): psi = 0
  const int c3 = p.find(0, 2, 0);  // v_b against e_a1 = top's bottom edge (edge 0): psi = 0
  const int c4 = p.find(0, 2, 1);  // v_b against e_a2 = top's right edge (edge 1): psi = +0.05
  ASSERT_TRUE(c1 >= 0 && c2 >= 0 && c3 >= 0 && c4 >= 0);
  EXPECT_NEAR(p.set.contacts[c1].contact.gap, -0.05, 1e-12);
  EXPECT_NEAR(p.set.contacts[c4].contact.gap, 0.05, 1e-12);

  // eq. 4.17: I(C-split{C1, C2}), I(C-split{C3, C4}), X({C1}, {C4}), X({C2}, {C3})
  const ContactConstraint* i1 = p.constraint(ConstraintKind::I, {c1, c2});
  const ContactConstraint* i2 = p.constraint(ConstraintKind::I, {c3, c4});
  ASSERT_NE(i1, nullptr);
  ASSERT_NE(i2, nullptr);
  EXPECT_NE(p.constraint(ConstraintKind::X, {c1, c4}), nullptr);
  EXPECT_NE(p.constraint(ConstraintKind::X, {c2, c3}), nullptr);
  // C-split (Algorithm 9): the contacts across the touching edges are the primary ones and
  // come first; the ones across the side edges are secondary and carry no force
  EXPECT_EQ(i1->primaries, 1);
  EXPECT_EQ(i1->contacts[0], c2);
  EXPECT_EQ(i2->primaries, 1);
  EXPECT_EQ(i2->contacts[0], c3);
  // the top's bottom-left vertex is far from every corner: a U-constraint
  const ConstraintCounts n = p.set.counts();
  EXPECT_EQ(n.i, 2);
  EXPECT_EQ(n.x, 2);
  EXPECT_EQ(n.u, 1);
  EXPECT_TRUE(p.set.has_peg_constraints());
}

// The standard model puts a unilateral constraint on each of the same
// contacts (thesis Fig. 4.1: the trap).
TEST(Peg2d, StandardModelConstrainsEveryContact) {
  Pair p(0.45, 1.5, 0.0, 0.1, 0.0, 2.0);
  p.build(ContactModelKind::Standard);
  EXPECT_EQ(p.set.counts().u, static_cast<int>(p.contacts.size()));
  EXPECT_EQ(p.set.counts().i + p.set.counts().x, 0);
}

// Corner to corner (thesis Fig. 4.3): the top square up and to the right of
// the base, its bottom-left corner 0.01 m right of and 0.02 m above the base's
// top-right corner. The vertex is applicable and feasible against both edges:
// two primaries, the nearer (smaller non-negative gap) first (decision D4).
TEST(Peg2d, CornerToCorner_TwoPrimariesNearestFirst) {
  Pair p(1.01, 1.02);
  p.build(ContactModelKind::Peg);
  const int right = p.find(1, 0, 1);  // top's bottom-left vertex against base's right edge: psi = 0.01
  const int top = p.find(1, 0, 2);    // ... against base's top edge: psi = 0.02
  ASSERT_TRUE(right >= 0 && top >= 0);
  const ContactConstraint* i = p.constraint(ConstraintKind::I, {right, top});
  ASSERT_NE(i, nullptr);
  EXPECT_EQ(i->primaries, 2);
  EXPECT_EQ(i->contacts[0], right);
  EXPECT_EQ(p.set.counts().i, 2);
  // D7: corner beyond corner, every vertex projects outside the other's edges:
  // the X-constraints of eq. 4.17 would state false extensions, none is written
  EXPECT_EQ(p.set.counts().x, 0);
}

// Friction (thesis 4.7): only the primary sub-contacts carry it; an
// X-constraint lists none.
TEST(Peg2d, FrictionOnPrimarySubContactsOnly) {
  Pair p(0.45, 1.5, 0.0, 0.1, 0.5, 2.0);
  p.build(ContactModelKind::Peg);
  for (const ContactConstraint& k : p.set.constraints) {
    if (k.kind == ConstraintKind::X) {
      EXPECT_TRUE(k.friction.empty());
      continue;
    }
    ASSERT_EQ(static_cast<int>(k.friction.size()), k.primaries);
    for (int j = 0; j < k.primaries; ++j) EXPECT_EQ(k.friction[j], k.contacts[j]);
  }
}

// Algorithm 8 and decision D3. The top square stands on its bottom-left
// corner, tilted by 0.3 rad, in the middle of a 4 m base: its lowest vertex
// gets a U-constraint; its bottom-right vertex, 0.296 m up, is not applicable
// (its edge to the lowest vertex points down, APPL = -sin 0.3 < eps_theta)
// and gets none. Sunk 1 mm into the base the lowest vertex is infeasible
// (deeper than eps_feasible) but keeps its U-constraint, which pushes it out
// (Algorithm 8 would drop it).
TEST(Peg2d, LoneContactsAlgorithm8WithoutFeasibility) {
  const double theta = 0.3;
  // place the bottom-left vertex (-0.5, -0.5 in the body) at (0, 2 + dy), dy above the base's top edge
  const Vec2 corner = Pose::planar(0, 0, theta).to_world_2d(Vec2(-0.5, -0.5));
  for (double dy : {0.0, -0.001}) {
    Pair p(0.0 - corner.x(), 2.0 + dy - corner.y(), theta, 0.35, 0.0, 4.0);
    p.build(ContactModelKind::Peg);
    const int lowest = p.find(1, 0, 2);
    ASSERT_GE(lowest, 0);
    EXPECT_EQ(p.set.contacts[lowest].contact.features.primary, dy == 0.0);
    EXPECT_NE(p.constraint(ConstraintKind::U, {lowest}), nullptr);
    EXPECT_EQ(p.find(1, 1, 2), -1);  // found by the narrowphase, not constrained
    bool raised_found = false;
    for (const Contact& c : p.contacts) raised_found |= c.body_b == 1 && c.features.feature_b == 1 && !c.features.primary;
    EXPECT_TRUE(raised_found);
    EXPECT_EQ(p.set.counts().u, 1);
  }
}

}  // namespace
}  // namespace pegsim
