// Shared fixtures of the 2D collision tests: a pool of random convex polygons
// and planar poses.
#pragma once

#include "common/sampler.hpp"
#include "geometry/polygon.hpp"
#include "math/pose.hpp"

#include <cmath>
#include <exception>
#include <vector>

namespace pegsim::test {

inline std::vector<Polygon> polygon_pool() {
  std::vector<Polygon> pool;
  Sampler rng(4242);
  for (int i = 0; i < 30; ++i) {
    const int n = rng.integer(3, 12);
    const Vec2 scale(rng.uniform(0.2, 0.7), rng.uniform(0.2, 0.7));
    const Vec2 shift = (i % 4 == 3) ? rng.in_disc(0.5) : Vec2::Zero();
    for (;;) {
      std::vector<Vec2> pts;
      for (int k = 0; k < n; ++k) pts.push_back(rng.in_disc(1.0).cwiseProduct(scale) + shift);
      try {
        pool.push_back(polygon_hull(pts));
        break;
      } catch (const std::exception&) {
      }
    }
  }
  pool.push_back(make_rectangle(1.0, 1.0));
  pool.push_back(make_rectangle(2.0, 0.5));
  pool.push_back(make_regular_polygon(6, 0.5));
  return pool;
}

// World vertex from the planar pose parameters, computed independently of Pose.
inline Vec2 world2(double x, double y, double th, const Vec2& v) {
  return Vec2(x + std::cos(th) * v.x() - std::sin(th) * v.y(), y + std::sin(th) * v.x() + std::cos(th) * v.y());
}

struct Planar {
  double x, y, th;
  Pose pose() const { return Pose::planar(x, y, th); }
};

}  // namespace pegsim::test
