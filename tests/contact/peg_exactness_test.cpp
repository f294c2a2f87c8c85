// PEG's defining property, checked against brute force (thesis 4.1, 4.4):
// at a configuration, the constraints PEG writes for two convex bodies hold
// exactly when the bodies do not overlap. "Hold" reads each constraint at the
// current gaps: a U-constraint psi >= 0, an I- or X-constraint max psi >= 0
// over its sub-contacts (eqs. 4.1, 4.9, 4.15). Overlap is the separating axis
// theorem's depth (geometry/penetration.hpp), which knows nothing of features.
//
// Sampled configurations are kept when the bodies are apart or overlapping by
// at most a third of the contact distance eps: every feature that can decide
// is then found by the narrowphase (a penetrating vertex is within the depth
// of the facet it crossed, and a pair apart by less than eps has its nearest
// features within eps). Pairs closer than 1e-6 m to touching are skipped: there
// the answer turns on round-off. The standard model is run on the same
// configurations to show the difference the test is about: it reports bodies
// that are apart as violating a constraint (the standard-model trap).
#include "collision/narrowphase.hpp"
#include "contact/active_piece.hpp"
#include "contact/contact_model.hpp"
#include "geometry/penetration.hpp"
#include "geometry/polygon.hpp"
#include "geometry/polyhedron.hpp"

#include "common/sampler.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <limits>
#include <vector>

namespace pegsim {
namespace {

bool constraints_hold(const ConstraintSet& set, double tolerance) {
  for (const ContactConstraint& k : set.constraints) {
    double best = -std::numeric_limits<double>::infinity();
    for (int c : k.contacts) best = std::max(best, set.contacts[static_cast<std::size_t>(c)].contact.gap);
    if (best < -tolerance) return false;
  }
  return true;
}

struct Tally {
  int apart = 0, overlapping = 0;
  int not_u = 0;              // I- and X-constraints written (the one-row model: none)
  int apart_violated = 0;     // a trap: bodies apart, a constraint violated
  int overlap_accepted = 0;   // a hole: bodies overlap, every constraint holds
};

struct PairCase {
  Model model;
  std::vector<Contact> contacts;
};

// A non-convex static body as a union of two overlapping convex parts (thesis
// 4.5, Fig. 4.11): an L whose concave corner is at (-0.2, 0.15) (2D) or
// along the line x = -0.2, z = 0.15 (3D).
Shape l_shape(Dimension dim) {
  if (dim == Dimension::Spatial) {
    Polyhedron base = make_box(Vec3(1.0, 1.0, 0.3)), post = make_box(Vec3(0.3, 1.0, 1.0));
    post.translate(Vec3(0.35, 0.0, -0.35));  // vertices -= offset: the post stands at x = -0.35
    return make_compound({base, post});
  }
  Polygon base = make_rectangle(1.0, 0.3), post = make_rectangle(0.3, 1.0);
  post.translate(Vec2(0.35, -0.35));
  return make_compound({base, post});
}

// static_shape: body 0's shape (default: a unit box / square); one_row: the
// model as the one-row-per-contact steppers get it (contact/active_piece.hpp)
Tally run(Dimension dim, ContactModelKind kind, int samples, std::uint64_t seed,
          const Shape* static_shape = nullptr, bool one_row = false) {
  constexpr double eps = 0.1;
  test::Sampler rng(seed);
  Tally t;
  Model model;
  model.options.dimension = dim;
  model.materials = {Material{"default"}};
  model.friction = {0.0};
  for (bool is_static : {true, false}) {
    BodyModel b;
    b.is_static = is_static;
    b.mass = 1.0;
    if (dim == Dimension::Spatial) b.shape = is_static ? make_box(Vec3(1.0, 1.0, 1.0)) : make_box(Vec3(0.8, 0.6, 0.5));
    else b.shape = is_static ? make_rectangle(1.0, 1.0) : make_rectangle(0.8, 0.5);
    if (is_static && static_shape) b.shape = *static_shape;
    model.bodies.push_back(b);
  }
  auto contact_model = one_row ? make_one_row_contact_model(kind, dim) : make_contact_model(kind, dim);
  NarrowphaseParams params;
  params.eps = eps;
  params.eps_theta = model.options.eps_theta;
  params.eps_feasible = model.options.eps_feasible;
  State state;
  state.bodies.resize(2);
  std::vector<Contact> contacts;
  ConstraintSet set;
  int kept = 0;
  while (kept < samples) {
    Pose pb;
    if (dim == Dimension::Spatial) {
      // mostly near-axis rotations (faces nearly parallel, the trap's setting), some arbitrary
      pb.orientation = rng.unit() < 0.5 ? rng.rotation()
                                        : (rng.axis_rotation() * Quat(Eigen::AngleAxisd(rng.uniform(-0.3, 0.3),
                                                                                        rng.direction())))
                                              .normalized();
      pb.position = rng.vec3(-1.3, 1.3);
    } else {
      const double theta = rng.unit() < 0.5 ? rng.uniform(-M_PI, M_PI) : rng.integer(0, 3) * M_PI / 2 + rng.uniform(-0.3, 0.3);
      const Vec2 xy = rng.vec2(-1.3, 1.3);
      pb = Pose::planar(xy.x(), xy.y(), theta);
    }
    const Pose pa;
    const double depth = penetration_depth(model.bodies[0].shape, pa, model.bodies[1].shape, pb);
    if (depth > eps / 3 || std::abs(depth) < 1e-6 || depth < -eps / 3) continue;
    ++kept;
    state.bodies[0].pose = pa;
    state.bodies[1].pose = pb;
    contacts.clear();
    find_contacts(BodyGeometry{0, &model.bodies[0].shape, pa}, BodyGeometry{1, &model.bodies[1].shape, pb}, params,
                  contacts);
    contact_model->build(model, state, contacts, set);
    const bool hold = constraints_hold(set, 1e-9);
    const ConstraintCounts counts = set.counts();
    t.not_u += counts.i + counts.x;
    if (depth < 0.0) {
      ++t.apart;
      t.apart_violated += !hold;
    } else {
      ++t.overlapping;
      t.overlap_accepted += hold;
    }
  }
  return t;
}

TEST(PegExactness, Peg2dConstraintsHoldIffPolygonsAreApart) {
  const Tally peg = run(Dimension::Planar, ContactModelKind::Peg, 4000, 11);
  EXPECT_GT(peg.apart, 1000);
  EXPECT_GT(peg.overlapping, 1000);
  EXPECT_EQ(peg.apart_violated, 0);
  EXPECT_EQ(peg.overlap_accepted, 0);
  const Tally standard = run(Dimension::Planar, ContactModelKind::Standard, 4000, 11);
  EXPECT_GT(standard.apart_violated, 100) << "the standard model's trap is missing from the sample";
  EXPECT_EQ(standard.overlap_accepted, 0);
}

TEST(PegExactness, Peg3dConstraintsHoldIffPolyhedraAreApart) {
  const Tally peg = run(Dimension::Spatial, ContactModelKind::Peg, 4000, 12);
  EXPECT_GT(peg.apart, 1000);
  EXPECT_GT(peg.overlapping, 1000);
  EXPECT_EQ(peg.apart_violated, 0);
  EXPECT_EQ(peg.overlap_accepted, 0);
  const Tally standard = run(Dimension::Spatial, ContactModelKind::Standard, 4000, 12);
  EXPECT_GT(standard.apart_violated, 100) << "the standard model's trap is missing from the sample";
  EXPECT_EQ(standard.overlap_accepted, 0);
}

// Non-convex bodies as unions of overlapping convex parts (thesis 4.5): PEG
// per pair of parts. A body is apart from the union when it is apart from
// every part, and every part's constraints are written independently (the AND
// a concave corner needs), so the property holds for the union as it does for
// each part: no trap at the convex corners, no hole at the concave one.
// penetration_depth of a compound is the deepest part pair's.
TEST(PegExactness, PegOnCompoundBodiesHoldsIffApart) {
  for (Dimension dim : {Dimension::Planar, Dimension::Spatial}) {
    const Shape l = l_shape(dim);
    const Tally peg = run(dim, ContactModelKind::Peg, 3000, 14, &l);
    EXPECT_GT(peg.apart, 700);
    EXPECT_GT(peg.overlapping, 700);
    EXPECT_EQ(peg.apart_violated, 0);
    EXPECT_EQ(peg.overlap_accepted, 0);
    const Tally standard = run(dim, ContactModelKind::Standard, 3000, 14, &l);
    EXPECT_GT(standard.apart_violated, 50) << "the standard model's trap is missing from the sample";
  }
}

// PEG reduced to one U-constraint per I- or X-constraint, on its active
// piece (contact/active_piece.hpp), as the Drumwright-Shell steppers read it:
// at rest (every predicted rate is gap / h) the piece is the largest gap, so
// the reduced constraints hold exactly when PEG's do, on the same samples
// (the convex pair and the L of convex parts), while the standard model
// traps on them (above).
TEST(PegExactness, PegReducedToActivePiecesHoldsIffApart) {
  const Shape l3 = l_shape(Dimension::Spatial), l2 = l_shape(Dimension::Planar);
  struct Case {
    Dimension dim;
    const Shape* shape;
    int samples;
    std::uint64_t seed;
  };
  for (const Case& c : {Case{Dimension::Planar, nullptr, 4000, 11}, Case{Dimension::Spatial, nullptr, 4000, 12},
                        Case{Dimension::Planar, &l2, 3000, 14}, Case{Dimension::Spatial, &l3, 3000, 14}}) {
    for (ContactModelKind kind : {ContactModelKind::Peg, ContactModelKind::Lnc}) {
      const Tally reduced = run(c.dim, kind, c.samples, c.seed, c.shape, true);
      EXPECT_GT(reduced.apart, 700);
      EXPECT_GT(reduced.overlapping, 700);
      EXPECT_EQ(reduced.not_u, 0);
      EXPECT_EQ(reduced.apart_violated, 0);
      EXPECT_EQ(reduced.overlap_accepted, 0);
    }
  }
}

// LNC (thesis eqs. 4.2-4.4): a vertex's constraints against a convex body
// never trap either. (Its hole, two corners crossing with both vertices
// outside, thesis Fig. 4.4, needs overlaps deeper than this sample keeps.)
TEST(PegExactness, LncNeverTraps) {
  for (Dimension dim : {Dimension::Planar, Dimension::Spatial}) {
    const Tally lnc = run(dim, ContactModelKind::Lnc, 4000, 13);
    EXPECT_GT(lnc.apart, 1000);
    EXPECT_EQ(lnc.apart_violated, 0);
    EXPECT_EQ(lnc.overlap_accepted, 0);
  }
}

}  // namespace
}  // namespace pegsim
