// pegsim_peers: issue 11's speed benchmark. Runs the same scenes in pegsim and,
// in the same process, in Bullet, MuJoCo and ODE (those built in), and prints
// per scene each engine's time per step, penetration, drift and pegsim's ratio
// to each, then the scaling piles. docs/performance.md has the command and a run.
#include "report.hpp"
#include "run.hpp"

#include <CLI/CLI.hpp>

#include <algorithm>
#include <iostream>
#include <sstream>

namespace {

std::vector<std::string> split(const std::string& list) {
  std::vector<std::string> out;
  std::stringstream in(list);
  for (std::string item; std::getline(in, item, ',');)
    if (!item.empty()) out.push_back(item);
  return out;
}

bool contains(const std::vector<std::string>& list, const std::string& item) {
  return std::find(list.begin(), list.end(), item) != list.end();
}

// one engine on one scene; an engine that throws is reported, not fatal
pegsim::bench::RunMetrics attempt(pegsim::bench::PeerEngine& engine, const pegsim::bench::BenchScene& scene,
                                  int measure_every, int first_timed) {
  try {
    return run_scene(engine, scene, measure_every, first_timed);
  } catch (const std::exception& e) {
    pegsim::bench::RunMetrics failed;
    failed.engine = engine.name();
    failed.finite = false;
    failed.warnings = std::string("failed: ") + e.what();
    return failed;
  }
}

}  // namespace

int main(int argc, char** argv) {
  using namespace pegsim::bench;
  CLI::App app{"pegsim_peers: pegsim against Bullet, MuJoCo and ODE on the same scenes (issue 11, Speed)"};
  std::string scenes_arg = "stack10,box-stack-3d,pyramid,pile100,scaling";
  std::string engines_arg = "pegsim,pegsim-nd4,bullet,mujoco,ode";
  std::string sizes_arg = "100,300,1000";
  double time = -1.0, scale_time = 1.0;
  int measure_every = 5;
  bool quick = false, free_fall = false;
  app.add_option("--scenes", scenes_arg, "comma list: stack10, box-stack-3d, pyramid, pile<N>, scaling");
  app.add_option("--engines", engines_arg, "comma list: pegsim, pegsim-nd4 (4 friction directions, the peers' cone), bullet, mujoco, ode");
  app.add_option("--time", time, "simulated seconds of every scene (default: each scene's own; settle time scales)");
  app.add_option("--scale-sizes", sizes_arg, "bodies of the scaling piles");
  app.add_option("--scale-time", scale_time, "simulated seconds of each scaling pile (the second half is timed)");
  app.add_option("--scale-measure-every", measure_every, "scaling piles: measure penetration every N steps");
  app.add_flag("--quick", quick, "a short run (under a minute): stacks and pyramid for 5 s, pile scenes for 1 s, scaling piles of 100 and 300 for 0.6 s");
  app.add_flag("--free-fall", free_fall, "first check each engine's free-falling box against the analytic fall");
  CLI11_PARSE(app, argc, argv);
  if (quick) {
    if (!app.count("--scale-sizes")) sizes_arg = "100,300";
    if (!app.count("--scale-time")) scale_time = 0.6;
  }

  const std::vector<std::string> wanted = split(engines_arg);
  std::vector<std::unique_ptr<PeerEngine>> engines;
  for (const EngineEntry& e : all_engines()) {
    if (!contains(wanted, e.name)) continue;
    if (!e.make) {
      std::cout << e.name << ": skipped: not built with " << e.library << "\n";
      continue;
    }
    engines.push_back(e.make());
  }
  for (const std::string& name : wanted) {
    const std::vector<EngineEntry> known = all_engines();
    if (std::none_of(known.begin(), known.end(), [&](const EngineEntry& e) { return e.name == name; })) {
      std::cerr << "unknown engine '" << name << "' (pegsim, pegsim-nd4, bullet, mujoco, ode)\n";
      return 2;
    }
  }

  int status = 0;
  if (free_fall) {
    const double t = time > 0 ? time : 0.05;
    for (auto& engine : engines)
      if (!check_free_fall(*engine, t, std::cout)) status = 1;
    std::cout << std::flush;
  }

  try {
    for (const std::string& name : split(scenes_arg)) {
      if (name == "scaling") {
        std::vector<ScalingRun> runs;
        for (const std::string& size : split(sizes_arg)) {
          BenchScene scene = make_pile(std::stoi(size), 2);
          scene.settle_time = scene.duration = scale_time;
          for (auto& engine : engines) {
            std::clog << "  running " << scene.name << " in " << engine->name() << "..." << std::endl;
            runs.push_back({scene.dynamic_count(), scene.duration,
                            attempt(*engine, scene, measure_every, scene.steps() / 2)});
          }
        }
        print_scaling(runs, std::cout);
        std::cout << std::flush;
        continue;
      }
      double duration = time;
      if (quick && time <= 0) duration = name.rfind("pile", 0) == 0 ? 1.0 : 5.0;
      const BenchScene scene = make_scene(name, duration);
      std::vector<RunMetrics> runs;
      for (auto& engine : engines) {
        std::clog << "  running " << scene.name << " in " << engine->name() << "..." << std::endl;
        runs.push_back(attempt(*engine, scene, 1, 10));
      }
      print_scene(scene, runs, std::cout);
      std::cout << std::flush;
    }
  } catch (const std::exception& e) {
    std::cerr << "pegsim_peers: " << e.what() << "\n";
    return 2;
  }
  return status;
}
