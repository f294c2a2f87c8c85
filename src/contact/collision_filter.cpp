// The body pairs that may touch (collision_filter.hpp).
#include "contact/collision_filter.hpp"

#include <algorithm>

namespace pegsim {

void CollisionFilter::reset(const Model& model) {
  // no trees: an empty table (may_touch reads a body past its end as loose), so
  // a scene of loose bodies pays nothing here each step
  tree_of_.clear();
  if (!model.trees.empty()) tree_of_.assign(model.bodies.size(), kLoose);
  for (std::size_t t = 0; t < model.trees.size(); ++t) {
    const TreeModel& tm = model.trees[t];
    for (std::size_t i = 0; i < tm.link_body.size(); ++i)
      tree_of_[tm.link_body[i]] = tm.link_collides.empty() || tm.link_collides[i] ? static_cast<int>(t) : kNoGeometry;
  }
  joined_.clear();
  for (const JointModel& j : model.joints)
    if (!j.collide) joined_.emplace_back(std::min(j.body_a, j.body_b), std::max(j.body_a, j.body_b));
  std::sort(joined_.begin(), joined_.end());
}

bool CollisionFilter::may_touch(std::uint32_t a, std::uint32_t b) const {
  const int ta = a < tree_of_.size() ? tree_of_[a] : kLoose, tb = b < tree_of_.size() ? tree_of_[b] : kLoose;
  if (ta == kNoGeometry || tb == kNoGeometry || (ta >= 0 && ta == tb)) return false;
  return !std::binary_search(joined_.begin(), joined_.end(), std::make_pair(std::min(a, b), std::max(a, b)));
}

}  // namespace pegsim
