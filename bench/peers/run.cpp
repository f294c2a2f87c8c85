// The runs of run.hpp.
#include "run.hpp"

#include <chrono>
#include <cmath>
#include <cstdio>
#include <ostream>
#include <stdexcept>

namespace pegsim::bench {

std::vector<EngineEntry> all_engines() {
  std::vector<EngineEntry> engines;
  engines.push_back({"pegsim", "pegsim", &make_pegsim_engine});
  engines.push_back({"pegsim-nd4", "pegsim", &make_pegsim_pyramid_engine});
  EngineEntry bullet{"bullet", "Bullet (libbullet-dev)", {}};
  EngineEntry mujoco{"mujoco", "MuJoCo (libmujoco-dev)", {}};
  EngineEntry ode{"ode", "ODE (libode-dev)", {}};
#ifdef PEGSIM_PEERS_HAVE_BULLET
  bullet.make = &make_bullet_engine;
#endif
#ifdef PEGSIM_PEERS_HAVE_MUJOCO
  mujoco.make = &make_mujoco_engine;
#endif
#ifdef PEGSIM_PEERS_HAVE_ODE
  ode.make = &make_ode_engine;
#endif
  engines.push_back(bullet);
  engines.push_back(mujoco);
  engines.push_back(ode);
  return engines;
}

RunMetrics run_scene(PeerEngine& engine, const BenchScene& scene, int measure_every, int first_timed) {
  using Clock = std::chrono::steady_clock;
  if (const std::string why = engine.unsupported(scene); !why.empty())
    throw std::invalid_argument(engine.name() + " cannot hold " + scene.name + ": " + why);
  engine.load(scene);
  MetricsRecorder recorder(scene, engine.name(), measure_every, first_timed);
  std::vector<Pose> poses;
  const int steps = scene.steps();
  for (int i = 0; i < steps; ++i) {
    const Clock::time_point start = Clock::now();
    engine.step();
    const Clock::time_point end = Clock::now();
    engine.poses(poses);
    recorder.record(i, std::chrono::duration<double>(end - start).count(), poses, engine.contacts());
    if (!recorder.finite()) break;
  }
  RunMetrics m = recorder.finish(poses);
  m.warnings = engine.warnings();
  return m;
}

bool check_free_fall(PeerEngine& engine, double duration, std::ostream& out) {
  const BenchScene scene = make_free_fall(duration);
  engine.load(scene);
  for (int i = 0; i < scene.steps(); ++i) engine.step();
  std::vector<Pose> poses;
  engine.poses(poses);
  const double t = scene.steps() * scene.h, g = -scene.gravity.z();
  const Vec3 start = scene.bodies[0].pose.position;
  const double analytic = start.z() - 0.5 * g * t * t;
  const double tolerance = 0.5 * g * scene.h * t * (1 + 1e-6) + 1e-9;
  const Pose& p = poses.at(0);
  const double error = p.position.z() - analytic;
  const double sideways = (p.position - start).head<2>().norm();
  const double turned = p.orientation.angularDistance(scene.bodies[0].pose.orientation);
  const bool ok = std::abs(error) <= tolerance && sideways <= 1e-9 && turned <= 1e-9;
  char line[200];
  std::snprintf(line, sizeof line, "free fall %-7s t = %.3f s: z - analytic = %+.3e m (allowed +-%.3e), sideways %.1e m, turned %.1e rad: %s\n",
                engine.name().c_str(), t, error, tolerance, sideways, turned, ok ? "ok" : "FAILED");
  out << line;
  return ok;
}

}  // namespace pegsim::bench
