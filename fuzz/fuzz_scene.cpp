// libFuzzer harness: scene YAML text -> load_scene_string -> a few steps.
// Accepted outcomes: a SceneError (the loader's FILE:LINE: field message) or
// a std::runtime_error from World::step (a non-finite state is refused);
// anything else (a crash, a sanitizer report, another exception, a hang
// caught by -timeout) is a finding. Scenes of more than 20 bodies are
// loaded but not stepped, every island is held to 64 variables
// (max_problem_size) and the impulse stepper to 2000 events and 200
// collisions a step, so an input's steps take milliseconds. The source is
// named inside scenes/, so a robot's relative URDF path resolves as in the
// shipped scenes (scenes/powerball-arm-tree.yaml).
#include "io/scene.hpp"
#include "sim/world.hpp"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  pegsim::Scene scene;
  try {
    scene = pegsim::load_scene_string(text, PEGSIM_SCENES_DIR "/fuzz.yaml");
  } catch (const pegsim::SceneError&) {
    return 0;
  }
  if (scene.model.bodies.size() > 20) return 0;
  scene.model.options.max_problem_size = 64;
  // the impulse stepper's per-step budgets likewise (counted, never a hang; the
  // defaults, 200000 events and 20000 collisions, let two coincident balls of
  // billiards-break take 10 s over three steps under the sanitizers)
  pegsim::ImpulseOptions& impulse = scene.model.options.impulse;
  impulse.max_events_per_step = std::min(impulse.max_events_per_step, 2000);
  impulse.max_collisions_per_step = std::min(impulse.max_collisions_per_step, 200);
  try {
    pegsim::World world(std::move(scene.model), std::move(scene.state));
    for (int k = 0; k < 3; ++k) world.step();
  } catch (const std::runtime_error&) {
  } catch (const std::invalid_argument&) {
  }
  return 0;
}
