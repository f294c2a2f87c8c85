// What pegsim_peers measures, the same way for every engine, from the boxes'
// poses after each step (never from an engine's own figures, except contacts):
// wall-clock time of the step call, the deepest overlap (box corners below the
// ground; the separating-axis depth of geometry/penetration.hpp between
// boxes), the largest displacement of any box after the settle time, and how
// many boxes ended away from their resting place.
#pragma once

#include "bench_scene.hpp"
#include "geometry/shape.hpp"

#include <string>
#include <vector>

namespace pegsim::bench {

struct RunMetrics {
  std::string engine;
  int steps = 0;                  // steps taken
  double mean_us = 0.0, median_us = 0.0;  // per step, over the steps after the warm-up
  double max_penetration = 0.0;   // deepest overlap over the run (m)
  double settled_penetration = 0.0;  // ... over the last 20% of the run (m)
  double drift = 0.0;             // largest displacement of a box from settle_time to the end (m)
  int out_of_place = -1;          // boxes > 5 cm from their rest height at the end (-1: not checked)
  double mean_contacts = 0.0;     // the engine's contact count, mean over the timed steps
  std::string warnings;           // the engine's, see PeerEngine::warnings
  bool finite = true;             // false: a pose became NaN/inf (the run was stopped)
};

class MetricsRecorder {
 public:
  // penetration is measured after every `measure_every`-th step (and the
  // last); steps from `first_timed` on are timed (the ones before: warm-up)
  MetricsRecorder(const BenchScene& scene, std::string engine, int measure_every = 1, int first_timed = 10);
  // after step `step` (0-based) took `seconds`; poses of the dynamic boxes
  void record(int step, double seconds, const std::vector<Pose>& poses, int contacts);
  RunMetrics finish(const std::vector<Pose>& final_poses);
  bool finite() const { return m_.finite; }

 private:
  double deepest_overlap(const std::vector<Pose>& poses) const;

  const BenchScene& scene_;
  RunMetrics m_;
  int measure_every_, first_timed_;
  std::vector<Shape> shapes_;           // per dynamic box
  std::vector<double> radius_;          // half diagonal, per dynamic box
  std::vector<Vec3> half_;              // half sizes, per dynamic box
  std::vector<const BenchBody*> statics_;
  std::vector<Shape> static_shapes_;
  std::vector<double> step_seconds_;
  std::vector<Vec3> settled_;           // positions at settle_time
  double contact_sum_ = 0.0;
};

}  // namespace pegsim::bench
