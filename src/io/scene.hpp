// Scene files: a human-writable YAML description of a simulation.
// The format is documented in docs/scene-format.md.
//
// Loading validates everything before any step: a malformed scene throws
// SceneError whose message names the file, the line and the field, e.g.
//   scenes/bad.yaml:12: bodies[2].mass: must be positive, got -1
#pragma once

#include "sim/model.hpp"
#include "sim/state.hpp"

#include <stdexcept>
#include <string>

namespace pegsim {

struct SceneError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

struct Scene {
  std::string source;  // file path, or "<builtin:NAME>" / "<string>"
  std::string name;    // options.name, or the file stem
  std::string text;    // the YAML text as read (pass it to Recorder to embed it in a recording)
  Model model;
  State state;         // initial state
};

Scene load_scene_file(const std::string& path);
// `source` names the text in error messages.
Scene load_scene_string(const std::string& yaml_text, const std::string& source = "<string>");

}  // namespace pegsim
