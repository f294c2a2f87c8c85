// Axis-aligned bounding boxes in world coordinates: every bounded shape kind's
// world_bounds (geometry/shape_kind.hpp), and the broadphase's swept boxes
// (collision/broadphase.hpp, thesis 2.6).
#pragma once

#include "math/types.hpp"

#include <limits>

namespace pegsim {

struct Aabb {
  Vec3 lo = Vec3::Zero();
  Vec3 hi = Vec3::Zero();
  bool overlaps(const Aabb& o) const {
    return (lo.array() <= o.hi.array()).all() && (o.lo.array() <= hi.array()).all();
  }

  // the box containing nothing (lo = +inf, hi = -inf): the start of a union
  static Aabb empty() {
    constexpr double inf = std::numeric_limits<double>::infinity();
    return Aabb{Vec3::Constant(inf), Vec3::Constant(-inf)};
  }
  // the box containing everything: an unbounded shape's (a half-space's)
  static Aabb everything() {
    constexpr double inf = std::numeric_limits<double>::infinity();
    return Aabb{Vec3::Constant(-inf), Vec3::Constant(inf)};
  }
  void grow(const Vec3& p) {
    lo = lo.cwiseMin(p);
    hi = hi.cwiseMax(p);
  }
  void grow(const Aabb& b) {
    lo = lo.cwiseMin(b.lo);
    hi = hi.cwiseMax(b.hi);
  }
};

}  // namespace pegsim
