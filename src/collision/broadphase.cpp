// Broadphase (thesis 2.6): swept boxes and sweep and prune along x.
#include "collision/broadphase.hpp"

#include <algorithm>
#include <limits>
#include <numeric>

namespace pegsim {

Aabb swept_box(const Shape& shape, const Pose& now, const Pose& predicted, double eps) {
  Aabb box = world_bounds(shape, now);
  box.grow(world_bounds(shape, predicted));
  box.lo.array() -= eps;
  box.hi.array() += eps;
  return box;
}

// Sort and sweep on the boxes' lower x. The order of the previous call is kept:
// bodies move little per step, so it is nearly sorted and insertion sort
// restores it in close to linear time. Ties are broken by body index so the
// internal order is a strict total order; the output is sorted by (a, b)
// anyway and so does not depend on it.
void SweepAndPrune::find_pairs(const std::vector<Aabb>& boxes, const std::vector<bool>& is_static,
                               std::vector<BodyPair>& pairs) {
  pairs.clear();
  const std::size_t n = boxes.size();
  if (order_.size() != n) {  // bodies added or removed: start from index order
    order_.resize(n);
    std::iota(order_.begin(), order_.end(), 0u);
  }
  auto before = [&boxes](std::uint32_t i, std::uint32_t j) {
    const double li = boxes[i].lo.x(), lj = boxes[j].lo.x();
    return li < lj || (li == lj && i < j);
  };
  for (std::size_t k = 1; k < n; ++k) {
    const std::uint32_t key = order_[k];
    std::size_t m = k;
    while (m > 0 && before(key, order_[m - 1])) {
      order_[m] = order_[m - 1];
      --m;
    }
    order_[m] = key;
  }

  for (std::size_t k = 0; k < n; ++k) {
    const std::uint32_t i = order_[k];
    const Aabb& bi = boxes[i];
    for (std::size_t m = k + 1; m < n; ++m) {
      const std::uint32_t j = order_[m];
      const Aabb& bj = boxes[j];
      if (!(bj.lo.x() <= bi.hi.x())) break;  // sorted by lo.x: no later box reaches bi
      if (is_static[i] && is_static[j]) continue;
      if (!bi.overlaps(bj)) continue;
      pairs.push_back(i < j ? BodyPair{i, j} : BodyPair{j, i});
    }
  }
  std::sort(pairs.begin(), pairs.end(),
            [](const BodyPair& p, const BodyPair& q) { return p.a < q.a || (p.a == q.a && p.b < q.b); });
}

}  // namespace pegsim
