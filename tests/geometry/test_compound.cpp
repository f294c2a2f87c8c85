// Compound (non-convex) shapes, thesis 4.5: the union's mass properties by
// inclusion-exclusion over the overlapping parts (geometry/compound.cpp),
// checked against the same union cut into disjoint pieces, whose properties
// add directly (an independent path: no intersection is computed); and the
// part-wise penetration and overlap measures.
#include "geometry/clipping.hpp"
#include "geometry/intersection.hpp"
#include "geometry/mass_properties.hpp"
#include "geometry/penetration.hpp"
#include "geometry/shape.hpp"

#include <gtest/gtest.h>

namespace pegsim {
namespace {

Polyhedron box_at(const Vec3& size, const Vec3& centre) {
  Polyhedron p = make_box(size);
  p.translate(-centre);  // translate(offset) moves vertices by -offset
  return p;
}

Polygon rectangle_at(double w, double h, const Vec2& centre) {
  Polygon p = make_rectangle(w, h);
  p.translate(-centre);
  return p;
}

// Mass properties of disjoint pieces: mass and first moments add, inertia by
// the parallel axis theorem about the common centre of mass.
MassProperties sum_disjoint(const std::vector<MassProperties>& pieces) {
  MassProperties out;
  Vec3 moment = Vec3::Zero();
  for (const MassProperties& p : pieces) {
    out.mass += p.mass;
    moment += p.mass * p.centre_of_mass;
  }
  out.centre_of_mass = moment / out.mass;
  for (const MassProperties& p : pieces) {
    const Vec3 d = p.centre_of_mass - out.centre_of_mass;
    out.inertia += p.inertia + p.mass * (d.squaredNorm() * Mat3::Identity() - d * d.transpose());
  }
  return out;
}

// Round-off of sums of a few dozen products of O(1) numbers.
constexpr double kTol = 1e-12;

TEST(Compound, LShapedLaminaEqualsItsDisjointPieces) {
  // an L: a 1 x 0.3 bar and a 0.3 x 1 post overlapping in a 0.3 x 0.3 square
  const Compound l = make_compound({rectangle_at(1.0, 0.3, Vec2(0.0, 0.0)), rectangle_at(0.3, 1.0, Vec2(-0.35, 0.35))});
  const MassProperties mp = mass_properties(l, 2.0);
  const MassProperties ref = sum_disjoint({mass_properties(rectangle_at(1.0, 0.3, Vec2(0.0, 0.0)), 2.0),
                                           mass_properties(rectangle_at(0.3, 0.7, Vec2(-0.35, 0.5)), 2.0)});
  EXPECT_NEAR(mp.mass, 2.0 * (0.3 + 0.21), kTol);
  EXPECT_NEAR(mp.mass, ref.mass, kTol);
  EXPECT_LT((mp.centre_of_mass - ref.centre_of_mass).norm(), kTol);
  EXPECT_NEAR(mp.inertia(2, 2), ref.inertia(2, 2), kTol);
  EXPECT_EQ(mp.inertia(0, 0), 0.0);  // a lamina: Izz only, as for one polygon
}

TEST(Compound, ThreeMutuallyOverlappingBoxesGiveTheCross) {
  // three 3 x 1 x 1 bars along x, y, z through the origin: the 3D cross of 7
  // unit cubes; the centre cube is in all three bars (inclusion-exclusion's
  // triple term). Unit density: each cube has mass 1 and I = 1/6 about its centre.
  const Compound cross = make_compound({box_at(Vec3(3, 1, 1), Vec3::Zero()), box_at(Vec3(1, 3, 1), Vec3::Zero()),
                                        box_at(Vec3(1, 1, 3), Vec3::Zero())});
  const MassProperties mp = mass_properties(cross, 1.0);
  EXPECT_NEAR(mp.mass, 7.0, kTol);
  EXPECT_LT(mp.centre_of_mass.norm(), kTol);
  // Ixx = 7 / 6 + sum over the four cubes off the x axis of (y^2 + z^2) = 7/6 + 4
  for (int k = 0; k < 3; ++k) EXPECT_NEAR(mp.inertia(k, k), 7.0 / 6.0 + 4.0, 1e-11);
  EXPECT_NEAR(mp.inertia(0, 1), 0.0, 1e-11);
}

TEST(Compound, OffsetBlocksEqualTheirDisjointPieces) {
  // a step: a 2 x 1 x 0.5 slab with a 1 x 1 x 1 block overlapping its right half
  const Compound step = make_compound({box_at(Vec3(2, 1, 0.5), Vec3(0, 0, 0.25)), box_at(Vec3(1, 1, 1), Vec3(0.5, 0, 0.5))});
  const MassProperties mp = mass_properties(step, 3.0);
  const MassProperties ref = sum_disjoint({mass_properties(box_at(Vec3(2, 1, 0.5), Vec3(0, 0, 0.25)), 3.0),
                                           mass_properties(box_at(Vec3(1, 1, 0.5), Vec3(0.5, 0, 0.75)), 3.0)});
  EXPECT_NEAR(mp.mass, ref.mass, 1e-12);
  EXPECT_LT((mp.centre_of_mass - ref.centre_of_mass).norm(), 1e-12);
  EXPECT_LT((mp.inertia - ref.inertia).norm(), 1e-11);
}

TEST(Compound, PartsThatOnlyTouchAddWithoutAnOverlapTerm) {
  const Compound two = make_compound({rectangle_at(1, 1, Vec2(0, 0)), rectangle_at(1, 1, Vec2(1, 0))});
  EXPECT_NEAR(mass_properties(two, 1.0).mass, 2.0, kTol);
}

TEST(Compound, BadPartsAreRejected) {
  EXPECT_THROW(make_compound({}), GeometryError);
  EXPECT_THROW(make_compound({make_rectangle(1, 1), make_box(Vec3(1, 1, 1))}), GeometryError);
  EXPECT_THROW(make_compound({make_rectangle(1, 1), HalfSpace{}}), GeometryError);
  std::vector<Shape> many(kMaxCompoundParts + 1, make_rectangle(1, 1));
  EXPECT_THROW(make_compound(many), GeometryError);
}

TEST(Compound, PenetrationAndOverlapArePartWise) {
  // the L of the first test against a small square in its concave corner
  const Shape l = make_compound({rectangle_at(1.0, 0.3, Vec2(0.0, 0.0)), rectangle_at(0.3, 1.0, Vec2(-0.35, 0.35))});
  const Shape square = make_rectangle(0.2, 0.2);
  // resting in the corner, 0.01 clear of both parts: apart, although inside both parts' hulls' union box
  const Pose clear = Pose::planar(-0.2 + 0.11, 0.15 + 0.11, 0.0);
  EXPECT_NEAR(penetration_depth(l, Pose(), square, clear), -0.01, 1e-12);
  EXPECT_EQ(intersect_shapes(l, Pose(), square, clear).measure, 0.0);
  // pushed 0.02 into the post: the post's part overlaps by 0.02 x 0.2
  const Pose into = Pose::planar(-0.2 + 0.08, 0.15 + 0.11, 0.0);
  EXPECT_NEAR(penetration_depth(l, Pose(), square, into), 0.02, 1e-12);
  EXPECT_NEAR(intersect_shapes(l, Pose(), square, into).measure, 0.02 * 0.2, 1e-12);
  EXPECT_NEAR(penetration_depth(square, into, l, Pose()), 0.02, 1e-12);
}

}  // namespace
}  // namespace pegsim
