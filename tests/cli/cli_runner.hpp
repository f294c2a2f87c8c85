// Running the pegsim command line (or any shell command) from a test, as a
// user would: a separate process, stdout and stderr together.
#pragma once

#include "common/test_paths.hpp"

#include <array>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>

namespace pegsim::test {

struct Output {
  int status;        // as pclose returns it (0: exit status 0)
  std::string text;  // stdout and stderr
};

inline Output run_shell(const std::string& cmd) {
  Output out{0, ""};
  FILE* pipe = popen((cmd + " 2>&1").c_str(), "r");
  std::array<char, 4096> buf;
  while (std::fgets(buf.data(), buf.size(), pipe)) out.text += buf.data();
  out.status = pclose(pipe);
  return out;
}

// `pegsim ARGS` (PEGSIM_CLI: the built binary, set by tests/CMakeLists.txt)
inline Output run_cli(const std::string& args) { return run_shell(std::string(PEGSIM_CLI) + " " + args); }

inline std::string slurp(const std::filesystem::path& p) {
  std::ifstream in(p, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

// An empty folder under the system's temporary directory.
inline std::filesystem::path fresh_dir(const std::string& name) {
  const std::filesystem::path dir = std::filesystem::temp_directory_path() / name;
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  return dir;
}

}  // namespace pegsim::test
