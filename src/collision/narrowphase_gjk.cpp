// The general curved pair (collision/narrowphase_curved.hpp): any two convex
// shapes by GJK / EPA (geometry/gjk.hpp), one contact at the closest (or
// deepest) points. A round kind (sphere, capsule) enters by its core, a point
// or segment, and its radius is taken off the distance afterwards: exact, and
// GJK then meets a polytope-like set (a segment) instead of a ball, and EPA
// is needed only when the cores themselves overlap.
//
// Used for cylinders and cones against spheres, capsules, cylinders and
// cones, and against a polyhedron's edges and corners (a facet they face gives
// rim points: narrowphase_rim.cpp). One contact per pair: a cylinder standing
// on another's flat face is held at one point per step, which can rock it.
#include "collision/narrowphase_curved.hpp"
#include "geometry/gjk.hpp"

namespace pegsim {

void convex_pair(const BodyGeometry& a, const BodyGeometry& b, const NarrowphaseParams& params,
                 std::vector<Contact>& out) {
  const double reach = bounding_radius(*a.shape) + bounding_radius(*b.shape) + params.eps;
  if ((a.pose.position - b.pose.position).squaredNorm() > reach * reach) return;  // bounding spheres apart
  const ConvexDistance d = shape_distance(*a.shape, a.pose, *b.shape, b.pose);
  if (d.distance <= params.eps) out.push_back(curved_contact(a, b, d.point_a, d.normal, d.distance, 0));
}

}  // namespace pegsim
