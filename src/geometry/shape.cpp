// Operations on any shape kind (geometry/shape.hpp), dispatched on the variant.
#include "geometry/mass_properties.hpp"
#include "geometry/shape.hpp"

namespace pegsim {

double bounding_radius(const Shape& s) {
  if (const auto* p = std::get_if<Polyhedron>(&s)) return p->bounding_radius;
  if (const auto* p = std::get_if<Polygon>(&s)) return p->bounding_radius;
  if (const auto* c = std::get_if<Compound>(&s)) return c->bounding_radius;
  return 0.0;
}

const char* shape_kind_name(const Shape& s) {
  if (is_polyhedron(s)) return "polyhedron";
  if (is_polygon(s)) return "polygon";
  if (is_compound(s)) return "compound";
  return "half_space";
}

void translate_shape(Shape& s, const Vec3& offset) {
  if (auto* p = std::get_if<Polyhedron>(&s)) p->translate(offset);
  if (auto* p = std::get_if<Polygon>(&s)) p->translate(Vec2(offset.x(), offset.y()));
  if (auto* c = std::get_if<Compound>(&s)) c->translate(offset);
  if (auto* h = std::get_if<HalfSpace>(&s)) h->offset -= h->normal.dot(offset);
}

MassProperties mass_properties(const Shape& s, double density) {
  if (const auto* p = std::get_if<Polyhedron>(&s)) return mass_properties(*p, density);
  if (const auto* p = std::get_if<Polygon>(&s)) return mass_properties(*p, density);
  if (const auto* c = std::get_if<Compound>(&s)) return mass_properties(*c, density);
  throw GeometryError("mass_properties: a half-space has no mass properties");
}

}  // namespace pegsim
