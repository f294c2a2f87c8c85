// cone_hull of bench_scene.hpp: the cone as a hull, for MuJoCo and ODE, which have no cone.
#include "bench_scene.hpp"

#include <algorithm>
#include <cmath>

namespace pegsim::bench {

BenchPart cone_hull(const BenchPart& cone, int sides) {
  BenchPart hull;
  hull.kind = BenchPart::Kind::Hull;
  const double pi = std::acos(-1.0);
  // rim point j (at angle 2 pi j / sides) is vertex slot[j]: the rim is listed in bit-reversed order
  // (0, 16, 8, 24, ... of 32), so that any first few vertices spread around it. ODE's convex-plane
  // collider keeps the first contacts it finds, up to the cap (8): in rim order those would be one
  // side of a cone standing on its base, which then walks sideways
  int bits = 0;
  while ((1 << bits) < sides) ++bits;
  std::vector<int> order(static_cast<std::size_t>(sides));
  for (int j = 0; j < sides; ++j) order[static_cast<std::size_t>(j)] = j;
  const auto reversed = [bits](int j) {
    int r = 0;
    for (int b = 0; b < bits; ++b) r |= ((j >> b) & 1) << (bits - 1 - b);
    return r;
  };
  std::sort(order.begin(), order.end(), [&](int a, int b) { return reversed(a) < reversed(b); });
  std::vector<int> slot(static_cast<std::size_t>(sides));
  for (int k = 0; k < sides; ++k) slot[static_cast<std::size_t>(order[static_cast<std::size_t>(k)])] = k;
  for (int j : order) {
    const double angle = 2 * pi * j / sides;
    hull.vertices.push_back(cone.offset.to_world(Vec3(cone.radius * std::cos(angle), cone.radius * std::sin(angle), 0.0)));
  }
  hull.vertices.push_back(cone.offset.to_world(Vec3(0.0, 0.0, cone.length)));  // the apex, vertex `sides`
  // the facets, counter-clockwise seen from outside: the base seen from below, then each side triangle
  std::vector<int> base;
  for (int j = sides - 1; j >= 0; --j) base.push_back(slot[static_cast<std::size_t>(j)]);
  hull.faces.push_back(base);
  for (int j = 0; j < sides; ++j)
    hull.faces.push_back({slot[static_cast<std::size_t>(j)], slot[static_cast<std::size_t>((j + 1) % sides)], sides});
  for (const std::vector<int>& f : hull.faces) {
    const Vec3 &a = hull.vertices[static_cast<std::size_t>(f[0])], &b = hull.vertices[static_cast<std::size_t>(f[1])],
               &c = hull.vertices[static_cast<std::size_t>(f[2])];
    const Vec3 n = (b - a).cross(c - a).normalized();
    hull.face_normals.push_back(n);
    hull.face_offsets.push_back(n.dot(a));
  }
  return hull;
}

}  // namespace pegsim::bench
