// The conversion check of pegsim_compare --check-geometry: at t = 0, before
// any step, each peer's own collision geometry must sit where pegsim's is.
// For every dynamic body that reaches into a half-space in the scene as
// loaded, pegsim's deepest point there is its support point along the
// half-space's inward normal (geometry/shape.hpp's support mapping, on the
// scene's shape and pose), and the depth follows; each peer answers the same
// question from its own shapes (PeerEngine::deepest_point: its collision
// detection or its support mapping). Agreement of depth and of the point's
// place along the plane checks sizes, offsets, axes (a capsule's or
// cylinder's axis along z, not y as in some engines) and margins of the
// conversion, shape kind by shape kind.
#pragma once

#include "peer_engine.hpp"
#include "scene_convert.hpp"

#include "io/scene.hpp"

#include <ostream>
#include <vector>

namespace pegsim::bench {

// Loads `engine` with the converted scene, prints one line per body and
// half-space in contact, and returns whether all agree within `tolerance` (m).
bool check_geometry(std::ostream& out, PeerEngine& engine, const Scene& scene, const ConvertedScene& converted,
                    const std::vector<std::string>& names, double tolerance);

}  // namespace pegsim::bench
