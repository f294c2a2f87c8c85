// Distance primitives (thesis Algorithms 3, 4, 7, and point-triangle).
#pragma once

#include "math/types.hpp"

namespace pegsim {

inline double clamp_unit(double t, double lo = 0.0, double hi = 1.0) {  // Algorithm 4
  return t < lo ? lo : (t > hi ? hi : t);
}

// Algorithm 3: nearest point on segment [a, b] to c (2D and 3D).
Vec3 closest_point_on_segment(const Vec3& a, const Vec3& b, const Vec3& c, double* t_out = nullptr);
Vec2 closest_point_on_segment(const Vec2& a, const Vec2& b, const Vec2& c, double* t_out = nullptr);

// Nearest point on triangle (a, b, c) to p (Voronoi-region walk).
Vec3 closest_point_on_triangle(const Vec3& a, const Vec3& b, const Vec3& c, const Vec3& p);

struct SegmentPair {
  Vec3 c1, c2;    // nearest points on segment 1 and 2
  double s, t;    // parameters along each, in [0, 1]
  double distance;
};
// Algorithm 7: nearest points between segments [p1, q1] and [p2, q2].
SegmentPair closest_points_segments(const Vec3& p1, const Vec3& q1, const Vec3& p2, const Vec3& q2);

}  // namespace pegsim
