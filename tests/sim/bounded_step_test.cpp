// A step's work and memory are bounded (issue 17): a solve past its time
// budget is a counted failure and the step goes on; a failing scene does not
// grow the heap step after step; a scene's per-island problems cost memory in
// the islands' sizes, not the scene's body count squared.
//
// Heap use is read from glibc's allocator (mallinfo2: bytes in use,
// mmapped blocks included). The sanitizer build
// replaces the allocator, so there the tests skip.
#include "io/scene.hpp"
#include "scene_runner.hpp"

#include <gtest/gtest.h>

#include <malloc.h>

#include <algorithm>
#include <cstddef>
#include <string>

#if defined(__SANITIZE_ADDRESS__)
#define PEGSIM_OWN_ALLOCATOR 0
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define PEGSIM_OWN_ALLOCATOR 0
#endif
#endif
#ifndef PEGSIM_OWN_ALLOCATOR
#define PEGSIM_OWN_ALLOCATOR 1
#endif

namespace pegsim {
namespace {

std::size_t heap_in_use() {
  const struct mallinfo2 m = mallinfo2();
  return m.uordblks + m.hblkhd;
}

// `n` unit cubes resting on the ground 1.5 m apart: n islands of one box each
std::string resting_boxes(int n) {
  std::string yaml =
      "options: {name: resting, dimension: 3, h: 0.005, duration: 1, eps: auto, friction_directions: 4,\n"
      "          model: peg, solver: lemke, gravity: [0, 0, -9.81]}\n"
      "materials: [{name: wood}]\n"
      "friction: [{materials: [wood, wood], mu: 0.5}]\n"
      "shapes: {cube: {box: [1, 1, 1]}, floor: {half_space: {normal: [0, 0, 1], offset: 0}}}\n"
      "bodies:\n"
      "  - {name: ground, shape: floor, static: true, material: wood}\n";
  for (int i = 0; i < n; ++i) {
    yaml += "  - {name: b" + std::to_string(i) + ", shape: cube, mass: 1, position: [";
    yaml += std::to_string(1.5 * (i % 20)) + ", " + std::to_string(1.5 * (i / 20)) + ", 0.5], material: wood}\n";
  }
  return yaml;
}

// heap bytes a world of `n` resting boxes holds after one step, beyond what
// it held at construction
std::size_t step_memory(int n) {
  Scene scene = load_scene_string(resting_boxes(n), "resting.yaml");
  World world(std::move(scene.model), std::move(scene.state));
  const std::size_t before = heap_in_use();
  const StepReport& r = world.step();
  EXPECT_EQ(r.solver_failures, 0);
  EXPECT_EQ(r.solver_calls, n) << "one island per box";
  return heap_in_use() - before;
}

TEST(MemoryBound, IslandProblemsGrowLinearlyWithTheScene) {
  if (!PEGSIM_OWN_ALLOCATOR) GTEST_SKIP() << "the sanitizer's allocator is not glibc's";
  // Four times the boxes: four times the islands of one box each, so four
  // times the memory (plus the scene-sized per-step vectors, also linear).
  // Before each island's problem numbered its own bodies it held every
  // scene body's 6 x 6 inverse mass: 16 times (288 MB at 1000 boxes).
  const std::size_t small = step_memory(100), large = step_memory(400);
  ASSERT_GT(small, 0u);
  const double ratio = static_cast<double>(large) / static_cast<double>(small);
  EXPECT_LT(ratio, 6.0) << "100 boxes: " << small << " B, 400 boxes: " << large << " B";
}

TEST(MemoryBound, FailingStepsStayWithinTheirProblemsMemory) {
  if (!PEGSIM_OWN_ALLOCATOR) GTEST_SKIP() << "the sanitizer's allocator is not glibc's";
  // box-stack-3d with PGS held to 3 sweeps: no problem is solved to
  // tolerance, so every step with contacts is a counted failure, and the
  // boxes, badly stopped, scatter and find more contacts (eps: auto grows
  // with their speed). 1000 such steps after the stack lands (step ~350).
  Scene scene = load_scene_file(test::scene_path("box-stack-3d"));
  scene.model.options.solver = "pgs";
  scene.model.options.solver_max_iterations = 3;
  World world(std::move(scene.model), std::move(scene.state));
  for (int k = 0; k < 400; ++k) world.step();
  const std::size_t at_400 = heap_in_use();
  std::size_t peak = at_400;
  int failures = 0, largest = 0;
  for (int k = 0; k < 1000; ++k) {
    const StepReport& r = world.step();
    failures += r.solver_failures;
    for (const IslandReport& island : r.islands) largest = std::max(largest, island.problem_size);
    peak = std::max(peak, heap_in_use());
  }
  EXPECT_GT(failures, 500) << "the scene must fail for this test to mean anything";
  // What a step may hold beyond the landed state: per island a handful of
  // n x n dense matrices (A, the recovery's clamped copy, solver and LU
  // workspaces) and O(n) vectors, n <= the largest problem seen; 6 n^2
  // doubles plus 4 MB for the rest is generous. Memory that grew with the
  // number of failing steps instead would exceed it (1000 steps).
  const double n = largest;
  const double bound = 6.0 * 8.0 * n * n + 4.0 * 1024 * 1024;
  EXPECT_LT(static_cast<double>(peak - at_400), bound)
      << "peak " << peak << " B, at step 400 " << at_400 << " B, largest problem " << largest << " variables";
}

TEST(TimeBudget, ASolveOverItsBudgetIsACountedFailure) {
  // box-stack-3d under a budget no solve can meet (1 ns): every island's
  // Lemke solve stops at its first pivot. The step still ends, counts the
  // failure, says why, and keeps the state finite (the stopped solve's
  // impulses are applied, as for any failure).
  Scene scene = load_scene_file(test::scene_path("box-stack-3d"));
  scene.model.options.solver_time_budget = 1e-9;
  World world(std::move(scene.model), std::move(scene.state));
  int failures = 0, solves = 0;
  for (int k = 0; k < 400; ++k) {
    const StepReport& r = world.step();
    failures += r.solver_failures;
    solves += r.solver_calls;
    if (r.solver_failures > 0) {
      ASSERT_NE(r.solver.message.find("time budget"), std::string::npos) << r.solver.message;
    }
  }
  EXPECT_GT(solves, 0);
  EXPECT_GT(failures, 0);
  for (const BodyState& b : world.state().bodies) {
    ASSERT_TRUE(b.pose.position.allFinite());
    ASSERT_TRUE(b.linear_velocity.allFinite());
  }
}

}  // namespace
}  // namespace pegsim
