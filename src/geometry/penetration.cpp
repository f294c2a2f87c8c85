// Penetration depth by the separating axis theorem (geometry/penetration.hpp),
// dispatched on the pair of shape kinds through a ShapePairTable.
#include "geometry/penetration.hpp"

#include "geometry/curved_pairs.hpp"
#include "geometry/shape_pairs.hpp"

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

PenetrationAxis half_space_polyhedron(const HalfSpace& h, const Pose& ph, const Polyhedron& p, const Pose& po) {
  return axis(h, ph, world_vertices(p, po));
}

PenetrationAxis half_space_polygon(const HalfSpace& h, const Pose& ph, const Polygon& p, const Pose& po) {
  if (h.normal.z() != 0.0) return {};  // a 3D half-space never touches a planar body
  return axis(h, ph, world_vertices(p, po));
}

// The table's routines and their registration (geometry/shape_pairs.hpp).
using Routine = PenetrationAxis (*)(const Shape&, const Pose&, const Shape&, const Pose&);
using Table = ShapePairTable<Routine>;
template <class A, class B>
using Typed = PenetrationAxis (*)(const A&, const Pose&, const B&, const Pose&);

template <class A, class B, Typed<A, B> F>
PenetrationAxis as_is(const Shape& a, const Pose& pa, const Shape& b, const Pose& pb) {
  return F(*std::get_if<A>(&a), pa, *std::get_if<B>(&b), pb);
}
// F written for (A, B) serving (B, A): computed with the shapes swapped, then
// turned round (the normal reversed, the extents exchanged and negated)
template <class A, class B, Typed<A, B> F>
PenetrationAxis swapped(const Shape& b, const Pose& pb, const Shape& a, const Pose& pa) {
  PenetrationAxis r = F(*std::get_if<A>(&a), pa, *std::get_if<B>(&b), pb);
  r.normal = -r.normal;
  const double a_max = -r.b_min;
  r.b_min = -r.a_max;
  r.a_max = a_max;
  return r;
}

const Table& table() {
  static const Table t = [] {
    Table t("penetration");
    t.call<Polyhedron, Polyhedron>(&as_is<Polyhedron, Polyhedron, axis>);
    t.call<Polygon, Polygon>(&as_is<Polygon, Polygon, axis>);
    t.call<HalfSpace, Polyhedron>(&as_is<HalfSpace, Polyhedron, half_space_polyhedron>);
    t.call<Polyhedron, HalfSpace>(&swapped<HalfSpace, Polyhedron, half_space_polyhedron>);
    t.call<HalfSpace, Polygon>(&as_is<HalfSpace, Polygon, half_space_polygon>);
    t.call<Polygon, HalfSpace>(&swapped<HalfSpace, Polygon, half_space_polygon>);
    t.none<HalfSpace, HalfSpace>();
    t.none<Polyhedron, Polygon>();
    t.parts<Compound>();
    register_curved_pairs<Routine>(t, &curved_penetration);  // geometry/curved_pairs.hpp
    t.check_complete();
    return t;
  }();
  return t;
}

PenetrationAxis convex_axis(const Shape& a, const Pose& pa, const Shape& b, const Pose& pb) {
  const Table::Entry& e = table().at(a, b);
  return e.rule == Table::Rule::Call ? e.routine(a, pa, b, pb) : PenetrationAxis{};
}

}  // namespace

PenetrationAxis penetration_axis(const Shape& a, const Pose& pa, const Shape& b, const Pose& pb) {
  if (table().at(a, b).rule != Table::Rule::Parts) return convex_axis(a, pa, b, pb);
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
