// The half-space shape kind (geometry/shape_kind.hpp): a ground plane (3D) or
// half-plane (2D). Unbounded: no support point, mass or mesh, and a world
// box that is everything; only static bodies may have one.
#pragma once

#include "geometry/aabb.hpp"
#include "geometry/mass_properties.hpp"
#include "geometry/shape_kind.hpp"
#include "math/pose.hpp"

namespace pegsim {

// A half-space {x : normal . x <= offset} in the body frame: a ground plane
// (3D) or half-plane (2D, normal.z() == 0). Only static bodies may have one.
struct HalfSpace {
  Vec3 normal = Vec3::UnitZ();  // unit, outward
  double offset = 0.0;

  static constexpr ShapeKindInfo kind_info{"half_space", ShapeDims::Both, false};
};

inline double bounding_radius(const HalfSpace&) { return 0.0; }  // unbounded: callers treat it first
inline Aabb world_bounds(const HalfSpace&, const Pose&) { return Aabb::everything(); }
inline void translate(HalfSpace& h, const Vec3& offset) { h.offset -= h.normal.dot(offset); }
inline Vec3 support(const HalfSpace&, const Vec3&) {
  throw GeometryError("support: a half-space is unbounded");
}
inline MassProperties mass_properties(const HalfSpace&, double) {
  throw GeometryError("mass_properties: a half-space has no mass properties");
}
inline void append_mesh(const HalfSpace&, ShapeMesh&) {
  throw GeometryError("append_mesh: a half-space is unbounded");
}

}  // namespace pegsim
