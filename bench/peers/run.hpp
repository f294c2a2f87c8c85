// Running engines on scenes: the engines pegsim_peers knows (those not built
// in say so), one timed run of a scene, and the free-fall check.
#pragma once

#include "metrics.hpp"
#include "peer_engine.hpp"

#include <functional>
#include <iosfwd>
#include <memory>
#include <string>
#include <vector>

namespace pegsim::bench {

struct EngineEntry {
  std::string name;
  std::string library;  // what it needs to be built in
  std::function<std::unique_ptr<PeerEngine>()> make;  // empty: not built in
};
// pegsim, bullet, mujoco, ode, in that order
std::vector<EngineEntry> all_engines();

// Loads and steps the scene to its end (or until a pose is not finite), timing
// each step() alone with steady_clock; steps before first_timed are warm-up.
RunMetrics run_scene(PeerEngine& engine, const BenchScene& scene, int measure_every = 1, int first_timed = 10);

// A box released from rest at 10 m for `duration` seconds: the engine's height
// must match the analytic free fall z0 - g t^2 / 2 within the error of a
// first-order integrator, g h t / 2 (and x, y, orientation unchanged). Prints
// one line; returns whether it passed.
bool check_free_fall(PeerEngine& engine, double duration, std::ostream& out);

}  // namespace pegsim::bench
