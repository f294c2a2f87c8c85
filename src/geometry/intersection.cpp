#include "geometry/intersection.hpp"

#include "geometry/clipping.hpp"

#include <algorithm>
#include <utility>

namespace pegsim {
namespace {

ShapeIntersection of_loop(const std::vector<Vec2>& loop) {
  ShapeIntersection r;
  r.measure = std::max(0.0, polygon_area(loop));
  if (r.measure > 0.0) r.centroid = lift(polygon_centroid(loop));
  else r.measure = 0.0;
  return r;
}

ShapeIntersection of_cell(const ConvexCell& cell) {
  ShapeIntersection r;
  r.measure = std::max(0.0, cell.volume());
  if (r.measure > 0.0) r.centroid = cell.centroid();
  return r;
}

// The plane of a half-space in world: n . x <= offset.
std::pair<Vec3, double> world_plane(const HalfSpace& h, const Pose& ph) {
  const Vec3 n = ph.rotate(h.normal);
  return {n, h.offset + n.dot(ph.position)};
}

ShapeIntersection polygons(const Polygon& a, const Pose& pa, const Polygon& b, const Pose& pb) {
  std::vector<Vec2> loop = world_loop(a, pa), next;
  const std::vector<Vec2> other = world_loop(b, pb);
  for (int e = 0; e < b.size() && !loop.empty(); ++e) {
    const Vec2 n = pb.rotate_2d(b.edge_normals[static_cast<std::size_t>(e)]);
    clip_polygon(loop, n, n.dot(other[static_cast<std::size_t>(e)]), next);
    std::swap(loop, next);
  }
  return of_loop(loop);
}

ShapeIntersection polyhedra(const Polyhedron& a, const Pose& pa, const Polyhedron& b, const Pose& pb) {
  ConvexCell cell = make_cell(a, pa);
  for (const PolyFace& f : b.faces) {
    if (cell.empty()) break;
    const Vec3 n = pb.rotate(f.normal);
    cell.clip(n, f.offset + n.dot(pb.position));
  }
  return of_cell(cell);
}

ShapeIntersection half_space(const HalfSpace& h, const Pose& ph, const Shape& other, const Pose& po) {
  const auto [n, offset] = world_plane(h, ph);
  if (const auto* p = std::get_if<Polyhedron>(&other)) {
    ConvexCell cell = make_cell(*p, po);
    cell.clip(n, offset);
    return of_cell(cell);
  }
  if (const auto* p = std::get_if<Polygon>(&other)) {
    if (h.normal.z() != 0.0) return {};  // a 3D half-space never touches a planar body
    std::vector<Vec2> loop;
    clip_polygon(world_loop(*p, po), Vec2(n.x(), n.y()), offset, loop);
    return of_loop(loop);
  }
  return {};
}

ShapeIntersection convex(const Shape& a, const Pose& pa, const Shape& b, const Pose& pb) {
  if (const auto* h = std::get_if<HalfSpace>(&a)) return half_space(*h, pa, b, pb);
  if (const auto* h = std::get_if<HalfSpace>(&b)) return half_space(*h, pb, a, pa);
  const double reach = bounding_radius(a) + bounding_radius(b);
  if ((pa.position - pb.position).squaredNorm() > reach * reach) return {};
  if (const auto* x = std::get_if<Polyhedron>(&a))
    if (const auto* y = std::get_if<Polyhedron>(&b)) return polyhedra(*x, pa, *y, pb);
  if (const auto* x = std::get_if<Polygon>(&a))
    if (const auto* y = std::get_if<Polygon>(&b)) return polygons(*x, pa, *y, pb);
  return {};
}

}  // namespace

ShapeIntersection intersect_shapes(const Shape& a, const Pose& pa, const Shape& b, const Pose& pb) {
  if (!is_compound(a) && !is_compound(b)) return convex(a, pa, b, pb);
  ShapeIntersection sum;
  Vec3 moment = Vec3::Zero();
  for (int i = 0; i < part_count(a); ++i)
    for (int j = 0; j < part_count(b); ++j) {
      const ShapeIntersection r = convex(part_of(a, i), pa, part_of(b, j), pb);
      sum.measure += r.measure;
      moment += r.measure * r.centroid;
    }
  if (sum.measure > 0.0) sum.centroid = moment / sum.measure;
  return sum;
}

}  // namespace pegsim
