// pegsim sweep STUDY.yaml [...]: a parameter study on Dask distributed (and
// pegsim experiment NAME --workers N: its runs on Dask, experiment_command.cpp). The
// work is Python's (python/pegsim_sweep, docs/sweeps.md): this runs
// `python3 -m pegsim_sweep ARGS...` with the built module's folder
// (build/python, which holds pegsim and pegsim_sweep) first on PYTHONPATH, and
// returns its exit status (0: every run finished, 1: some run failed, 2: a bad
// study file or option).
#include "commands.hpp"
#include "python_script.hpp"

#include <cstdlib>
#include <filesystem>
#include <stdexcept>
#include <string>

namespace pegsim::cli {

int run_sweep_module(const std::string& module, const std::vector<std::string>& args) {
#ifdef PEGSIM_PYTHON_DIR
  const std::string dir = PEGSIM_PYTHON_DIR;
  if (!std::filesystem::exists(std::filesystem::path(dir) / "pegsim_sweep" / "__main__.py"))
    throw std::runtime_error("pegsim sweep: " + dir + "/pegsim_sweep is missing: build the Python module "
                             "(cmake --build build --target pegsim_python)");
  const char* old = std::getenv("PYTHONPATH");
  const std::string path = old && *old ? dir + ":" + old : dir;
  setenv("PYTHONPATH", path.c_str(), 1);
  std::vector<std::string> argv{module};
  argv.insert(argv.end(), args.begin(), args.end());
  const int status = run_python_script("-m", argv);
  if (status == 127 || status == 128)
    throw std::runtime_error(python_interpreter() + " -m " + module + " did not start or was killed");
  return status;
#else
  (void)module;
  (void)args;
  throw std::runtime_error("Dask runs need the Python module: configure with -DPEGSIM_BUILD_PYTHON=ON");
#endif
}

int sweep_command(const std::vector<std::string>& args) { return run_sweep_module("pegsim_sweep", args); }

}  // namespace pegsim::cli
