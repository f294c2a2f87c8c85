// Penetration depth between two convex shapes, by the separating axis theorem.
//
// Independent of contact determination: it measures what a step produced. For
// convex polytopes the minimum translation distance is the smallest overlap
// of the two shapes' projections over the candidate axes: every facet normal
// of either body and every cross product of an edge of one with an edge of the
// other (3D), every edge normal of either polygon (2D). A half-space's depth
// is how far the deepest vertex is below its plane. A compound (non-convex)
// shape is measured per pair of convex parts and the deepest pair is kept:
// the overlap of the deepest part, not the minimum translation of the whole
// union (which can be larger); 0 overlap is still exactly "no part overlaps".
#pragma once

#include "geometry/shape.hpp"
#include "math/pose.hpp"

#include <limits>

namespace pegsim {

// > 0: the shapes overlap by that depth; <= 0: they are separated (its
// magnitude is then a lower bound of their distance). Pairs that cannot touch
// (two half-spaces, a 2D shape with a 3D one) give -infinity.
double penetration_depth(const Shape& a, const Pose& pa, const Shape& b, const Pose& pb);

// The axis of that minimum: B moves by depth along +normal to separate.
// a_max is A's furthest extent along the normal and b_min B's nearest, so
// depth = a_max - b_min (a half-space as A: normal its plane's normal, a_max
// its offset; as B: normal minus its plane's normal, b_min minus its offset). Where several axes give the same depth the first is
// kept: A's facets/edges, then B's, then edge pairs (3D), in index order.
struct PenetrationAxis {
  double depth = -std::numeric_limits<double>::infinity();  // as penetration_depth
  Vec3 normal = Vec3::UnitZ();  // unit, world, from A towards B (z = 0 in 2D)
  double a_max = 0.0, b_min = 0.0;
};
PenetrationAxis penetration_axis(const Shape& a, const Pose& pa, const Shape& b, const Pose& pb);

}  // namespace pegsim
