// The shapes a body can have.
#pragma once

#include "geometry/mass_properties.hpp"
#include "geometry/polygon.hpp"
#include "geometry/polyhedron.hpp"
#include "math/types.hpp"

#include <stdexcept>
#include <string>
#include <variant>
#include <vector>

namespace pegsim {

struct GeometryError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// A half-space {x : normal . x <= offset} in the body frame: a ground plane
// (3D) or half-plane (2D, normal.z() == 0). Only static bodies may have one.
struct HalfSpace {
  Vec3 normal = Vec3::UnitZ();  // unit, outward
  double offset = 0.0;
};

struct Compound;
using Shape = std::variant<Polyhedron, Polygon, HalfSpace, Compound>;

// A non-convex body as a union of overlapping convex parts (thesis 4.5,
// Figs. 4.10-4.11): contact is determined and constrained per pair of convex
// parts, so PEG applies to each part unchanged, and the independent
// constraints of the parts are the AND a non-convex region needs. The parts
// should overlap rather than merely touch, so that no zero-width seam lets a
// vertex through (thesis 4.5), and the decomposition adds edges inside the
// body rather than extending its edges (which would recreate standard-model
// traps). Parts are convex polygons (2D) or polyhedra (3D), all of one kind,
// given in the body frame (make_compound checks).
struct Compound {
  std::vector<Shape> parts;
  double bounding_radius = 0.0;  // max over the parts' vertices of |v|, body frame

  int size() const { return static_cast<int>(parts.size()); }
  void translate(const Vec3& offset);  // every part's vertices -= offset (2D: x, y)
};

// Checks the parts (at least one; convex polygons or polyhedra, one kind; at
// most kMaxCompoundParts) and fills bounding_radius. Throws GeometryError.
inline constexpr int kMaxCompoundParts = 16;
Compound make_compound(std::vector<Shape> parts);

inline bool is_polyhedron(const Shape& s) { return std::holds_alternative<Polyhedron>(s); }
inline bool is_polygon(const Shape& s) { return std::holds_alternative<Polygon>(s); }
inline bool is_half_space(const Shape& s) { return std::holds_alternative<HalfSpace>(s); }
inline bool is_compound(const Shape& s) { return std::holds_alternative<Compound>(s); }

// The convex pieces contact works on: a compound's parts, or the shape itself.
inline int part_count(const Shape& s) {
  const auto* c = std::get_if<Compound>(&s);
  return c ? c->size() : 1;
}
inline const Shape& part_of(const Shape& s, int part) {
  const auto* c = std::get_if<Compound>(&s);
  return c ? c->parts[static_cast<std::size_t>(part)] : s;
}

// Body-frame bounding radius (max |v|); 0 for a half-space (unbounded: callers
// treat half-spaces first).
double bounding_radius(const Shape& s);
// "polyhedron", "polygon", "compound" or "half_space".
const char* shape_kind_name(const Shape& s);
// Moves the shape's frame by -offset (its points' coordinates decrease by
// offset; 2D shapes use x, y), as Polygon/Polyhedron::translate do.
void translate_shape(Shape& s, const Vec3& offset);
// Mass properties of a uniform solid (3D) or lamina (2D) of any shape kind;
// throws GeometryError for a half-space.
MassProperties mass_properties(const Shape& s, double density);

}  // namespace pegsim
