// The quadruped trotting (scenes/quadruped-trot.yaml; data/robots/quadruped.urdf):
// loads the scene, steps it, and reads the torso's motion and the tree's joint
// state (State::trees: q, v of the 14 generalized coordinates).
// Checks: it walks forward (+x) once the gait has ramped in (0.5 s), its torso
// stays within 20 degrees of level, no foot sinks beyond 1e-6 m.
// Usage: example_quadruped_trot [SCENES_FOLDER]   (default: scenes, from the repository root)
#include "example.hpp"

#include "io/scene.hpp"
#include "sim/world.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

int main(int argc, char** argv) {
  using namespace example;
  const std::string folder = argc > 1 ? argv[1] : "scenes";
  Scene scene = load_scene_file(folder + "/quadruped-trot.yaml");
  World world(std::move(scene.model), std::move(scene.state));
  world.set_measure_penetration(true);
  const std::uint32_t torso = world.model().trees[0].link_body[0];
  const double h = world.model().options.h;
  const long steps = std::lround(run_time(4.0, 1.5) / h), ramped = std::lround(0.5 / h);
  double x_ramped = 0.0, lowest_up = 1.0, deepest = 0.0;
  for (long k = 0; k < steps; ++k) {
    deepest = std::max(deepest, world.step().max_penetration);
    const Pose& p = world.state().bodies[torso].pose;
    lowest_up = std::min(lowest_up, (p.orientation * Vec3::UnitZ()).z());
    if (k + 1 == ramped) x_ramped = p.position.x();
  }
  const double x = world.state().bodies[torso].pose.position.x();
  const double speed = (x - x_ramped) / (h * static_cast<double>(steps - ramped));
  const double tilt = std::acos(std::clamp(lowest_up, -1.0, 1.0)) * 180.0 / 3.141592653589793;
  std::printf("%s: %ld steps, walked %.3f m, %.3f m/s after the ramp; largest tilt %.1f degrees; deepest overlap "
              "%.2e m; joint rates |v| %.2f\n",
              world.model().bodies[torso].name.c_str(), steps, x, speed, tilt, deepest, world.state().trees[0].v.norm());
  const bool ok = speed > 0.05 && tilt < 20.0 && deepest < 1e-6;
  std::printf("%s\n", ok ? "it walks" : "IT DID NOT WALK");
  return ok ? 0 : 1;
}
