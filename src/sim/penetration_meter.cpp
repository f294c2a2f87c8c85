#include "sim/penetration_meter.hpp"

#include "geometry/penetration.hpp"

#include <algorithm>

namespace pegsim {

double deepest_penetration(const Model& model, const State& state, const std::vector<BodyPair>& pairs) {
  double deepest = 0.0;
  for (const BodyPair& pair : pairs)
    deepest = std::max(deepest, penetration_depth(model.bodies[pair.a].shape, state.bodies[pair.a].pose,
                                                  model.bodies[pair.b].shape, state.bodies[pair.b].pose));
  return deepest;
}

}  // namespace pegsim
