// The shapes a body can have.
#pragma once

#include "geometry/polygon.hpp"
#include "geometry/polyhedron.hpp"
#include "math/types.hpp"

#include <stdexcept>
#include <string>
#include <variant>

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

using Shape = std::variant<Polyhedron, Polygon, HalfSpace>;

inline bool is_polyhedron(const Shape& s) { return std::holds_alternative<Polyhedron>(s); }
inline bool is_polygon(const Shape& s) { return std::holds_alternative<Polygon>(s); }
inline bool is_half_space(const Shape& s) { return std::holds_alternative<HalfSpace>(s); }

}  // namespace pegsim
