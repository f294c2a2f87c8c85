#include "geometry/penetration.hpp"

#include <algorithm>
#include <limits>
#include <vector>

namespace pegsim {
namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

struct Interval {
  double lo = kInf, hi = -kInf;
};

Interval project(const std::vector<Vec3>& points, const Vec3& axis) {
  Interval s;
  for (const Vec3& p : points) {
    const double d = axis.dot(p);
    s.lo = std::min(s.lo, d);
    s.hi = std::max(s.hi, d);
  }
  return s;
}

// overlap of the projections on one axis: the distance B must move along the
// axis (either way) to separate
double overlap(const std::vector<Vec3>& a, const std::vector<Vec3>& b, const Vec3& axis) {
  const Interval x = project(a, axis), y = project(b, axis);
  return std::min(x.hi - y.lo, y.hi - x.lo);
}

std::vector<Vec3> world_vertices(const Polyhedron& p, const Pose& pose) {
  std::vector<Vec3> out;
  out.reserve(p.vertices.size());
  for (const Vec3& v : p.vertices) out.push_back(pose.to_world(v));
  return out;
}

std::vector<Vec3> world_vertices(const Polygon& p, const Pose& pose) {
  std::vector<Vec3> out;
  out.reserve(p.vertices.size());
  for (const Vec2& v : p.vertices) out.push_back(pose.to_world(lift(v)));
  return out;
}

double depth(const Polyhedron& a, const Pose& pa, const Polyhedron& b, const Pose& pb) {
  const std::vector<Vec3> va = world_vertices(a, pa), vb = world_vertices(b, pb);
  double d = kInf;
  for (const PolyFace& f : a.faces) d = std::min(d, overlap(va, vb, pa.rotate(f.normal)));
  for (const PolyFace& f : b.faces) d = std::min(d, overlap(va, vb, pb.rotate(f.normal)));
  for (const PolyEdge& ea : a.edges) {
    const Vec3 da = pa.rotate(a.vertices[ea.head] - a.vertices[ea.tail]);
    for (const PolyEdge& eb : b.edges) {
      const Vec3 db = pb.rotate(b.vertices[eb.head] - b.vertices[eb.tail]);
      const Vec3 c = da.cross(db);
      // parallel edges add no axis that the facet normals do not already give
      if (c.norm() > 1e-9 * da.norm() * db.norm()) d = std::min(d, overlap(va, vb, c.normalized()));
    }
  }
  return d;
}

double depth(const Polygon& a, const Pose& pa, const Polygon& b, const Pose& pb) {
  const std::vector<Vec3> va = world_vertices(a, pa), vb = world_vertices(b, pb);
  double d = kInf;
  for (const Vec2& n : a.edge_normals) d = std::min(d, overlap(va, vb, pa.rotate(lift(n))));
  for (const Vec2& n : b.edge_normals) d = std::min(d, overlap(va, vb, pb.rotate(lift(n))));
  return d;
}

double depth(const HalfSpace& h, const Pose& ph, const std::vector<Vec3>& vertices) {
  const Vec3 n = ph.rotate(h.normal);
  const double offset = h.offset + n.dot(ph.position);
  double deepest = -kInf;
  for (const Vec3& v : vertices) deepest = std::max(deepest, offset - n.dot(v));
  return deepest;
}

double depth_against_half_space(const HalfSpace& h, const Pose& ph, const Shape& other, const Pose& po) {
  if (const auto* p = std::get_if<Polyhedron>(&other)) return depth(h, ph, world_vertices(*p, po));
  if (const auto* p = std::get_if<Polygon>(&other)) {
    if (h.normal.z() != 0.0) return -kInf;  // a 3D half-space never touches a planar body
    return depth(h, ph, world_vertices(*p, po));
  }
  return -kInf;
}

}  // namespace

double penetration_depth(const Shape& a, const Pose& pa, const Shape& b, const Pose& pb) {
  if (const auto* h = std::get_if<HalfSpace>(&a)) return depth_against_half_space(*h, pa, b, pb);
  if (const auto* h = std::get_if<HalfSpace>(&b)) return depth_against_half_space(*h, pb, a, pa);
  if (const auto* x = std::get_if<Polyhedron>(&a))
    if (const auto* y = std::get_if<Polyhedron>(&b)) return depth(*x, pa, *y, pb);
  if (const auto* x = std::get_if<Polygon>(&a))
    if (const auto* y = std::get_if<Polygon>(&b)) return depth(*x, pa, *y, pb);
  return -kInf;
}

}  // namespace pegsim
