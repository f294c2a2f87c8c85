// Conservative time-of-impact bounds (Mirtich and Canny 3.3: the estimator
// "takes the current dynamic state (pose and velocity) of two objects as well
// as the closest points between them, and returns a lower bound on the time
// of impact"; the bound itself is reading guide shared/notes/mirtich-canny.md
// 1.6, M5-M7, re-derived here).
//
// Closest points a on A and b on B, d = |b - a| > 0, n = (b - a)/d: A lies in
// {x : n.x <= n.a}, B in {x : n.x >= n.b} (convexity), a slab of width d fixed
// in space. Over a ballistic flight of length tau a point of A advances along n
// by at most (v_A.n) tau + 1/2 (g_A.n) tau^2 + w_A rho_A tau (w_A a bound on
// its angular speed over the flight, rho_A on the distance of its surface
// from its centre of mass: rotation about the centre of mass moves a point by
// at most w rho tau), and B's points recede at least as much the other way.
// So the bodies stay at least delta apart until the smallest positive root of
//
//     V tau + 1/2 G tau^2 = d - delta,
//     V = (v_A - v_B).n + w_A rho_A + w_B rho_B,   G = max(0, (g_A - g_B).n).
#pragma once

#include "geometry/shape.hpp"
#include "math/pose.hpp"
#include "math/types.hpp"

#include <limits>

namespace pegsim {

// How far a body's points can get over the coming flight.
struct MotionBound {
  Vec3 velocity = Vec3::Zero();      // of the centre of mass
  Vec3 acceleration = Vec3::Zero();  // constant over the flight (gravity + applied force / m)
  double spin_reach = 0.0;           // angular speed bound x radius of the part about the centre of mass (m/s)
};

// The lower bound above: +infinity when the bodies never close in (V <= 0 and
// G = 0). If d <= delta already, the target distance is d/2 (the bound stays
// positive; the caller's collision check handles the pair).
double time_of_impact_bound(double d, const Vec3& normal_ab, const MotionBound& a, const MotionBound& b,
                            double delta);

// The distance of two convex parts (or a half-space and a convex part) at
// their poses, signed (negative: the depth of overlap), with the unit normal
// from a towards b and the closest (or deepest) points. Spheres and capsules
// by their cores (geometry/gjk.hpp), half-spaces by the other part's support
// point, the rest (polytope pairs included) by GJK/EPA.
struct PartDistance {
  double distance = std::numeric_limits<double>::infinity();
  // For bounds: apart, the smaller of `distance` and the sets' separation
  // along `normal` (a lower bound of the distance for any unit normal): no
  // residue of GJK's iteration can make a time-of-impact bound pass a contact.
  double bound_distance = std::numeric_limits<double>::infinity();
  Vec3 normal = Vec3::UnitZ();  // from a towards b
  Vec3 point_a = Vec3::Zero(), point_b = Vec3::Zero();
};
PartDistance part_distance(const Shape& a, const Pose& pa, const Shape& b, const Pose& pb);

// The radius about the centre of mass that rotation can move a part's
// surface through: 0 for a sphere centred on the body's origin (its rotation
// moves no surface point off the sphere), else the part's bounding radius.
double spin_radius(const Shape& part);

}  // namespace pegsim
