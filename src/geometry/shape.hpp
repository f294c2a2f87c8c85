// The shapes a body can have: the shape kinds, listed once in the Shape
// variant, and the operations on any shape, each dispatched to the kind's own
// (geometry/shape_kind.hpp says what a kind declares; docs/architecture.md,
// "Adding a shape kind").
#pragma once

#include "geometry/aabb.hpp"
#include "geometry/curved.hpp"
#include "geometry/half_space.hpp"
#include "geometry/mass_properties.hpp"
#include "geometry/polygon.hpp"
#include "geometry/polyhedron.hpp"
#include "geometry/shape_kind.hpp"
#include "math/pose.hpp"
#include "math/types.hpp"

#include <array>
#include <concepts>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <variant>
#include <vector>

namespace pegsim {

struct Compound;
// The shape kinds. The registration of a kind: its type here, its header above.
using Shape = std::variant<Polyhedron, Polygon, HalfSpace, Compound, Sphere, Capsule, Cylinder, Cone, Disc,
                           Capsule2d>;

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

  static constexpr ShapeKindInfo kind_info{"compound", ShapeDims::Both, true};
};

// Checks the parts (at least one; convex polygons or polyhedra, one kind; at
// most kMaxCompoundParts) and fills bounding_radius. Throws GeometryError.
inline constexpr int kMaxCompoundParts = 16;
Compound make_compound(std::vector<Shape> parts);

// The compound as a shape kind (compound.cpp): over its parts.
inline double bounding_radius(const Compound& c) { return c.bounding_radius; }
inline void translate(Compound& c, const Vec3& offset) { c.translate(offset); }
Vec3 support(const Compound& c, const Vec3& direction);  // the parts' farthest (first of equals)
Aabb world_bounds(const Compound& c, const Pose& pose);     // the union of the parts' boxes
void append_mesh(const Compound& c, ShapeMesh& mesh);     // the parts' meshes one after another

// What every kind provides, by exact signature (so that a missing operation
// is a compile error here, not a silent conversion to Shape).
template <class K>
concept ShapeKindOps = requires {
  { K::kind_info } -> std::convertible_to<ShapeKindInfo>;
  static_cast<double (*)(const K&)>(&bounding_radius);
  static_cast<Vec3 (*)(const K&, const Vec3&)>(&support);
  static_cast<Aabb (*)(const K&, const Pose&)>(&world_bounds);
  static_cast<MassProperties (*)(const K&, double)>(&mass_properties);
  static_cast<void (*)(K&, const Vec3&)>(&translate);
  static_cast<void (*)(const K&, ShapeMesh&)>(&append_mesh);
};

// The kinds' table: index i is the variant's alternative i.
inline constexpr std::size_t kShapeKindCount = std::variant_size_v<Shape>;
namespace shape_detail {
template <class... Ks>
constexpr std::array<ShapeKindInfo, sizeof...(Ks)> infos(std::type_identity<std::variant<Ks...>>) {
  static_assert((ShapeKindOps<Ks> && ...), "a shape kind lacks an operation (geometry/shape_kind.hpp)");
  return {Ks::kind_info...};
}
template <class K, class... Ks>
constexpr std::size_t index_of(std::type_identity<std::variant<Ks...>>) {
  constexpr bool same[] = {std::is_same_v<K, Ks>...};
  for (std::size_t i = 0; i < sizeof...(Ks); ++i)
    if (same[i]) return i;
  return sizeof...(Ks);
}
}  // namespace shape_detail
inline constexpr std::array<ShapeKindInfo, kShapeKindCount> kShapeKinds =
    shape_detail::infos(std::type_identity<Shape>{});
// The index of kind K in kShapeKinds (and in the variant).
template <class K>
inline constexpr std::size_t kind_index = shape_detail::index_of<K>(std::type_identity<Shape>{});

inline std::size_t kind_of(const Shape& s) { return s.index(); }
inline const ShapeKindInfo& kind_info(const Shape& s) { return kShapeKinds[s.index()]; }
// "polyhedron", "polygon", "half_space" or "compound"
inline const char* shape_kind_name(const Shape& s) { return kind_info(s).name; }
// The kind of that name, if any.
std::optional<std::size_t> find_shape_kind(std::string_view name);
// "polyhedron, half_space, compound": the kinds a scene of that dimension takes.
std::string shape_kind_names(Dimension scene);

inline bool is_polyhedron(const Shape& s) { return std::holds_alternative<Polyhedron>(s); }
inline bool is_polygon(const Shape& s) { return std::holds_alternative<Polygon>(s); }
inline bool is_half_space(const Shape& s) { return std::holds_alternative<HalfSpace>(s); }
inline bool is_compound(const Shape& s) { return std::holds_alternative<Compound>(s); }
// a curved kind (geometry/curved.hpp): contact is one point per feature pair, no polytope features
inline bool is_curved(const Shape& s) {
  return std::holds_alternative<Sphere>(s) || std::holds_alternative<Capsule>(s) || std::holds_alternative<Cylinder>(s) ||
         std::holds_alternative<Cone>(s) || std::holds_alternative<Disc>(s) || std::holds_alternative<Capsule2d>(s);
}

// The convex pieces contact works on: a compound's parts, or the shape itself.
inline int part_count(const Shape& s) {
  const auto* c = std::get_if<Compound>(&s);
  return c ? c->size() : 1;
}
inline const Shape& part_of(const Shape& s, int part) {
  const auto* c = std::get_if<Compound>(&s);
  return c ? c->parts[static_cast<std::size_t>(part)] : s;
}

// The kinds' operations on any shape (shape.cpp: one std::visit each).
// Body-frame bounding radius (max |v|); 0 for a half-space (unbounded: callers
// treat half-spaces first).
double bounding_radius(const Shape& s);
// A farthest point of the shape along direction, body frame (GJK's support
// mapping); throws GeometryError for an unbounded kind.
Vec3 support(const Shape& s, const Vec3& direction);
// The world box of the shape at a pose; everything for an unbounded kind.
Aabb world_bounds(const Shape& s, const Pose& pose);
// Moves the shape's frame by -offset (its points' coordinates decrease by
// offset; 2D shapes use x, y), as Polygon/Polyhedron::translate do.
void translate_shape(Shape& s, const Vec3& offset);
// Mass properties of a uniform solid (3D) or lamina (2D) of any shape kind;
// throws GeometryError for a half-space.
MassProperties mass_properties(const Shape& s, double density);
// Appends the shape's surface (body frame); throws GeometryError for an unbounded kind.
void append_mesh(const Shape& s, ShapeMesh& mesh);

}  // namespace pegsim
