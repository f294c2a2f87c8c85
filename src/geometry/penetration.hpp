// Penetration depth between two convex shapes, by the separating axis theorem.
//
// Independent of contact determination: it measures what a step produced. For
// convex polytopes the minimum translation distance is the smallest overlap
// of the two shapes' projections over the candidate axes: every facet normal
// of either body and every cross product of an edge of one with an edge of the
// other (3D), every edge normal of either polygon (2D). A half-space's depth
// is how far the deepest vertex is below its plane.
#pragma once

#include "geometry/shape.hpp"
#include "math/pose.hpp"

namespace pegsim {

// > 0: the shapes overlap by that depth; <= 0: they are separated (its
// magnitude is then a lower bound of their distance). Pairs that cannot touch
// (two half-spaces, a 2D shape with a 3D one) give -infinity.
double penetration_depth(const Shape& a, const Pose& pa, const Shape& b, const Pose& pb);

}  // namespace pegsim
