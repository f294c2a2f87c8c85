// No heap allocation in a steady step (issue 11 item 5): a settled scene's
// step (broadphase, narrowphase, PEG's constraints, islands, formulation,
// Lemke's warm start on the structure, certification, integration, the step
// report) reuses storage it kept from earlier steps.
//
// The count is of malloc itself: this executable interposes malloc (each
// call counted, then handed to glibc's), so operator new (libstdc++ calls
// malloc) and Eigen's matrices (Eigen's aligned_malloc calls malloc) are both
// seen. Only the measured steps count; the first 1000 settle the scene and
// let every kept vector reach its size. The scenes are the issue's:
// box-stack-3d and the 10-box pyramid, under PEG with the default chain, plus
// the offset 3D stack (PEG's I- and X-constraints at corners) and the 2D stack
// (PEG 2D's grouping). A step that allocates shows up as >= 1 call a step;
// 1000 steps of a steady scene allow none.
//
// Under AddressSanitizer malloc is the sanitizer's own and cannot be
// interposed: the test skips there (scripts/sanitize.sh runs the rest).
#include "common/test_paths.hpp"
#include "io/scene.hpp"
#include "sim/world.hpp"

#include <gtest/gtest.h>

#include <atomic>
#include <cstddef>
#include <cstdlib>
#include <string>

#if defined(__SANITIZE_ADDRESS__)
#define PEGSIM_NO_MALLOC_COUNT 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define PEGSIM_NO_MALLOC_COUNT 1
#endif
#endif

namespace {
std::atomic<bool> g_counting{false};
std::atomic<long> g_mallocs{0};
void* volatile g_probe = nullptr;
}  // namespace

#ifndef PEGSIM_NO_MALLOC_COUNT
extern "C" void* __libc_malloc(std::size_t size);  // glibc's allocator, exported for interposers

extern "C" void* malloc(std::size_t size) {
  if (g_counting.load(std::memory_order_relaxed)) g_mallocs.fetch_add(1, std::memory_order_relaxed);
  return __libc_malloc(size);
}
#endif

namespace pegsim {
namespace {

struct SteadyRun {
  long mallocs = 0;
  int failures = 0;     // solver failures over the counted steps
  long contacts = 0;    // contacts over the counted steps
};

SteadyRun count_steady_steps(const std::string& scene_name) {
  Scene scene = load_scene_file(test::scenes_dir() + "/" + scene_name + ".yaml");
  scene.model.options.model = ContactModelKind::Peg;
  World world(std::move(scene.model), std::move(scene.state));
  for (int i = 0; i < 1000; ++i) world.step();
  SteadyRun run;
  g_mallocs = 0;
  g_counting = true;
  for (int i = 0; i < 1000; ++i) {
    const StepReport& report = world.step();
    run.failures += report.solver_failures;
    run.contacts += static_cast<long>(report.contacts.size());
  }
  g_counting = false;
  run.mallocs = g_mallocs.load();
  return run;
}

class SteadyStep : public ::testing::TestWithParam<const char*> {};

TEST_P(SteadyStep, AllocatesNothing) {
#ifdef PEGSIM_NO_MALLOC_COUNT
  GTEST_SKIP() << "malloc cannot be interposed under AddressSanitizer";
#endif
  // the counter sees allocations at all (else a zero below proves nothing)
  g_mallocs = 0;
  g_counting = true;
  g_probe = std::malloc(64);  // stored to a volatile: the call cannot be elided
  std::free(g_probe);
  g_counting = false;
  ASSERT_GE(g_mallocs.load(), 1) << "malloc is not interposed in this build";

  const SteadyRun run = count_steady_steps(GetParam());
  ASSERT_GT(run.contacts, 0) << "the scene is not resting on anything: nothing was measured";
  EXPECT_EQ(run.failures, 0);
  EXPECT_EQ(run.mallocs, 0) << run.mallocs / 1000.0 << " allocations a step in a settled " << GetParam();
}

INSTANTIATE_TEST_SUITE_P(Scenes, SteadyStep,
                         ::testing::Values("box-stack-3d", "pyramid-10", "box-stack-3d-offset", "box-stack-2d"),
                         [](const ::testing::TestParamInfo<const char*>& info) {
                           std::string name = info.param;
                           for (char& c : name)
                             if (c == '-') c = '_';
                           return name;
                         });

}  // namespace
}  // namespace pegsim
