// The intersection of two shapes at their poses: its area (2D) or volume (3D)
// and its centroid (thesis 5.2.3-5.2.4, the "area of overlap" and "overlap
// volume"). Computed by clipping (geometry/clipping.hpp), independently of
// contact determination and of the separating axis test:
// - two polygons: the first clipped by every edge line of the second;
// - two polyhedra: the first's face list clipped by every face plane of the
//   second;
// - a half-space (half-plane) and a body: the body clipped by its plane.
// Shapes that cannot touch (two half-spaces, a polygon with a polyhedron, a
// half-space whose normal leaves the z = 0 plane with a polygon) and shapes
// whose bounding circles/spheres are apart give measure 0.
// A compound shape (geometry/shape.hpp) is measured as the sum over pairs of
// convex parts: an upper bound of the union's overlap (a region where two
// overlapping parts of one body both meet the other body counts twice), exact
// when no such region exists, and 0 exactly when no parts overlap.
#pragma once

#include "geometry/shape.hpp"
#include "math/pose.hpp"

namespace pegsim {

struct ShapeIntersection {
  double measure = 0.0;           // area (m^2) or volume (m^3), >= 0
  Vec3 centroid = Vec3::Zero();   // world; z = 0 in 2D; meaningful when measure > 0
};

ShapeIntersection intersect_shapes(const Shape& a, const Pose& pa, const Shape& b, const Pose& pb);

}  // namespace pegsim
