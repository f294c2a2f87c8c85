// pegsim plot RECORDING [--out DIR]: PNG plots of a recording against time
// (energy and momentum, contacts and U/I/X counts, penetration, solver
// iterations and residuals, trajectories), drawn by scripts/plot_recording.py.
#include "commands.hpp"
#include "python_script.hpp"

#include "io/recording.hpp"

#include <cstdio>
#include <filesystem>
#include <stdexcept>
#include <string>
#include <vector>

namespace pegsim::cli {

int plot_command(const PlotArgs& args) {
  namespace fs = std::filesystem;
  // the C++ reader checks the file first (the same checks as replay and
  // Python's pegsim.read_recording): a truncated or malformed recording stops
  // here with its message (RecordingError), before any Python runs
  const Recording recording = read_recording(args.recording);
  const fs::path source(args.recording);
  const fs::path out = args.out.empty() ? source.parent_path() / (source.stem().string() + "-plots") : fs::path(args.out);
  fs::create_directories(out);
  std::printf("pegsim plot: %s (%zu rows, %zu bodies, %dD, %s model, %s solver)\n  -> %s\n", args.recording.c_str(),
              recording.steps.size(), recording.body_names.size(), recording.dimension, recording.model.c_str(),
              recording.solver.c_str(), out.c_str());

  const std::string script = script_path("plot_recording.py");
  if (!fs::exists(script)) throw std::runtime_error("cannot plot: " + script + " not found");
  std::vector<std::string> script_args{args.recording, out.string()};
  if (!recording.complete) {  // the rows up to the last checkpoint, as read_recording read them
    std::fprintf(stderr, "pegsim plot: warning: %s; plotting those\n", incomplete_note(args.recording, recording).c_str());
    script_args.push_back(std::to_string(recording.steps.size()));
  }
  const int status = run_python_script(script, script_args);
  if (status == 3)  // the script's code for "matplotlib is missing"; it printed why
    throw std::runtime_error("no plots drawn: matplotlib is missing (Debian: apt-get install python3-matplotlib)");
  if (status != 0)
    throw std::runtime_error(python_interpreter() + " " + script + " exited with status " + std::to_string(status));
  return 0;
}

}  // namespace pegsim::cli
