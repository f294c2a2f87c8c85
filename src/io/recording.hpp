// HDF5 recordings (layout documented in docs/recording-format.md).
//
// A Recorder is a StepObserver: attach it to a World and every recorded step
// is appended. Files are byte-identical for identical runs (no timestamps).
#pragma once

#include "sim/model.hpp"
#include "sim/state.hpp"
#include "sim/step_report.hpp"

#include <array>
#include <cstdint>
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
  // `every`: record one step in `every` (those with state.step % every == 0).
  // `scene_text`: the scene's YAML (Scene::text), stored as /model/scene.
  // `timings`: also store each step's stage times (/steps/stage_seconds). They
  // are wall-clock measurements that differ from run to run, so they are off by
  // default: identical runs then give byte-identical files.
  Recorder(const std::string& path, const Model& model, const State& initial, int every = 1,
           const std::string& scene_text = "", bool timings = false);
  ~Recorder() override;
  Recorder(const Recorder&) = delete;
  Recorder& operator=(const Recorder&) = delete;

  void on_step(const Model& model, const State& state, const StepReport& report) override;
  bool needs_penetration() const override { return true; }  // /steps/max_penetration
  void close();  // flushes; also done by the destructor

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

// Reading a recording back (tests and tools).
struct RecordedStep {
  long step = 0;      // state.step of the row (0: the initial state)
  double time = 0.0;
  std::vector<Vec3> position;     // per body
  std::vector<Quat> orientation;  // per body
  std::vector<Vec3> linear_velocity, angular_velocity;
  std::vector<double> theta;      // per body, 2D recordings only
  int contacts_found = 0;          // narrowphase feature pairs (format version >= 2)
  ConstraintCounts constraints;    // U, I, X (format version >= 2)
  int traps = 0;                   // standard-model traps (format version >= 2)
  std::vector<Contact> contacts;
  std::vector<double> normal_impulse;  // per contact
  std::vector<Vec3> friction_impulse;  // per contact
  // solver statistics of the step
  SolverStatus solver_status = SolverStatus::Solved;
  int solver_iterations = 0, solver_calls = 0, solver_failures = 0, solver_recoveries = 0, problem_size = 0;
  double complementarity = 0.0, feasibility = 0.0, max_penetration = 0.0;
  // certification (format version >= 3; zero before)
  int islands = 0, escalations = 0;
  std::vector<int> solved_by;  // per solver of Recording::solver_chain
  double certified_residual = 0.0, cone_violation = 0.0;
  bool penetration_exceeded = false;
  std::vector<double> stage_seconds;  // per Stage; empty when the recording has no timings
  // joints: largest position and velocity error before, then after, the joint
  // correction (StepReport::joint_*); empty when the model has no joints
  std::vector<double> joint_errors;
  // per joint (files written since joint rows were recorded; empty before and
  // without joints): the coordinate and its rate (0 for kinds without one) and
  // the wrench [force; torque about B's anchor] its rows applied to end B (world frame)
  std::vector<double> joint_positions, joint_velocities;
  std::vector<Vec6> joint_wrenches;
  // the impulse stepper's events, collisions, micro-collisions and sticking
  // collisions since the previous row (empty for other steppers)
  std::vector<int> impulse_events;
};

// A joint as a recording keeps it: its ends (-1: the world) and each end's
// anchor and frame (columns x, y, z) in that end's body frame.
struct RecordedJoint {
  std::string name, kind;
  int body_a = -1, body_b = -1;
  Vec3 anchor_a = Vec3::Zero(), anchor_b = Vec3::Zero();
  Mat3 frame_a = Mat3::Identity(), frame_b = Mat3::Identity();
};

// A body's shape as a recording keeps it (/bodies/shape_<i>): a half-space by
// its plane, every other kind by its drawing mesh in the body frame.
struct RecordedShape {
  std::string kind;                        // shape kind name (geometry/shape.hpp)
  Vec3 normal = Vec3::UnitZ();             // half_space: {p : normal . p <= offset}
  double offset = 0.0;
  std::vector<Vec3> vertices;              // the other kinds: the mesh
  std::vector<std::array<int, 3>> triangles;
  std::vector<int> facet_offsets, facet_vertices;  // facet f: facet_vertices[facet_offsets[f] .. facet_offsets[f+1])
};

struct Recording {
  std::vector<std::string> body_names;
  std::vector<bool> body_static;
  std::vector<double> body_mass;
  std::vector<Mat3> body_inertia;
  std::vector<std::uint32_t> body_material;  // index into materials (empty in files without /bodies/material)
  std::vector<RecordedShape> shapes;         // per body
  std::vector<std::string> materials;        // /model/materials
  Vec3 gravity = Vec3::Zero();
  int format_version = 0;
  int dimension = 3;
  double h = 0.0;
  int every = 1;
  std::string stepper, model, formulation, solver;  // option names as in scene files
  std::vector<std::string> solver_chain;    // version < 3: {solver}
  std::string scene_text;                   // empty when none was stored
  std::vector<RecordedJoint> joints;        // names and kinds always; ends and frames when stored
  std::vector<RecordedStep> steps;  // steps[0] is the initial state
  // false: the writer never closed the file (killed, or still running); steps
  // holds the rows up to its last checkpoint (docs/recording-format.md)
  bool complete = true;
};

// Reads and checks a whole recording: every dataset's shape, every index
// (bodies, materials, features, joints, shape meshes) and count (per-row
// contacts against /contacts/step_offset). A file that is not a complete,
// consistent recording throws RecordingError "FILE: DATASET: what"; an
// incomplete one (complete == false) is read up to its last checkpoint.
Recording read_recording(const std::string& path);

// "FILE: incomplete recording: N complete rows (steps S0..S1); the writer did not
// close it (killed?)" for a Recording with complete == false.
std::string incomplete_note(const std::string& path, const Recording& recording);

}  // namespace pegsim
