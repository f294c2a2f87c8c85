// Which body pairs may touch at all, before any geometry: the rule every
// contact search shares (the narrowphase's, sim/contact_finder.cpp, and the
// corrective model's own overlap search, contact/corrective.cpp).
//
//   - links of one kinematic tree never touch each other (their joints hold
//     them; a robot's links overlap at the joints by design);
//   - a tree link without collision geometry touches nothing;
//   - two bodies joined in maximal coordinates do not touch unless the joint
//     asks (JointModel::collide; RPIsim's doesNotCollideWith, set both ways).
#pragma once

#include "sim/model.hpp"

#include <cstdint>
#include <utility>
#include <vector>

namespace pegsim {

class CollisionFilter {
 public:
  // The tables for `model` (O(bodies + joints)); call again when the model changes.
  void reset(const Model& model);
  bool may_touch(std::uint32_t a, std::uint32_t b) const;

 private:
  static constexpr int kLoose = -1, kNoGeometry = -2;
  std::vector<int> tree_of_;  // per body: its tree, kLoose, or kNoGeometry
  std::vector<std::pair<std::uint32_t, std::uint32_t>> joined_;  // (min, max) body pairs that must not touch, sorted
};

}  // namespace pegsim
