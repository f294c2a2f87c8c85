// Loading shipped scenes for scenario tests.
#pragma once

#include "io/scene.hpp"
#include "sim/world.hpp"

#include <string>

namespace pegsim::test {

inline std::string scene_path(const std::string& name) { return std::string(PEGSIM_SCENES_DIR) + "/" + name + ".yaml"; }

inline World load_world(const std::string& name) {
  Scene s = load_scene_file(scene_path(name));
  return World(std::move(s.model), std::move(s.state));
}

}  // namespace pegsim::test
