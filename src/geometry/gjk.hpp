// The distance (separated) or penetration depth (overlapping) of two convex
// sets given by their support mappings: GJK (Gilbert, Johnson and Keerthi
// 1988; the closest-point subroutines of Ericson, Real-Time Collision
// Detection, 5.1.5 and 9.5) with the expanding polytope algorithm (EPA, van
// den Bergen 2001) when the sets overlap. The general method of contact
// determination for pairs with no closed form (cylinders and cones against
// other shapes, capsule cores against polytopes: collision/narrowphase_gjk.cpp).
//
// Written here rather than taken from libccd (Debian libccd-dev 2.1): libccd
// answers whether two sets intersect and how deep (ccdGJKIntersect,
// ccdGJKPenetration, ccdGJKSeparate), but not the distance and closest points
// of two sets that are apart, and time-stepping needs exactly those, a
// contact being every pair within the contact distance eps of each other
// (thesis 2.6), with gap psi > 0 the usual case. Here the distance and the
// depth come from one routine with one sign convention. Determinism: a fixed
// first direction (between the sets' centres), fixed loop orders, no hashing
// or addresses: a rerun is bit-identical.
//
// Accuracy: for polytopes GJK terminates exactly (a finite set of support
// points); for curved sets (smooth boundaries) it converges linearly and stops
// when the lower bound of the distance (v . w / |v|) is within a relative
// 1e-12, or an absolute 1e-13 of the sets' scale, of the upper bound |v|
// (van den Bergen's test). Flat simplices (boxes with nearly parallel faces,
// where D has a flat facet) are handled without losing the closest face and
// a step that does not shorten |v| keeps the previous simplex (gjk.cpp);
// tests/geometry/test_gjk.cpp checks distance, witnesses and normal against
// brute force to 1e-10 m at gaps of 1e-4 .. 1e-2 m. EPA
// stops when the support point along the nearest face's normal is within
// 1e-9 of the sets' scale of the face (a curved D's faces meet round-off
// sooner), or when round-off folds a face over (the nearest distance drops:
// the last good face is kept). Both stop after a fixed iteration count
// (converged = false then: the answer is the best bound so far).
#pragma once

#include "geometry/shape.hpp"
#include "math/pose.hpp"

namespace pegsim {

// A convex set's support mapping in world coordinates: a whole shape at a
// pose, or a segment (a point when its ends coincide: the core of a sphere
// or capsule, geometry/curved.hpp).
class SupportMapping {
 public:
  static SupportMapping shape(const Shape& s, const Pose& pose) { return SupportMapping(&s, pose, Vec3::Zero(), Vec3::Zero()); }
  static SupportMapping segment(const Vec3& p, const Vec3& q) { return SupportMapping(nullptr, Pose(), p, q); }
  // A planar set (z = 0) made a prism |z| <= half_height: two such prisms'
  // difference is their planar difference times |z| <= 2 half_height, so with
  // half_height beyond the sets' size its nearest face is a planar one, and
  // the 3D EPA answers the planar question (its normal has z = 0).
  SupportMapping& extruded(double half_height) {
    extrusion_ = half_height;
    return *this;
  }
  Vec3 operator()(const Vec3& direction) const;
  // a point inside the set (the first direction of the search)
  Vec3 centre() const;
  double scale() const;  // the set's size, for tolerances
  bool is_extruded() const { return extrusion_ > 0.0; }

 private:
  SupportMapping(const Shape* s, const Pose& pose, const Vec3& p, const Vec3& q)
      : shape_(s), pose_(pose), p_(p), q_(q) {}
  const Shape* shape_;
  Pose pose_;
  Vec3 p_, q_;
  double extrusion_ = 0.0;
};

struct ConvexDistance {
  // Signed distance: > 0 apart (their distance), <= 0 overlapping (minus the
  // penetration depth: the shortest translation of B that separates them).
  double distance = 0.0;
  Vec3 point_a = Vec3::Zero();  // on A: the closest (apart) or deepest (overlapping) point
  Vec3 point_b = Vec3::Zero();  // on B: point_b = point_a + distance * normal
  Vec3 normal = Vec3::UnitZ();  // unit, from A towards B (B moves along it to separate)
  int iterations = 0;           // GJK's plus EPA's
  bool converged = true;
};

ConvexDistance convex_distance(const SupportMapping& a, const SupportMapping& b);

// The signed distance of two bounded convex shapes at their poses (both 3D or
// both 2D; not half-spaces or compounds): a sphere's, capsule's, disc's or 2D
// capsule's core and radius (geometry/curved.hpp) stand for it, 2D shapes are
// extruded (SupportMapping::extruded). Throws GeometryError for other kinds.
ConvexDistance shape_distance(const Shape& a, const Pose& pa, const Shape& b, const Pose& pb);

}  // namespace pegsim
