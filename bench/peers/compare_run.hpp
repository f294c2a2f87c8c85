// One engine's run of a scene for pegsim_compare, measured with pegsim's own
// meters on the engine's states, the same way for every engine: each step's
// poses and velocities are turned back into a pegsim State (the scene's
// bodies, their pegsim body frames: ConvertedScene::to_pegsim), then
//  - penetration: sim/penetration_meter.hpp's deepest_penetration over the
//    broadphase's pairs (the separating-axis depth of geometry/penetration.hpp,
//    the meter of pegsim's run summary);
//  - energy and linear momentum: sim/world.hpp's mechanical_energy and
//    linear_momentum with the scene's masses and inertias, and their drifts as
//    RunStatistics defines them (sim/statistics.hpp);
//  - drift after settling: the largest displacement of a body from half the
//    run to its end;
//  - time per step: steady_clock around the engine's step() alone.
#pragma once

#include "peer_engine.hpp"
#include "scene_convert.hpp"

#include "io/scene.hpp"

#include <memory>
#include <string>
#include <vector>

namespace pegsim::bench {

struct CompareRun {
  std::string engine;
  std::string warnings;
  bool finite = true;                              // false: a state became NaN/inf (the run was stopped)
  std::vector<std::vector<BodyState>> trajectory;  // per step (row 0: the start), per dynamic body
  std::vector<double> penetration, energy;         // per step (m, J)
  std::vector<Vec3> momentum;                      // per step (kg m/s)
  double mean_us = 0.0, median_us = 0.0;           // per step, after a 10-step warm-up
  double max_penetration = 0.0;
  double settled_penetration = 0.0;                // over the last 20% of the steps
  double drift = 0.0;                              // m, from half the run to the end
  double energy_max_rise = 0.0;                    // J, above the start

  double energy_drift() const;    // (E_end - E_0) / max(1 J, |E_0|)
  double momentum_drift() const;  // |p_end - p_0| / |p_0|; 0 when p_0 = 0
};

// Runs `engine` on the converted scene for its steps; the pegsim scene gives
// the meters' model and the static bodies' poses.
CompareRun run_compared(PeerEngine& engine, const Scene& scene, const ConvertedScene& converted);

// pegsim itself on the scene as loaded (its own options: model, solver, eps),
// not on the neutral scene: the reference every peer is compared with.
std::unique_ptr<PeerEngine> make_scene_engine(const Scene& scene, const ConvertedScene& converted);

// The largest distance of each dynamic body from its place in `reference` at the same step (m).
std::vector<double> deviation(const CompareRun& run, const CompareRun& reference);

}  // namespace pegsim::bench
