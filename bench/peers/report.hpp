// The tables pegsim_peers prints: one per scene (every engine's figures, the
// ratio of pegsim's time per step to each, and issue 11's bars as PASS/MISS),
// and the scaling table (time per step against contacts, fitted exponents).
#pragma once

#include "bench_scene.hpp"
#include "metrics.hpp"

#include <iosfwd>
#include <string>
#include <vector>

namespace pegsim::bench {

// exactness, as issue 11 asks of pegsim on the stacks
inline constexpr double kExactPenetration = 1e-9, kExactDrift = 1e-6;

void print_scene(const BenchScene& scene, const std::vector<RunMetrics>& runs, std::ostream& out);

struct ScalingRun {
  int bodies = 0;
  double duration = 0.0;  // simulated (s); the second half is timed
  RunMetrics metrics;
};
// Groups by engine; fits log(us/step) against log(contacts) (and bodies) by
// least squares; pegsim's bar: exponent against contacts at most 1.2.
void print_scaling(const std::vector<ScalingRun>& runs, std::ostream& out);

// slope of the least-squares line through (log x, log y); NaN with < 2 points
double fitted_exponent(const std::vector<double>& x, const std::vector<double>& y);

}  // namespace pegsim::bench
