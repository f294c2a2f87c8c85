#include "python_script.hpp"

#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>

namespace pegsim::cli {

std::string python_interpreter() {
  const char* env = std::getenv("PEGSIM_PYTHON");
  return env && *env ? env : "/usr/bin/python3";
}

std::string script_path(const std::string& name) {
  return (std::filesystem::path(PEGSIM_SOURCE_DIR) / "scripts" / name).string();
}

int run_python_script(const std::string& script, const std::vector<std::string>& args) {
  const std::string python = python_interpreter();
  std::vector<char*> argv;
  argv.push_back(const_cast<char*>(python.c_str()));
  argv.push_back(const_cast<char*>(script.c_str()));
  for (const std::string& a : args) argv.push_back(const_cast<char*>(a.c_str()));
  argv.push_back(nullptr);
  std::fflush(stdout);
  std::fflush(stderr);
  const pid_t pid = fork();
  if (pid < 0) return 127;
  if (pid == 0) {
    execv(python.c_str(), argv.data());
    std::fprintf(stderr, "pegsim: cannot run %s\n", python.c_str());
    _exit(127);
  }
  int status = 0;
  if (waitpid(pid, &status, 0) < 0) return 127;
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128;
}

}  // namespace pegsim::cli
