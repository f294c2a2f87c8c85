// The polygon's shape-kind operations (geometry/shape_kind.hpp): support
// point, world box and surface mesh. A convex polygon's support point along
// d is a vertex maximising d . v (thesis 3.5: the polygon is the convex hull
// of its vertices).
#include "geometry/polygon.hpp"

namespace pegsim {

Vec3 support(const Polygon& p, const Vec3& direction) {
  const Vec2 d(direction.x(), direction.y());
  std::size_t best = 0;
  double reach = d.dot(p.vertices.front());
  for (std::size_t i = 1; i < p.vertices.size(); ++i) {
    const double r = d.dot(p.vertices[i]);
    if (r > reach) reach = r, best = i;
  }
  return lift(p.vertices[best]);
}

Aabb world_bounds(const Polygon& p, const Pose& pose) {
  Aabb box = Aabb::empty();
  for (const Vec2& v : p.vertices) box.grow(lift(pose.to_world_2d(v)));
  return box;
}

void append_mesh(const Polygon& p, ShapeMesh& mesh) {
  const int base = static_cast<int>(mesh.vertices.size());
  std::vector<int>& loop = mesh.facets.emplace_back();
  for (int i = 0; i < p.size(); ++i) {
    mesh.vertices.push_back(lift(p.vertices[static_cast<std::size_t>(i)]));
    loop.push_back(base + i);
    if (i >= 2) mesh.triangles.push_back({base, base + i - 1, base + i});
  }
  mesh.facet_normals.push_back(Vec3::UnitZ());
}

}  // namespace pegsim
