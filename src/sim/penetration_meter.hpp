// The penetration meter: the deepest overlap between bodies at the current
// poses, measured on the geometry by the separating axis theorem
// (geometry/penetration.hpp) over the broadphase's body pairs, independent of
// the contacts and their (possibly secondary) gaps: a secondary contact's
// negative gap (a vertex inside the half-space of a facet it is not inside)
// is no penetration.
//
// It is a stage of its own (Stage::Penetration), run only when something
// asks (StepNeeds::penetration): on a resting pile it costs as much as the
// narrowphase.
#pragma once

#include "collision/broadphase.hpp"
#include "sim/model.hpp"
#include "sim/state.hpp"

#include <vector>

namespace pegsim {

// 0 when no pair overlaps (or there are no pairs).
double deepest_penetration(const Model& model, const State& state, const std::vector<BodyPair>& pairs);

}  // namespace pegsim
