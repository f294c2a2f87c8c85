// Running the plotting scripts of scripts/ with /usr/bin/python3 (or
// $PEGSIM_PYTHON), without a shell.
#pragma once

#include <string>
#include <vector>

namespace pegsim::cli {

// The interpreter: $PEGSIM_PYTHON if set, else /usr/bin/python3 (the Debian
// one, with numpy, h5py and matplotlib from apt).
std::string python_interpreter();
// scripts/NAME in the source tree
std::string script_path(const std::string& name);
// Runs `python script args...` and waits; returns its exit status (127: could
// not start it, 128: killed by a signal).
int run_python_script(const std::string& script, const std::vector<std::string>& args);

}  // namespace pegsim::cli
