// Overlap measurement (analysis/overlap.hpp): the intersection of every pair
// of bodies, by clipping (geometry/intersection.hpp). Nothing here looks at
// contacts, constraints or the separating axis test.
#include "analysis/overlap.hpp"

#include "geometry/intersection.hpp"

namespace pegsim {

double overlap_measure(const Shape& a, const Pose& pa, const Shape& b, const Pose& pb) {
  return intersect_shapes(a, pa, b, pb).measure;
}

// Every pair is tried: intersect_shapes rejects pairs whose bounding circles
// (spheres) are apart before clipping, so the quadratic loop costs a distance
// per pair; fine for the measurement's scenes (tens of bodies).
std::vector<PairOverlap> pair_overlaps(const Model& model, const State& state) {
  std::vector<PairOverlap> out;
  const std::size_t n = model.bodies.size();
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t j = i + 1; j < n; ++j) {
      if (model.bodies[i].is_static && model.bodies[j].is_static) continue;
      const double m = overlap_measure(model.bodies[i].shape, state.bodies[i].pose, model.bodies[j].shape,
                                       state.bodies[j].pose);
      if (m > 0.0) out.push_back(PairOverlap{static_cast<std::uint32_t>(i), static_cast<std::uint32_t>(j), m});
    }
  return out;
}

double total_overlap(const Model& model, const State& state) {
  double total = 0.0;
  for (const PairOverlap& p : pair_overlaps(model, state)) total += p.measure;
  return total;
}

}  // namespace pegsim
