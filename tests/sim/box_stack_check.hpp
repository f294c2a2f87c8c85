// The box-stack-3d check (dvc3D Fig. 2), shared by the default chain's test
// (box_stack_test.cpp) and the fast path's (active_set_chain_test.cpp): ten
// boxes dropped 15 m land without overlap and stand still.
#pragma once

#include "geometry/penetration.hpp"
#include "scene_runner.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <functional>
#include <vector>

namespace pegsim::test {

// Largest penetration between any two bodies, by the separating axis theorem.
inline double worst_overlap(const World& world) {
  double worst = 0.0;
  const auto& bodies = world.model().bodies;
  for (std::size_t i = 0; i < bodies.size(); ++i)
    for (std::size_t j = i + 1; j < bodies.size(); ++j)
      worst = std::max(worst, penetration_depth(bodies[i].shape, world.state().bodies[i].pose, bodies[j].shape,
                                                world.state().bodies[j].pose));
  return worst;
}

// Runs `world` (box-stack-3d) for 10 s, calling `each_step` with every step's
// report, and asserts that it lands and stands.
inline void expect_box_stack_stands(World& world, const std::function<void(const StepReport&)>& each_step = {}) {
  const double h = world.model().options.h;
  const std::size_t n = world.model().bodies.size();
  std::vector<Vec3> settled;
  double overlap_impact = 0.0, overlap_settled = 0.0, drift = 0.0;
  long failures = 0;
  while (world.state().time < 10.0 - 0.5 * h) {
    const StepReport& r = world.step();
    failures += r.solver_failures;
    if (each_step) each_step(r);
    const double t = world.state().time;
    const double overlap = worst_overlap(world);
    if (t < 2.0) overlap_impact = std::max(overlap_impact, overlap);
    else overlap_settled = std::max(overlap_settled, overlap);
    if (settled.empty() && t >= 2.0 - 0.5 * h)
      for (const BodyState& b : world.state().bodies) settled.push_back(b.pose.position);
    if (!settled.empty())
      for (std::size_t i = 0; i < n; ++i)
        drift = std::max(drift, (world.state().bodies[i].pose.position - settled[i]).norm());
  }
  EXPECT_EQ(failures, 0);
  // during the impacts the semi-implicit rotation error (thesis 5.3) is allowed 0.1 mm
  EXPECT_LT(overlap_impact, 1e-4);
  // at rest the linearised gaps are exact: 1 micrometre
  EXPECT_LT(overlap_settled, 1e-6);
  EXPECT_LT(drift, 1e-6);
  // and it is still a stack: box k sits k metres above the floor
  for (std::size_t i = 1; i < n; ++i)
    EXPECT_NEAR(world.state().bodies[i].pose.position.z(), 0.5 + (i - 1), 1e-3) << "box " << i - 1;
}

}  // namespace pegsim::test
