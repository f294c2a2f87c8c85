// Helpers for scene-file tests.
#pragma once

#include "io/scene.hpp"

#include <gtest/gtest.h>

#include <string>

namespace pegsim::test {

// The SceneError message of loading `yaml` (named "case.yaml"), or "(loaded)".
inline std::string scene_error(const std::string& yaml) {
  try {
    load_scene_string(yaml, "case.yaml");
  } catch (const SceneError& e) {
    return e.what();
  }
  return "(loaded)";
}

// Passes when loading fails with a message containing every one of `parts`.
inline ::testing::AssertionResult fails_with(const std::string& yaml,
                                             std::initializer_list<std::string> parts) {
  const std::string message = scene_error(yaml);
  for (const std::string& part : parts)
    if (message.find(part) == std::string::npos)
      return ::testing::AssertionFailure() << "message '" << message << "' lacks '" << part << "'";
  return ::testing::AssertionSuccess();
}

inline Scene load(const std::string& yaml) { return load_scene_string(yaml, "case.yaml"); }

}  // namespace pegsim::test
