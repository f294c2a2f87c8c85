// HDF5 recordings (layout documented in docs/recording-format.md).
//
// A Recorder is a StepObserver: attach it to a World and every recorded step
// is appended. Files are byte-identical for identical runs (no timestamps).
#pragma once

#include "sim/model.hpp"
#include "sim/state.hpp"
#include "sim/step_report.hpp"

#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

namespace pegsim {

struct RecordingError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

class Recorder : public StepObserver {
 public:
  // Creates (truncates) the file and writes the once-per-file data: options,
  // body names, static flags, shapes in body frame, masses, and the initial state.
  // `every`: record one step in `every`.
  Recorder(const std::string& path, const Model& model, const State& initial, int every = 1,
           const std::string& scene_text = "");
  ~Recorder() override;
  Recorder(const Recorder&) = delete;
  Recorder& operator=(const Recorder&) = delete;

  void on_step(const Model& model, const State& state, const StepReport& report) override;
  void close();  // flushes; also done by the destructor

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

// Reading a recording back (tests and tools).
struct RecordedStep {
  double time = 0.0;
  std::vector<Vec3> position;     // per body
  std::vector<Quat> orientation;  // per body
  std::vector<Vec3> linear_velocity, angular_velocity;
  std::vector<Contact> contacts;
  std::vector<double> normal_impulse;
};

struct Recording {
  std::vector<std::string> body_names;
  std::vector<bool> body_static;
  int dimension = 3;
  double h = 0.0;
  std::vector<RecordedStep> steps;  // steps[0] is the initial state
};

Recording read_recording(const std::string& path);

}  // namespace pegsim
