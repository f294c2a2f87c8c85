// Distance primitives: point-segment (thesis Algorithm 3, with the clamp of
// Algorithm 4), point-triangle (the POINT-TRIANGLE-3D that Algorithm 6 uses but
// the thesis leaves undefined), and segment-segment (Algorithm 7).
#include "geometry/distance.hpp"

#include <algorithm>
#include <cmath>

namespace pegsim {

namespace {

// Algorithm 3, written once for both dimensions. The thesis pseudo-code divides
// c - a by e . e with e already normalised; the intended parameter is the
// projection t = (c - a) . (b - a) / |b - a|^2, clamped to [0, 1] (Algorithm 4).
// A zero-length segment is the point a (t = 0).
template <class V>
V point_segment(const V& a, const V& b, const V& c, double* t_out) {
  const V ab = b - a;
  const double len2 = ab.squaredNorm();
  double t = 0.0;
  if (len2 > 0.0) t = clamp_unit((c - a).dot(ab) / len2);
  if (t_out != nullptr) *t_out = t;
  // Exact end points at the clamps, so a + t (b - a) cannot round past b.
  if (t <= 0.0) return a;
  if (t >= 1.0) return b;
  return a + t * ab;
}

}  // namespace

Vec3 closest_point_on_segment(const Vec3& a, const Vec3& b, const Vec3& c, double* t_out) {
  return point_segment(a, b, c, t_out);
}

Vec2 closest_point_on_segment(const Vec2& a, const Vec2& b, const Vec2& c, double* t_out) {
  return point_segment(a, b, c, t_out);
}

// Point-triangle by walking the Voronoi regions of the triangle's features:
// the three vertex regions, the three edge regions, then the face region.
// Each region test uses the dot products of p - vertex with the two edge
// vectors, so the regions are tested without forming the triangle normal.
// A degenerate (zero-area) triangle falls back to its three edges.
Vec3 closest_point_on_triangle(const Vec3& a, const Vec3& b, const Vec3& c, const Vec3& p) {
  const Vec3 ab = b - a;
  const Vec3 ac = c - a;
  const double area2 = ab.cross(ac).squaredNorm();
  const double scale2 = std::max({ab.squaredNorm(), ac.squaredNorm(), (c - b).squaredNorm()});
  if (!(area2 > 1e-24 * scale2 * scale2)) {
    // Degenerate: the nearest point of the union of the three edges.
    const Vec3 cands[3] = {closest_point_on_segment(a, b, p), closest_point_on_segment(b, c, p),
                           closest_point_on_segment(c, a, p)};
    int best = 0;
    for (int i = 1; i < 3; ++i)
      if ((cands[i] - p).squaredNorm() < (cands[best] - p).squaredNorm()) best = i;
    return cands[best];
  }

  // Vertex region of a.
  const Vec3 ap = p - a;
  const double d1 = ab.dot(ap);
  const double d2 = ac.dot(ap);
  if (d1 <= 0.0 && d2 <= 0.0) return a;

  // Vertex region of b.
  const Vec3 bp = p - b;
  const double d3 = ab.dot(bp);
  const double d4 = ac.dot(bp);
  if (d3 >= 0.0 && d4 <= d3) return b;

  // Edge region of ab: the barycentric weight of c is negative and p projects
  // inside [a, b].
  const double vc = d1 * d4 - d3 * d2;
  if (vc <= 0.0 && d1 >= 0.0 && d3 <= 0.0) {
    const double v = d1 / (d1 - d3);
    return a + v * ab;
  }

  // Vertex region of c.
  const Vec3 cp = p - c;
  const double d5 = ab.dot(cp);
  const double d6 = ac.dot(cp);
  if (d6 >= 0.0 && d5 <= d6) return c;

  // Edge region of ac.
  const double vb = d5 * d2 - d1 * d6;
  if (vb <= 0.0 && d2 >= 0.0 && d6 <= 0.0) {
    const double w = d2 / (d2 - d6);
    return a + w * ac;
  }

  // Edge region of bc.
  const double va = d3 * d6 - d5 * d4;
  if (va <= 0.0 && (d4 - d3) >= 0.0 && (d5 - d6) >= 0.0) {
    const double w = (d4 - d3) / ((d4 - d3) + (d5 - d6));
    return b + w * (c - b);
  }

  // Face region: barycentric coordinates (u, v, w) = (va, vb, vc) / sum.
  const double denom = 1.0 / (va + vb + vc);
  const double v = vb * denom;
  const double w = vc * denom;
  return a + v * ab + w * ac;
}

// Algorithm 7. Minimises |(p1 + s d1) - (p2 + t d2)|^2 over [0, 1]^2.
// With r = p1 - p2 the stationarity conditions are
//   a s - b t = -c,   b s - e t = -f,
// where a = d1.d1, b = d1.d2, c = d1.r (the `c` the thesis pseudo-code uses
// without defining), e = d2.d2, f = d2.r.
// Robustness additions to the thesis listing:
// - the case "segment 2 is a point, segment 1 is not" (the listing divides by
//   e = 0 there);
// - exactly parallel segments (a e - b^2 = 0): s = 0, and the clamping of t
//   with the re-projection of s finds the overlap's end, a true minimiser;
// - nearly parallel segments (sin^2 of the angle below 1e-6): the 2x2 solve
//   amplifies rounding by 1 / sin^2 and can land away from the optimum along
//   the flat valley of the distance, so the result is compared with the four
//   box-boundary candidates (each end point projected onto the other
//   segment) and the nearest pair kept. The minimum of a convex quadratic
//   over [0,1]^2 is interior or on that boundary, so this is exact up to
//   rounding in either case.
SegmentPair closest_points_segments(const Vec3& p1, const Vec3& q1, const Vec3& p2, const Vec3& q2) {
  const Vec3 d1 = q1 - p1;
  const Vec3 d2 = q2 - p2;
  const Vec3 r = p1 - p2;
  const double a = d1.dot(d1);
  const double e = d2.dot(d2);
  const double f = d2.dot(r);

  auto make = [&](double s, double t) {
    SegmentPair out;
    out.s = s;
    out.t = t;
    out.c1 = s >= 1.0 ? q1 : p1 + s * d1;  // exact end points at the clamps
    out.c2 = t >= 1.0 ? q2 : p2 + t * d2;
    out.distance = (out.c1 - out.c2).norm();
    return out;
  };

  if (a <= 0.0 && e <= 0.0) return make(0.0, 0.0);  // both segments are points
  if (a <= 0.0) return make(0.0, clamp_unit(f / e));  // segment 1 is a point
  const double c = d1.dot(r);
  if (e <= 0.0) return make(clamp_unit(-c / a), 0.0);  // segment 2 is a point

  const double b = d1.dot(d2);
  const double denom = a * e - b * b;  // >= 0 (Cauchy-Schwarz), = a e sin^2
  double s = 0.0;
  if (denom > 0.0) s = clamp_unit((b * f - c * e) / denom);
  // Nearest point on line 2 to segment 1's point s, then clamp to the segment
  // and re-project onto segment 1 (Algorithm 7's two branches).
  double t = (b * s + f) / e;
  if (t < 0.0) {
    t = 0.0;
    s = clamp_unit(-c / a);
  } else if (t > 1.0) {
    t = 1.0;
    s = clamp_unit((b - c) / a);
  }
  SegmentPair best = make(s, t);
  if (denom > 1e-6 * a * e) return best;

  // Nearly parallel: keep the nearest of the boundary candidates too, in a
  // fixed order (ties keep the earlier one).
  const SegmentPair candidates[4] = {make(0.0, clamp_unit(f / e)), make(1.0, clamp_unit((b + f) / e)),
                                     make(clamp_unit(-c / a), 0.0), make(clamp_unit((b - c) / a), 1.0)};
  for (const SegmentPair& cand : candidates)
    if (cand.distance < best.distance) best = cand;
  return best;
}

}  // namespace pegsim
