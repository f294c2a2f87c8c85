// pegsim run: load a scene, step it, print a summary.
#include "commands.hpp"
#include "option_checks.hpp"

#include "io/capture_world.hpp"
#include "io/recording.hpp"
#include "io/scene.hpp"
#include "sim/certification.hpp"
#include "sim/statistics.hpp"
#include "sim/world.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <iostream>
#include <memory>
#include <stdexcept>
#include <unistd.h>
#include <vector>

namespace pegsim::cli {
namespace {

// A one-line progress bar on stderr, shown once a run has taken two seconds.
class ProgressBar {
 public:
  explicit ProgressBar(long total) : total_(total), start_(std::chrono::steady_clock::now()) {}
  void update(long done) {
    if (!enabled_) return;
    const double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
    if (elapsed < 2.0 || (done % 16 != 0 && done != total_)) return;
    const int width = 40;
    const int filled = static_cast<int>(width * done / std::max(total_, 1L));
    std::fprintf(stderr, "\r[%-*s] %3d%%  step %ld/%ld  %.1f s", width, std::string(filled, '#').c_str(),
                 static_cast<int>(100 * done / std::max(total_, 1L)), done, total_, elapsed);
    shown_ = true;
  }
  ~ProgressBar() {
    if (shown_) std::fprintf(stderr, "\n");
  }

 private:
  long total_;
  std::chrono::steady_clock::time_point start_;
  bool enabled_ = isatty(fileno(stderr)) != 0;
  bool shown_ = false;
};

}  // namespace

int run_command(const RunArgs& args) {
  Scene scene = args.scene.empty() ? load_scene_string(builtin_scene_text(), builtin_scene_name())
                                   : load_scene_file(args.scene);
  const std::string scene_text = scene.text;
  if (args.position_correction) scene.model.options.position_correction = true;
  if (args.contact_drift_correction) scene.model.options.contact_drift_correction = true;
  // the numeric options arrive checked (main.cpp, option_checks.hpp): a negative value is "not given"
  if (args.relaxation > 0.0) scene.model.options.solver_relaxation = args.relaxation;
  // --model and --stepper together, before the world is built: the stepper's
  // scope check (a Drumwright-Shell stepper needs the standard model) sees the
  // combination asked for, not one of them against the scene's other choice
  if (!args.model.empty() && !parse_contact_model(args.model, scene.model.options.model))
    throw std::invalid_argument("unknown contact model '" + args.model + "' (available: " +
                                chain_text(contact_model_names()) + ")");
  if (!args.stepper.empty()) scene.model.options.stepper = args.stepper;
  World world(std::move(scene.model), std::move(scene.state));
  if (args.h > 0.0) world.set_time_step(args.h);
  if (!args.solver.empty()) world.set_solver(args.solver);
  if (!args.solver_chain.empty()) {
    if (!args.solver.empty()) throw std::invalid_argument("give --solver or --solver-chain, not both");
    const std::vector<std::string> chain = split_list(args.solver_chain);
    world.set_solver_chain(chain);
  }

  const SimOptions& o = world.model().options;
  const long steps = args.steps >= 0 ? args.steps
                     : args.time > 0.0 ? steps_for(args.time, o.h, "--time")
                                       : steps_for(o.duration, o.h, "the scene's duration");

  RunStatistics stats(world.model(), world.state());
  world.add_observer(&stats);
  CertificationLog certification(stderr);  // escalations, failures, penetration: first 10 warnings printed
  world.add_observer(&certification);
  std::unique_ptr<Recorder> recorder;
  if (!args.record.empty()) {
    recorder = std::make_unique<Recorder>(args.record, world.model(), world.state(), args.record_every, scene_text);
    world.add_observer(recorder.get());
  }
  std::unique_ptr<CaptureWriter> capture;
  if (!args.capture.empty()) capture = std::make_unique<CaptureWriter>(args.capture, scene.name + " (" + scene.source + ")");
  if (!args.quiet)
    std::printf("pegsim run: %s (%s), %zu bodies, %s model, solver %s, h = %g s, %ld steps\n",
                scene.name.c_str(), scene.source.c_str(), world.model().bodies.size(),
                std::string(to_string(o.model)).c_str(), chain_text(o.solver_chain).c_str(), o.h, steps);

  const auto start = std::chrono::steady_clock::now();
  {
    ProgressBar bar(steps);
    for (long i = 0; i < steps; ++i) {
      try {
        world.step();
      } catch (const std::runtime_error& e) {  // a refused step (a non-finite state): say where, then fail
        if (recorder) recorder->close();
        std::printf("%s", stats.summary(0.0).c_str());
        throw std::runtime_error(scene.source + ": " + e.what());
      }
      if (capture) capture_last_step(*capture, world, args.capture_every);
      bar.update(i + 1);
    }
  }
  const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  if (recorder) recorder->close();
  if (capture) capture->close();
  std::printf("%s", stats.summary(wall).c_str());
  if (certification.suppressed() > 0)
    std::printf("warnings              %ld (%ld not printed)\n", certification.warnings(), certification.suppressed());
  if (!args.record.empty()) std::printf("recording             %s\n", args.record.c_str());
  if (capture)
    std::printf("captured problems     %d (%d in the fclib layout) in %s\n", capture->count(), capture->fclib_count(),
                args.capture.c_str());
  if (stats.non_finite_steps > 0) {  // the summary holds an inf or nan: the run failed, whatever else it says
    std::fprintf(stderr, "pegsim: error: %s: %s\n", scene.source.c_str(), stats.non_finite_text().c_str());
    return 1;
  }
  return 0;
}

}  // namespace pegsim::cli
