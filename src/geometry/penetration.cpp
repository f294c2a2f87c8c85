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

// Keeps the smallest overlap of the projections on the candidate axes: the
// distance B must move along an axis (either way) to separate.
class AxisSearch {
 public:
  AxisSearch(const std::vector<Vec3>& a, const std::vector<Vec3>& b) : a_(a), b_(b) {}

  void consider(const Vec3& axis) {
    const Interval x = project(a_, axis), y = project(b_, axis);
    const double forward = x.hi - y.lo, backward = y.hi - x.lo;  // B moves along +axis / -axis
    const double d = std::min(forward, backward);
    if (!(d < best_.depth)) return;
    if (forward <= backward) best_ = PenetrationAxis{d, axis, x.hi, y.lo};
    else best_ = PenetrationAxis{d, -axis, -x.lo, -y.hi};
  }
  const PenetrationAxis& best() const { return best_; }

 private:
  const std::vector<Vec3>& a_;
  const std::vector<Vec3>& b_;
  PenetrationAxis best_{kInf, Vec3::UnitZ(), 0.0, 0.0};
};

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

PenetrationAxis axis(const Polyhedron& a, const Pose& pa, const Polyhedron& b, const Pose& pb) {
  const std::vector<Vec3> va = world_vertices(a, pa), vb = world_vertices(b, pb);
  AxisSearch s(va, vb);
  for (const PolyFace& f : a.faces) s.consider(pa.rotate(f.normal));
  for (const PolyFace& f : b.faces) s.consider(pb.rotate(f.normal));
  for (const PolyEdge& ea : a.edges) {
    const Vec3 da = pa.rotate(a.vertices[ea.head] - a.vertices[ea.tail]);
    for (const PolyEdge& eb : b.edges) {
      const Vec3 db = pb.rotate(b.vertices[eb.head] - b.vertices[eb.tail]);
      const Vec3 c = da.cross(db);
      // parallel edges add no axis that the facet normals do not already give
      if (c.norm() > 1e-9 * da.norm() * db.norm()) s.consider(c.normalized());
    }
  }
  return s.best();
}

PenetrationAxis axis(const Polygon& a, const Pose& pa, const Polygon& b, const Pose& pb) {
  const std::vector<Vec3> va = world_vertices(a, pa), vb = world_vertices(b, pb);
  AxisSearch s(va, vb);
  for (const Vec2& n : a.edge_normals) s.consider(pa.rotate(lift(n)));
  for (const Vec2& n : b.edge_normals) s.consider(pb.rotate(lift(n)));
  return s.best();
}

// the half-space as A
PenetrationAxis axis(const HalfSpace& h, const Pose& ph, const std::vector<Vec3>& vertices) {
  const Vec3 n = ph.rotate(h.normal);
  const double offset = h.offset + n.dot(ph.position);
  double lowest = kInf;
  for (const Vec3& v : vertices) lowest = std::min(lowest, n.dot(v));
  return PenetrationAxis{offset - lowest, n, offset, lowest};
}

PenetrationAxis axis_against_half_space(const HalfSpace& h, const Pose& ph, const Shape& other, const Pose& po) {
  if (const auto* p = std::get_if<Polyhedron>(&other)) return axis(h, ph, world_vertices(*p, po));
  if (const auto* p = std::get_if<Polygon>(&other)) {
    if (h.normal.z() != 0.0) return {};  // a 3D half-space never touches a planar body
    return axis(h, ph, world_vertices(*p, po));
  }
  return {};
}

PenetrationAxis convex_axis(const Shape& a, const Pose& pa, const Shape& b, const Pose& pb) {
  if (const auto* h = std::get_if<HalfSpace>(&a)) return axis_against_half_space(*h, pa, b, pb);
  if (const auto* h = std::get_if<HalfSpace>(&b)) {
    PenetrationAxis r = axis_against_half_space(*h, pb, a, pa);  // computed with the half-space as A
    r.normal = -r.normal;
    const double a_max = -r.b_min;
    r.b_min = -r.a_max;
    r.a_max = a_max;
    return r;
  }
  if (const auto* x = std::get_if<Polyhedron>(&a))
    if (const auto* y = std::get_if<Polyhedron>(&b)) return axis(*x, pa, *y, pb);
  if (const auto* x = std::get_if<Polygon>(&a))
    if (const auto* y = std::get_if<Polygon>(&b)) return axis(*x, pa, *y, pb);
  return {};
}

}  // namespace

PenetrationAxis penetration_axis(const Shape& a, const Pose& pa, const Shape& b, const Pose& pb) {
  if (!is_compound(a) && !is_compound(b)) return convex_axis(a, pa, b, pb);
  PenetrationAxis deepest;
  for (int i = 0; i < part_count(a); ++i)
    for (int j = 0; j < part_count(b); ++j) {
      const PenetrationAxis r = convex_axis(part_of(a, i), pa, part_of(b, j), pb);
      if (r.depth > deepest.depth) deepest = r;
    }
  return deepest;
}

double penetration_depth(const Shape& a, const Pose& pa, const Shape& b, const Pose& pb) {
  return penetration_axis(a, pa, b, pb).depth;
}

}  // namespace pegsim
