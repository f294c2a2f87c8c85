// Broadphase: candidate body pairs from swept bounding boxes (thesis 2.6).
//
// Each body's box covers its shape at the pose now and at the pose predicted
// after one step of free motion, grown by the contact distance eps. Pairs whose
// boxes overlap are found by sweep and prune along one axis. Static-static
// pairs are never reported. Half-spaces have unbounded boxes.
#pragma once

#include "geometry/aabb.hpp"
#include "geometry/shape.hpp"
#include "math/pose.hpp"
#include "math/types.hpp"

#include <cstdint>
#include <utility>
#include <vector>

namespace pegsim {

struct BodyPair {
  std::uint32_t a, b;  // a < b
  friend bool operator==(const BodyPair&, const BodyPair&) = default;
};

// Box covering `shape` at both poses (the union of its kind's world_bounds at
// each, geometry/shape_kind.hpp), grown by eps on every side. Half-spaces
// are unbounded (+-infinity on every axis); planar shapes (polygons) have the z
// extent [-eps, eps].
Aabb swept_box(const Shape& shape, const Pose& now, const Pose& predicted, double eps);

class SweepAndPrune {
 public:
  // boxes[i] is body i's swept box; is_static[i] marks static bodies.
  // Output pairs are sorted by (a, b): independent of the sweep's internal order.
  void find_pairs(const std::vector<Aabb>& boxes, const std::vector<bool>& is_static,
                  std::vector<BodyPair>& pairs);

 private:
  std::vector<std::uint32_t> order_;  // kept between steps: nearly sorted, cheap to re-sort
};

}  // namespace pegsim
