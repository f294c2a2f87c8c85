// pegsim_step_allocations: heap allocations per step on resting scenes (issue
// 11's hot path: none in a steady step, tests/allocations/ holds it there).
// Counts every malloc of the process while a settled scene steps (this
// executable interposes malloc, so operator new, which libstdc++ builds on
// malloc, and Eigen's matrices, which call malloc directly, are both
// counted), and prints allocations per step and bytes per step. A figure, not
// a test.
//
// Usage: pegsim_step_allocations [SCENE.yaml ...]   (default: box-stack-3d and
// box-stack-3d-offset under PEG). Each scene runs 1000 steps to settle, then
// 1000 counted steps.
#include "io/scene.hpp"
#include "sim/world.hpp"

#include <atomic>
#include <cstddef>
#include <cstdio>
#include <string>
#include <vector>

namespace {
std::atomic<long> g_allocations{0};
std::atomic<long> g_bytes{0};
}  // namespace

// Under AddressSanitizer malloc is the sanitizer's: no count (the figures read 0).
#ifndef __SANITIZE_ADDRESS__
extern "C" void* __libc_malloc(std::size_t size);  // glibc's allocator, exported for interposers

extern "C" void* malloc(std::size_t size) {
  g_allocations.fetch_add(1, std::memory_order_relaxed);
  g_bytes.fetch_add(static_cast<long>(size), std::memory_order_relaxed);
  return __libc_malloc(size);
}
#endif

int main(int argc, char** argv) {
  std::vector<std::string> scenes;
  for (int i = 1; i < argc; ++i) scenes.emplace_back(argv[i]);
  if (scenes.empty())
    scenes = {std::string(PEGSIM_SCENES_DIR) + "/box-stack-3d.yaml", std::string(PEGSIM_SCENES_DIR) + "/box-stack-3d-offset.yaml"};
  std::printf("%-28s %8s %14s %14s %10s\n", "scene", "model", "allocs/step", "bytes/step", "contacts");
  for (const std::string& path : scenes) {
    pegsim::Scene scene = pegsim::load_scene_file(path);
    scene.model.options.model = pegsim::ContactModelKind::Peg;
    pegsim::World world(std::move(scene.model), std::move(scene.state));
    for (int i = 0; i < 1000; ++i) world.step();
    const long a0 = g_allocations.load(), b0 = g_bytes.load();
    long contacts = 0;
    for (int i = 0; i < 1000; ++i) contacts += static_cast<long>(world.step().contacts.size());
    const double n = 1000.0;
    std::printf("%-28s %8s %14.1f %14.0f %10.1f\n", scene.name.c_str(), "peg", (g_allocations.load() - a0) / n,
                (g_bytes.load() - b0) / n, contacts / n);
  }
  return 0;
}
