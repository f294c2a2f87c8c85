// Operations on any shape kind (geometry/shape.hpp), each one std::visit to
// the kind's own overload (geometry/shape_kind.hpp).
#include "geometry/shape.hpp"

namespace pegsim {

std::optional<std::size_t> find_shape_kind(std::string_view name) {
  for (std::size_t i = 0; i < kShapeKindCount; ++i)
    if (name == kShapeKinds[i].name) return i;
  return std::nullopt;
}

std::string shape_kind_names(Dimension scene) {
  std::string out;
  for (const ShapeKindInfo& k : kShapeKinds)
    if (fits(k.dims, scene)) out += (out.empty() ? "" : ", ") + std::string(k.name);
  return out;
}

double bounding_radius(const Shape& s) {
  return std::visit([](const auto& k) { return bounding_radius(k); }, s);
}

Vec3 support(const Shape& s, const Vec3& direction) {
  return std::visit([&](const auto& k) { return support(k, direction); }, s);
}

Aabb world_bounds(const Shape& s, const Pose& pose) {
  return std::visit([&](const auto& k) { return world_bounds(k, pose); }, s);
}

void translate_shape(Shape& s, const Vec3& offset) {
  std::visit([&](auto& k) { translate(k, offset); }, s);
}

MassProperties mass_properties(const Shape& s, double density) {
  return std::visit([&](const auto& k) { return mass_properties(k, density); }, s);
}

void append_mesh(const Shape& s, ShapeMesh& mesh) {
  std::visit([&](const auto& k) { append_mesh(k, mesh); }, s);
}

}  // namespace pegsim
