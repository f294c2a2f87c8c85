// pegsim_compare SCENE: a pegsim scene side by side in pegsim, Bullet, MuJoCo
// and ODE (issue 16). The scene is converted to the peers' neutral scene
// (scene_convert.hpp: boxes, the ground, one friction coefficient); pegsim runs
// the scene itself, with its own options (model, solver, eps, friction
// directions). Every engine steps it for the same duration at the scene's h;
// printed per engine, measured from the boxes' poses alone as pegsim_peers
// does (metrics.hpp): time per step, the deepest overlap, the drift after
// settling, and the largest distance of any box from where pegsim has it at
// the same step. --expect-final checks an analytic end position in every
// engine; --out writes each engine's trajectories (CSV) and plots of them.
#include "metrics.hpp"
#include "run.hpp"
#include "python_script.hpp"
#include "scene_convert.hpp"

#include "sim/world.hpp"

#include <CLI/CLI.hpp>

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <optional>
#include <sstream>

namespace pegsim::bench {
namespace {

// pegsim on the scene as loaded (not on the neutral scene: its own options)
class SceneEngine final : public PeerEngine {
 public:
  SceneEngine(const Scene& scene, std::vector<int> dynamic) : scene_(scene), dynamic_(std::move(dynamic)) {}
  std::string name() const override { return "pegsim"; }
  void load(const BenchScene&) override {
    world_.emplace(scene_.model, scene_.state);
    failures_ = 0;
  }
  void step() override { failures_ += world_->step().solver_failures; }
  void poses(std::vector<Pose>& out) const override {
    out.clear();
    for (int i : dynamic_) out.push_back(world_->state().bodies[static_cast<std::size_t>(i)].pose);
  }
  int contacts() const override { return world_->last_report().contacts_found; }
  std::string warnings() const override { return failures_ ? std::to_string(failures_) + " failed solves" : ""; }

 private:
  const Scene& scene_;
  std::vector<int> dynamic_;
  std::optional<World> world_;
  long failures_ = 0;
};

struct Run {
  RunMetrics metrics;
  std::vector<std::vector<Pose>> trajectory;  // per step (row 0: the start), per dynamic box
};

Run run(PeerEngine& engine, const BenchScene& scene) {
  using Clock = std::chrono::steady_clock;
  Run r;
  engine.load(scene);
  MetricsRecorder recorder(scene, engine.name(), 1, 10);
  std::vector<Pose> poses;
  for (const BenchBox& b : scene.boxes)
    if (!b.is_static) poses.push_back(b.pose);
  r.trajectory.push_back(poses);
  for (int i = 0; i < scene.steps(); ++i) {
    const Clock::time_point start = Clock::now();
    engine.step();
    const double seconds = std::chrono::duration<double>(Clock::now() - start).count();
    engine.poses(poses);
    recorder.record(i, seconds, poses, engine.contacts());
    r.trajectory.push_back(poses);
    if (!recorder.finite()) break;
  }
  r.metrics = recorder.finish(poses);
  r.metrics.warnings = engine.warnings();
  return r;
}

// the largest distance of a box from pegsim's at the same step, and which box
std::pair<double, int> deviation(const Run& a, const Run& reference) {
  double worst = 0.0;
  int which = -1;
  for (std::size_t k = 0; k < a.trajectory.size() && k < reference.trajectory.size(); ++k)
    for (std::size_t i = 0; i < a.trajectory[k].size(); ++i) {
      const double d = (a.trajectory[k][i].position - reference.trajectory[k][i].position).norm();
      if (d > worst) worst = d, which = static_cast<int>(i);
    }
  return {worst, which};
}

void write_trajectory(const std::filesystem::path& file, const Run& r, const BenchScene& scene,
                      const std::vector<std::string>& names) {
  std::ofstream out(file);
  out << "step,t,body,x,y,z,qw,qx,qy,qz\n";
  char line[256];
  for (std::size_t k = 0; k < r.trajectory.size(); ++k)
    for (std::size_t i = 0; i < r.trajectory[k].size(); ++i) {
      const Pose& p = r.trajectory[k][i];
      std::snprintf(line, sizeof line, "%zu,%.10g,%s,%.10g,%.10g,%.10g,%.10g,%.10g,%.10g,%.10g\n", k,
                    static_cast<double>(k) * scene.h, names[i].c_str(), p.position.x(), p.position.y(),
                    p.position.z(), p.orientation.w(), p.orientation.x(), p.orientation.y(), p.orientation.z());
      out << line;
    }
  if (!out) throw std::runtime_error("cannot write " + file.string());
}

struct Expectation {
  std::string body;
  Vec3 position;
  double tolerance;
};

Expectation parse_expectation(const std::string& text) {  // BODY:X,Y,Z:TOL
  const std::size_t a = text.find(':'), b = text.rfind(':');
  Expectation e;
  double x, y, z;
  if (a == std::string::npos || a == b || std::sscanf(text.substr(a + 1, b - a - 1).c_str(), "%lf,%lf,%lf", &x, &y, &z) != 3)
    throw std::invalid_argument("--expect-final " + text + ": expected BODY:X,Y,Z:TOLERANCE");
  e.body = text.substr(0, a);
  e.position = Vec3(x, y, z);
  e.tolerance = std::stod(text.substr(b + 1));
  return e;
}

}  // namespace
}  // namespace pegsim::bench

int main(int argc, char** argv) {
  using namespace pegsim;
  using namespace pegsim::bench;
  CLI::App app{"pegsim_compare: a scene side by side in pegsim, Bullet, MuJoCo and ODE"};
  std::string scene_file, engines_arg = "pegsim,bullet,mujoco,ode", out_dir;
  double time = -1.0;
  std::vector<std::string> expectations;
  app.add_option("scene", scene_file, "scene file: boxes, the ground (z <= 0), one friction coefficient")->required();
  app.add_option("--engines", engines_arg, "comma list: pegsim, bullet, mujoco, ode (pegsim always runs: the reference)");
  app.add_option("--time", time, "simulated seconds (default: the scene's duration)");
  app.add_option("--out", out_dir, "write trajectory_<engine>.csv (and plots) to DIR");
  app.add_option("--expect-final", expectations,
                 "BODY:X,Y,Z:TOL: every engine must end with BODY within TOL (m) of (X, Y, Z); exit 1 if not");
  CLI11_PARSE(app, argc, argv);
  try {
    const Scene scene = load_scene_file(scene_file);
    const ConvertedScene converted = to_bench_scene(scene, time > 0 ? time : scene.model.options.duration);
    const BenchScene& bench = converted.bench;
    if (!converted.has_ground)
      std::cout << "note: the scene has no ground; the peers' scenes always have one at z = 0\n";
    std::vector<std::string> names;
    for (int i : converted.dynamic) names.push_back(scene.model.bodies[static_cast<std::size_t>(i)].name);

    std::stringstream wanted(engines_arg);
    std::vector<std::unique_ptr<PeerEngine>> engines;
    engines.push_back(std::make_unique<SceneEngine>(scene, converted.dynamic));
    for (std::string name; std::getline(wanted, name, ',');) {
      if (name == "pegsim" || name.empty()) continue;
      bool known = false;
      for (const EngineEntry& e : all_engines()) {
        if (e.name != name) continue;
        known = true;
        if (e.make) engines.push_back(e.make());
        else std::cout << name << ": skipped: not built with " << e.library << "\n";
      }
      if (!known) throw std::invalid_argument("unknown engine '" + name + "' (pegsim, bullet, mujoco, ode)");
    }
    std::printf("%s: %zu dynamic boxes, mu %.3g, h %g s, %d steps (%.3g s)\n", scene.name.c_str(), names.size(),
                bench.mu, bench.h, bench.steps(), bench.duration);
    std::vector<Run> runs;
    for (auto& engine : engines) runs.push_back(run(*engine, bench));

    std::printf("%-8s %10s %14s %14s %14s %22s  %s\n", "engine", "us/step", "max overlap m", "settled m",
                "drift m", "from pegsim m (box)", "warnings");
    for (const Run& r : runs) {
      const auto [d, which] = deviation(r, runs[0]);
      const RunMetrics& m = r.metrics;
      std::printf("%-8s %10.1f %14.3e %14.3e %14.3e %12.3e (%s)  %s%s\n", m.engine.c_str(), m.mean_us,
                  m.max_penetration, m.settled_penetration, m.drift, d, which >= 0 ? names[which].c_str() : "-",
                  m.finite ? "" : "NOT FINITE ", m.warnings.c_str());
    }
    int status = 0;
    for (const std::string& text : expectations) {
      const Expectation e = parse_expectation(text);
      std::size_t index = names.size();
      for (std::size_t i = 0; i < names.size(); ++i)
        if (names[i] == e.body) index = i;
      if (index == names.size()) throw std::invalid_argument("--expect-final: no dynamic box named '" + e.body + "'");
      for (const Run& r : runs) {
        const Vec3 p = r.trajectory.back()[index].position;
        const double miss = (p - e.position).norm();
        const bool ok = r.metrics.finite && miss <= e.tolerance;
        std::printf("expect %-8s %s at (%.4f, %.4f, %.4f): (%.4f, %.4f, %.4f), off by %.2e m (allowed %.2e): %s\n",
                    r.metrics.engine.c_str(), e.body.c_str(), e.position.x(), e.position.y(), e.position.z(), p.x(),
                    p.y(), p.z(), miss, e.tolerance, ok ? "ok" : "FAILED");
        if (!ok) status = 1;
      }
    }
    if (!out_dir.empty()) {
      std::filesystem::create_directories(out_dir);
      for (const Run& r : runs)
        write_trajectory(std::filesystem::path(out_dir) / ("trajectory_" + r.metrics.engine + ".csv"), r, bench, names);
      std::printf("trajectories: %s/trajectory_<engine>.csv\n", out_dir.c_str());
      std::fflush(stdout);
      const int plotted = cli::run_python_script(cli::script_path("plot_compare.py"), {out_dir});
      if (plotted != 0) std::printf("plots: not drawn (scripts/plot_compare.py exited with %d)\n", plotted);
    }
    return status;
  } catch (const std::exception& e) {
    std::cerr << "pegsim_compare: " << e.what() << "\n";
    return 2;
  }
}
