// Hello world (thesis 6.1.2, Script 1, with the recording and replay of 6.2):
// a few bodies dropped on the ground, run while recording, then the recording
// replayed frame by frame. Checks: the cube comes to rest on its face, and
// the replay holds the run's final state bit for bit.
#include "example.hpp"

#include "io/recording.hpp"
#include "sim/world.hpp"

#include <cmath>
#include <cstdio>

int main() {
  using namespace example;
  Model model;
  State state;
  model.options.h = 0.005;
  model.options.eps = 0.02;
  model.options.model = ContactModelKind::Peg;
  add_static(model, state, "ground", HalfSpace{Vec3::UnitZ(), 0.0});
  Pose pose;
  pose.position = Vec3(0.0, 0.0, 1.0);
  const BodyId cube = add_dynamic(model, state, "cube", make_cube(1.0), 1000.0, pose);
  pose.position = Vec3(2.0, 0.0, 1.5);
  pose.orientation = Quat(Eigen::AngleAxisd(0.4, Vec3(1.0, 1.0, 0.0).normalized()));
  add_dynamic(model, state, "octahedron", make_octahedron(0.8), 1000.0, pose);
  pose.position = Vec3(-2.0, 0.0, 1.0);
  add_dynamic(model, state, "prism", make_prism(8, 0.4, 0.5), 1000.0, pose);

  World world(std::move(model), std::move(state));
  const char* path = "hello_world.h5";
  {
    Recorder recorder(path, world.model(), world.state());
    world.add_observer(&recorder);
    const long steps = std::lround(run_time(3.0, 1.0) / world.model().options.h);
    for (long k = 0; k < steps; ++k) world.step();
  }  // the recorder closes its file here

  // replay: every tenth recorded frame
  const Recording rec = read_recording(path);
  std::printf("replaying %s: %zu frames of %zu bodies\n", path, rec.steps.size(), rec.body_names.size());
  for (std::size_t k = 0; k < rec.steps.size(); k += rec.steps.size() / 10) {
    const RecordedStep& s = rec.steps[k];
    std::printf("  t = %5.3f s", s.time);
    for (std::size_t i = 1; i < rec.body_names.size(); ++i)
      std::printf("  %s z = %6.3f", rec.body_names[i].c_str(), s.position[i].z());
    std::printf("  contacts %zu\n", s.contacts.size());
  }

  const BodyState& c = world.state().bodies[cube.index];
  // at rest on its face: centre 0.5 m up (to well within 1e-6 m: exact contact
  // leaves only the round-off of the solve), speed below 1e-6 m/s
  const bool resting = std::abs(c.pose.position.z() - 0.5) < 1e-6 && c.linear_velocity.norm() < 1e-6;
  const bool replayed = rec.steps.back().position[cube.index] == c.pose.position;
  std::printf("cube at z = %.9f m, speed %.2e m/s: %s; replay's last frame %s the run's state\n",
              c.pose.position.z(), c.linear_velocity.norm(), resting ? "at rest" : "NOT at rest",
              replayed ? "equals" : "DIFFERS FROM");
  return resting && replayed ? 0 : 1;
}
