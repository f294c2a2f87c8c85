// The intersection of two shapes (geometry/intersection.hpp), dispatched on
// the pair of shape kinds through a ShapePairTable.
#include "geometry/intersection.hpp"

#include "geometry/curved_pairs.hpp"
#include "geometry/shape_pairs.hpp"

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

// bounding circles (spheres) apart: no intersection, without clipping
template <class A, class B>
bool apart(const A& a, const Pose& pa, const B& b, const Pose& pb) {
  const double reach = bounding_radius(a) + bounding_radius(b);
  return (pa.position - pb.position).squaredNorm() > reach * reach;
}

ShapeIntersection polygons(const Polygon& a, const Pose& pa, const Polygon& b, const Pose& pb) {
  if (apart(a, pa, b, pb)) return {};
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
  if (apart(a, pa, b, pb)) return {};
  ConvexCell cell = make_cell(a, pa);
  for (const PolyFace& f : b.faces) {
    if (cell.empty()) break;
    const Vec3 n = pb.rotate(f.normal);
    cell.clip(n, f.offset + n.dot(pb.position));
  }
  return of_cell(cell);
}

ShapeIntersection half_space_polyhedron(const HalfSpace& h, const Pose& ph, const Polyhedron& p, const Pose& po) {
  const auto [n, offset] = world_plane(h, ph);
  ConvexCell cell = make_cell(p, po);
  cell.clip(n, offset);
  return of_cell(cell);
}

ShapeIntersection half_space_polygon(const HalfSpace& h, const Pose& ph, const Polygon& p, const Pose& po) {
  const auto [n, offset] = world_plane(h, ph);
  if (h.normal.z() != 0.0) return {};  // a 3D half-space never touches a planar body
  std::vector<Vec2> loop;
  clip_polygon(world_loop(p, po), Vec2(n.x(), n.y()), offset, loop);
  return of_loop(loop);
}

// The table's routines and their registration (geometry/shape_pairs.hpp).
using Routine = ShapeIntersection (*)(const Shape&, const Pose&, const Shape&, const Pose&);
using Table = ShapePairTable<Routine>;
template <class A, class B>
using Typed = ShapeIntersection (*)(const A&, const Pose&, const B&, const Pose&);

template <class A, class B, Typed<A, B> F>
ShapeIntersection as_is(const Shape& a, const Pose& pa, const Shape& b, const Pose& pb) {
  return F(*std::get_if<A>(&a), pa, *std::get_if<B>(&b), pb);
}
// the intersection is symmetric: (B, A) is F with the shapes swapped
template <class A, class B, Typed<A, B> F>
ShapeIntersection swapped(const Shape& b, const Pose& pb, const Shape& a, const Pose& pa) {
  return F(*std::get_if<A>(&a), pa, *std::get_if<B>(&b), pb);
}

const Table& table() {
  static const Table t = [] {
    Table t("intersection");
    t.call<Polyhedron, Polyhedron>(&as_is<Polyhedron, Polyhedron, polyhedra>);
    t.call<Polygon, Polygon>(&as_is<Polygon, Polygon, polygons>);
    t.call<HalfSpace, Polyhedron>(&as_is<HalfSpace, Polyhedron, half_space_polyhedron>);
    t.call<Polyhedron, HalfSpace>(&swapped<HalfSpace, Polyhedron, half_space_polyhedron>);
    t.call<HalfSpace, Polygon>(&as_is<HalfSpace, Polygon, half_space_polygon>);
    t.call<Polygon, HalfSpace>(&swapped<HalfSpace, Polygon, half_space_polygon>);
    t.none<HalfSpace, HalfSpace>();
    t.none<Polyhedron, Polygon>();
    t.parts<Compound>();
    register_curved_pairs<Routine>(t, &curved_intersection);  // geometry/curved_pairs.hpp
    t.check_complete();
    return t;
  }();
  return t;
}

ShapeIntersection convex(const Shape& a, const Pose& pa, const Shape& b, const Pose& pb) {
  const Table::Entry& e = table().at(a, b);
  return e.rule == Table::Rule::Call ? e.routine(a, pa, b, pb) : ShapeIntersection{};
}

}  // namespace

ShapeIntersection intersect_shapes(const Shape& a, const Pose& pa, const Shape& b, const Pose& pb) {
  if (table().at(a, b).rule != Table::Rule::Parts) return convex(a, pa, b, pb);
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
