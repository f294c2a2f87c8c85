// Compound (non-convex) shapes: construction, the compound's shape-kind
// operations (geometry/shape_kind.hpp: over its parts), and the mass
// properties of the union of overlapping convex parts (thesis 4.5).
//
// Mass of a union by inclusion-exclusion: for parts P_1..P_n,
//   int over (P_1 u ... u P_n) f = sum over non-empty S of (-1)^(|S|+1) int over (n_{i in S} P_i) f
// for f = 1, x and x x^T (mass, first and second moment), each additive over
// regions. Every intersection of convex parts is convex, so it is computed by
// clipping (geometry/clipping.hpp) and measured with the convex formulas of
// mass_properties.cpp. Subsets are enumerated depth first; a subset whose
// intersection is empty prunes all its supersets, so parts that overlap only
// their neighbours cost O(n) intersections, not 2^n.
#include "geometry/clipping.hpp"
#include "geometry/mass_properties.hpp"
#include "geometry/shape.hpp"

#include <cmath>
#include <string>

namespace pegsim {

namespace {

// Mass, first moment and second moment about the frame origin, additive
// over disjoint regions (and signed sums of them).
struct OriginMoments {
  double mass = 0.0;
  Vec3 first = Vec3::Zero();   // m c
  Mat3 second = Mat3::Zero();  // inertia about the origin: I_c + m (|c|^2 1 - c c^T)
  void add(const MassProperties& mp, double sign) {
    const Vec3& c = mp.centre_of_mass;
    mass += sign * mp.mass;
    first += sign * mp.mass * c;
    second += sign * (mp.inertia + mp.mass * (c.squaredNorm() * Mat3::Identity() - c * c.transpose()));
  }
};

// A region smaller than this share of the parts' own scale is round-off of
// touching faces, not an overlap (the same scale as the clipping tolerance).
constexpr double kEmptyShare = 1e-12;

class UnionOfPolygons {
 public:
  UnionOfPolygons(const Compound& c, double density) : density_(density) {
    for (const Shape& s : c.parts) parts_.push_back(&std::get<Polygon>(s));
    for (const Polygon* p : parts_) scale_ = std::max(scale_, p->bounding_radius);
  }
  OriginMoments sum() {
    for (std::size_t i = 0; i < parts_.size(); ++i) visit(parts_[i]->vertices, i, 1.0);
    return total_;
  }

 private:
  void visit(const std::vector<Vec2>& region, std::size_t last, double sign) {
    if (std::abs(polygon_area(region)) <= kEmptyShare * scale_ * scale_) return;
    total_.add(mass_properties(polygon_hull(region), density_), sign);
    for (std::size_t j = last + 1; j < parts_.size(); ++j) {
      std::vector<Vec2> cut = region, next;
      const Polygon& q = *parts_[j];
      for (int e = 0; e < q.size() && !cut.empty(); ++e) {
        clip_polygon(cut, q.edge_normals[e], q.edge_normals[e].dot(q.vertices[e]), next);
        cut.swap(next);
      }
      if (cut.size() >= 3) visit(cut, j, -sign);
    }
  }
  double density_;
  double scale_ = 0.0;
  std::vector<const Polygon*> parts_;
  OriginMoments total_;
};

class UnionOfPolyhedra {
 public:
  UnionOfPolyhedra(const Compound& c, double density) : density_(density) {
    for (const Shape& s : c.parts) parts_.push_back(&std::get<Polyhedron>(s));
    for (const Polyhedron* p : parts_) scale_ = std::max(scale_, p->bounding_radius);
  }
  OriginMoments sum() {
    for (std::size_t i = 0; i < parts_.size(); ++i) {
      total_.add(mass_properties(*parts_[i], density_), 1.0);
      extend(make_cell(*parts_[i], Pose()), i, -1.0);
    }
    return total_;
  }

 private:
  // adds every intersection of `cell` (the parts of the current subset) with later parts
  void extend(const ConvexCell& cell, std::size_t last, double sign) {
    for (std::size_t j = last + 1; j < parts_.size(); ++j) {
      ConvexCell cut = cell;
      for (const PolyFace& f : parts_[j]->faces) {
        if (cut.empty()) break;
        cut.clip(f.normal, f.offset);
      }
      if (cut.empty() || cut.volume() <= kEmptyShare * scale_ * scale_ * scale_) continue;
      std::vector<Vec3> points;
      for (const auto& face : cut.faces) points.insert(points.end(), face.begin(), face.end());
      total_.add(mass_properties(polyhedron_from_points(points), density_), sign);
      extend(cut, j, -sign);
    }
  }
  double density_;
  double scale_ = 0.0;
  std::vector<const Polyhedron*> parts_;
  OriginMoments total_;
};

}  // namespace

Compound make_compound(std::vector<Shape> parts) {
  if (parts.empty()) throw GeometryError("make_compound: a compound needs at least one part");
  if (static_cast<int>(parts.size()) > kMaxCompoundParts)
    throw GeometryError("make_compound: at most " + std::to_string(kMaxCompoundParts) + " parts, got " +
                        std::to_string(parts.size()));
  const bool solid = is_polyhedron(parts.front());
  Compound c;
  for (std::size_t i = 0; i < parts.size(); ++i) {
    const Shape& p = parts[i];
    if (!is_polyhedron(p) && !is_polygon(p))
      throw GeometryError("make_compound: part " + std::to_string(i) +
                          " must be a convex polygon or polyhedron (not a half-space or compound)");
    if (is_polyhedron(p) != solid)
      throw GeometryError("make_compound: part " + std::to_string(i) + " mixes polygons and polyhedra");
    c.bounding_radius = std::max(c.bounding_radius, bounding_radius(p));
  }
  c.parts = std::move(parts);
  return c;
}

void Compound::translate(const Vec3& offset) {
  bounding_radius = 0.0;
  for (Shape& s : parts) {
    translate_shape(s, offset);
    bounding_radius = std::max(bounding_radius, pegsim::bounding_radius(s));
  }
}

Vec3 support(const Compound& c, const Vec3& direction) {
  Vec3 best = support(c.parts.front(), direction);
  double reach = direction.dot(best);
  for (std::size_t i = 1; i < c.parts.size(); ++i) {
    const Vec3 p = support(c.parts[i], direction);
    const double r = direction.dot(p);
    if (r > reach) reach = r, best = p;
  }
  return best;
}

Aabb world_bounds(const Compound& c, const Pose& pose) {
  Aabb box = Aabb::empty();
  for (const Shape& part : c.parts) box.grow(world_bounds(part, pose));
  return box;
}

void append_mesh(const Compound& c, ShapeMesh& mesh) {
  for (const Shape& part : c.parts) append_mesh(part, mesh);
}

MassProperties mass_properties(const Compound& c, double density) {
  if (c.parts.empty()) throw GeometryError("mass_properties: empty compound");
  const OriginMoments m = is_polygon(c.parts.front()) ? UnionOfPolygons(c, density).sum()
                                                      : UnionOfPolyhedra(c, density).sum();
  if (!(m.mass > 0.0)) throw GeometryError("mass_properties: compound has no area or volume");
  MassProperties out;
  out.mass = m.mass;
  out.centre_of_mass = m.first / m.mass;
  const Vec3& g = out.centre_of_mass;
  out.inertia = m.second - m.mass * (g.squaredNorm() * Mat3::Identity() - g * g.transpose());
  if (is_polygon(c.parts.front())) {  // a lamina: only Izz is meaningful, as for one polygon
    const double izz = out.inertia(2, 2);
    out.inertia.setZero();
    out.inertia(2, 2) = izz;
  }
  return out;
}

}  // namespace pegsim
