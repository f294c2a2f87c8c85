// pegsim compare SCENE [...]: the scene side by side in pegsim, Bullet, MuJoCo
// and ODE (docs/cli.md, docs/performance.md). The work is the program
// pegsim_compare (bench/peers/compare_main.cpp), built next to this executable
// when the bench is built: it links the peers' libraries, which this program
// does not take on (their size, and their process-wide state: MuJoCo's
// warning hooks, Bullet's friction callback). This replaces the process with
// `pegsim_compare ARGS...`, so its output and exit status (0: done, 1: an
// --expect-final missed, 2: a bad scene or option) are the command's.
#include "commands.hpp"

#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <stdexcept>
#include <string>
#include <vector>

namespace pegsim::cli {

std::string compare_program() {
  std::error_code error;
  const std::filesystem::path self = std::filesystem::read_symlink("/proc/self/exe", error);
  if (error) throw std::runtime_error("pegsim compare: cannot find this executable's folder: " + error.message());
  return (self.parent_path() / "pegsim_compare").string();
}

int compare_command(const std::vector<std::string>& args) {
  const std::string program = compare_program();
  if (!std::filesystem::exists(program))
    throw std::runtime_error("pegsim compare: " + program + " is missing: build it next to pegsim "
                             "(cmake --build build --target pegsim_compare; configured with PEGSIM_BUILD_BENCH=ON)");
  std::vector<char*> argv{const_cast<char*>(program.c_str())};
  for (const std::string& a : args) argv.push_back(const_cast<char*>(a.c_str()));
  argv.push_back(nullptr);
  execv(program.c_str(), argv.data());
  throw std::runtime_error("pegsim compare: cannot run " + program + ": " + std::strerror(errno));
}

}  // namespace pegsim::cli
