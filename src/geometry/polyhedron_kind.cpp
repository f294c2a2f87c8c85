// The polyhedron's shape-kind operations (geometry/shape_kind.hpp): support
// point, world box and surface mesh. A convex polytope's support point along
// d is a vertex maximising d . v (the support function h(d) = max over the
// vertices, the farthest point of a convex hull being one of its vertices).
#include "geometry/polyhedron.hpp"

namespace pegsim {

Vec3 support(const Polyhedron& p, const Vec3& direction) {
  std::size_t best = 0;
  double reach = direction.dot(p.vertices.front());
  for (std::size_t i = 1; i < p.vertices.size(); ++i) {
    const double d = direction.dot(p.vertices[i]);
    if (d > reach) reach = d, best = i;
  }
  return p.vertices[best];
}

Aabb world_bounds(const Polyhedron& p, const Pose& pose) {
  Aabb box = Aabb::empty();
  const Mat3 R = pose.orientation.toRotationMatrix();
  for (const Vec3& v : p.vertices) box.grow(R * v + pose.position);
  return box;
}

void append_mesh(const Polyhedron& p, ShapeMesh& mesh) {
  const int base = static_cast<int>(mesh.vertices.size());
  mesh.vertices.insert(mesh.vertices.end(), p.vertices.begin(), p.vertices.end());
  for (const auto& t : p.triangles) mesh.triangles.push_back({base + t[0], base + t[1], base + t[2]});
  for (const PolyFace& f : p.faces) {
    std::vector<int>& loop = mesh.facets.emplace_back();
    for (int i : f.loop) loop.push_back(base + i);
    mesh.facet_normals.push_back(f.normal);
  }
}

}  // namespace pegsim
