// Dense samples of the surfaces (boundaries) of the curved kinds and of
// polytopes, body frame: the brute force the curved shapes' support points,
// distances and closest points are checked against. A regular grid in the
// surface's own parameters (angle, height), `n` steps around; the spacing on
// a surface of radius r is about 2 pi r / n, so a distance found by sampling
// is within (spacing)^2 / (8 r) or so of the exact one (the sagitta).
#pragma once

#include "geometry/shape.hpp"

#include <cmath>
#include <numbers>
#include <vector>

namespace pegsim::test {

namespace curved_detail {
inline void ring(std::vector<Vec3>& out, const Vec3& c, double r, double z, int n) {
  for (int j = 0; j < n; ++j) {
    const double a = 2.0 * std::numbers::pi * j / n;
    out.push_back(c + Vec3(r * std::cos(a), r * std::sin(a), z));
  }
}
// a ball's surface about c (n around, n / 2 from pole to pole); only the half z >= 0 / z <= 0 with half = +1 / -1
inline void ball(std::vector<Vec3>& out, const Vec3& c, double r, int n, int half) {
  const int rings = n / 2;
  for (int k = 0; k <= rings; ++k) {
    const double phi = std::numbers::pi * k / rings;  // from +z
    const double z = r * std::cos(phi);
    if ((half > 0 && z < 0.0) || (half < 0 && z > 0.0)) continue;
    if (k == 0 || k == rings) out.push_back(c + Vec3(0, 0, z));
    else ring(out, c, r * std::sin(phi), z, n);
  }
}
// a filled disc of radius r at height z about c (rings every r / m)
inline void disc(std::vector<Vec3>& out, const Vec3& c, double r, double z, int n) {
  const int m = n / 4;
  for (int k = 1; k <= m; ++k) ring(out, c, r * k / m, z, n);
  out.push_back(c + Vec3(0, 0, z));
}
}  // namespace curved_detail

// Points of the shape's boundary, body frame (a 2D shape's outline in z = 0).
inline std::vector<Vec3> surface_points(const Shape& s, int n) {
  using namespace curved_detail;
  std::vector<Vec3> out;
  if (const auto* k = std::get_if<Sphere>(&s)) {
    ball(out, k->centre, k->radius, n, 0);
  } else if (const auto* k = std::get_if<Capsule>(&s)) {
    ball(out, k->centre + Vec3(0, 0, 0.5 * k->length), k->radius, n, 1);
    ball(out, k->centre - Vec3(0, 0, 0.5 * k->length), k->radius, n, -1);
    for (int i = 0; i <= n / 2; ++i) ring(out, k->centre, k->radius, k->length * (static_cast<double>(i) / (n / 2) - 0.5), n);
  } else if (const auto* k = std::get_if<Cylinder>(&s)) {
    for (int i = 0; i <= n / 2; ++i) ring(out, k->centre, k->radius, k->height * (static_cast<double>(i) / (n / 2) - 0.5), n);
    disc(out, k->centre, k->radius, 0.5 * k->height, n);
    disc(out, k->centre, k->radius, -0.5 * k->height, n);
  } else if (const auto* k = std::get_if<Cone>(&s)) {
    for (int i = 0; i < n / 2; ++i) {
      const double t = static_cast<double>(i) / (n / 2);
      ring(out, k->centre, k->radius * (1.0 - t), k->height * t, n);
    }
    out.push_back(k->centre + Vec3(0, 0, k->height));
    disc(out, k->centre, k->radius, 0.0, n);
  } else if (const auto* k = std::get_if<Disc>(&s)) {
    ring(out, k->centre, k->radius, 0.0, n);
  } else if (const auto* k = std::get_if<Capsule2d>(&s)) {
    for (int j = 0; j < n; ++j) {
      const double a = 2.0 * std::numbers::pi * j / n;
      const Vec3 u(std::cos(a), std::sin(a), 0.0);
      out.push_back(k->centre + Vec3((u.x() >= 0 ? 0.5 : -0.5) * k->length, 0, 0) + k->radius * u);
    }
    for (int i = 0; i <= n; ++i)
      for (double y : {k->radius, -k->radius})
        out.push_back(k->centre + Vec3(k->length * (static_cast<double>(i) / n - 0.5), y, 0));
  } else if (const auto* p = std::get_if<Polyhedron>(&s)) {  // facets filled by their fan triangles
    for (const auto& t : p->triangles) {
      const Vec3 &a = p->vertices[t[0]], &b = p->vertices[t[1]], &c = p->vertices[t[2]];
      for (int i = 0; i <= n; ++i)
        for (int j = 0; i + j <= n; ++j)
          out.push_back(a + (b - a) * (static_cast<double>(i) / n) + (c - a) * (static_cast<double>(j) / n));
    }
  } else if (const auto* p = std::get_if<Polygon>(&s)) {
    for (int e = 0; e < p->size(); ++e)
      for (int i = 0; i < n; ++i)
        out.push_back(lift(p->vertices[e] + (p->vertices[p->next(e)] - p->vertices[e]) * (static_cast<double>(i) / n)));
  }
  return out;
}

// The brute-force distance of two shapes' sampled surfaces at their poses
// (the smallest distance between sample points; > the true distance by at
// most about the sampling's spacing when the shapes are apart).
inline double sampled_distance(const std::vector<Vec3>& a, const Pose& pa, const std::vector<Vec3>& b, const Pose& pb) {
  double best = INFINITY;
  std::vector<Vec3> wb;
  wb.reserve(b.size());
  for (const Vec3& y : b) wb.push_back(pb.to_world(y));
  for (const Vec3& x : a) {
    const Vec3 wx = pa.to_world(x);
    for (const Vec3& y : wb) best = std::min(best, (wx - y).squaredNorm());
  }
  return std::sqrt(best);
}

}  // namespace pegsim::test
