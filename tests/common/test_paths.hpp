// Where the tests find the checkout's files (scenes, tests/data) and the built
// pegsim binary.
//
// The paths are written at configure time into one generated file
// (<build>/tests/test_paths.cpp, tests/CMakeLists.txt), not passed as compile
// definitions: every other test object is then the same for any checkout, and
// ccache (CCACHE_BASEDIR, CMakeLists.txt) reuses it across clones, CI's fresh
// clone and the sanitizer build (scripts/sanitize.sh) included.
#pragma once

#include <string>

namespace pegsim::test {
const std::string& scenes_dir();     // <checkout>/scenes
const std::string& test_data_dir();  // <checkout>/tests/data
const std::string& cli_path();       // the built pegsim binary ("" in unit-stage tests)
}  // namespace pegsim::test

#define PEGSIM_SCENES_DIR (::pegsim::test::scenes_dir())
#define PEGSIM_TEST_DATA_DIR (::pegsim::test::test_data_dir())
#define PEGSIM_CLI (::pegsim::test::cli_path())
