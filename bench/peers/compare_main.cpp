// pegsim_compare SCENE: a pegsim scene side by side in pegsim, Bullet, MuJoCo
// and ODE (issue 16); `pegsim compare` runs this program (apps/compare_command.cpp).
// The scene is converted to the peers' neutral scene (scene_convert.hpp:
// boxes, convex hulls, compounds, spheres, capsules, cylinders, cones,
// half-spaces at any pose, friction per
// material pair, initial velocities, h); pegsim runs the scene itself, with its
// own options (model, solver, eps, friction directions). Every engine steps it
// for the same duration at the scene's h and is measured with pegsim's own
// meters on its states (compare_run.hpp). An engine that lacks a feature of the
// scene says which and is skipped; one not built in says so.
// --expect-final checks analytic end positions; --check-geometry checks the
// conversion at t = 0 (compare_geometry.hpp); --out writes each engine's
// trajectories and series (CSV) and plots of them.
#include "compare_geometry.hpp"
#include "compare_report.hpp"
#include "compare_run.hpp"
#include "option_checks.hpp"
#include "python_script.hpp"
#include "run.hpp"
#include "scene_convert.hpp"

#include <CLI/CLI.hpp>

#include <cstdio>
#include <iostream>
#include <sstream>

int main(int argc, char** argv) {
  using namespace pegsim;
  using namespace pegsim::bench;
  CLI::App app{"pegsim compare: a scene side by side in pegsim, Bullet, MuJoCo and ODE"};
  app.name("pegsim compare");
  std::string scene_file, engines_arg = "bullet,mujoco,ode", out_dir;
  double time = -1.0, geometry_tolerance = -1.0;
  std::vector<std::string> expectations;
  app.add_option("scene", scene_file,
                 "3D scene file: polyhedra (boxes, hulls), compounds, half-spaces, spheres, capsules, cylinders, cones")
      ->required();
  app.add_option("--engines", engines_arg, "comma list of peers: bullet, mujoco, ode (pegsim always runs: the reference)");
  app.add_option("--time", time, "simulated seconds (default: the scene's duration)")
      ->check(pegsim::cli::positive_finite("seconds"));  // nan, inf: refused, not read as "not given"
  app.add_option("--out", out_dir, "write trajectory_<engine>.csv, series_<engine>.csv, summary.csv, deviation.csv "
                                   "and plots (positions.png, penetration.png) to DIR");
  app.add_option("--expect-final", expectations,
                 "[ENGINE=]BODY:X,Y,Z:TOL: BODY must end within TOL (m) of (X, Y, Z) in ENGINE (or in every engine "
                 "without its own expectation for BODY; a coordinate nan: any); exit 1 if not");
  app.add_option("--check-geometry", geometry_tolerance,
                 "TOL: before running, check each peer's converted shapes against pegsim's: the depth and place of "
                 "each dynamic body's deepest point in each half-space it reaches into at t = 0 must agree within "
                 "TOL (m); exit 1 if not")
      ->check(pegsim::cli::positive_finite("metres"));
  CLI11_PARSE(app, argc, argv);
  try {
    std::vector<Expectation> expected;
    for (const std::string& text : expectations) expected.push_back(parse_expectation(text));
    const Scene scene = load_scene_file(scene_file);
    if (time > 0) pegsim::cli::steps_for(time, scene.model.options.h, "--time");  // within the step limit
    const ConvertedScene converted = to_bench_scene(scene, time > 0 ? time : scene.model.options.duration);
    const BenchScene& bench = converted.bench;
    std::vector<std::string> names;
    for (int i : converted.dynamic) names.push_back(scene.model.bodies[static_cast<std::size_t>(i)].name);

    std::vector<std::unique_ptr<PeerEngine>> engines;
    engines.push_back(make_scene_engine(scene, converted));
    std::stringstream wanted(engines_arg);
    for (std::string name; std::getline(wanted, name, ',');) {
      if (name == "pegsim" || name.empty()) continue;
      bool known = false;
      for (const EngineEntry& e : all_engines()) {
        if (e.name != name || name.rfind("pegsim", 0) == 0) continue;  // pegsim runs the scene file itself
        known = true;
        if (!e.make) {
          std::printf("%s: unavailable: pegsim_compare was built without %s (scripts/setup.sh installs it; "
                      "reconfigure and rebuild)\n", name.c_str(), e.library.c_str());
          continue;
        }
        std::unique_ptr<PeerEngine> engine = e.make();
        if (const std::string why = engine->unsupported(bench); !why.empty())
          std::printf("%s: skipped: the scene has %s\n", name.c_str(), why.c_str());
        else engines.push_back(std::move(engine));
      }
      if (!known) throw std::invalid_argument("unknown engine '" + name + "' (bullet, mujoco, ode)");
    }
    std::printf("%s: %zu dynamic bodies, %zu static, %zu half-spaces, %d materials, h %g s, %d steps (%.3g s)\n",
                scene.name.c_str(), names.size(), bench.bodies.size() - names.size(), bench.planes.size(),
                bench.materials, bench.h, bench.steps(), bench.duration);
    std::fflush(stdout);
    bool geometry_ok = true;
    if (geometry_tolerance >= 0)
      for (std::size_t e = 1; e < engines.size(); ++e)  // the peers; pegsim's own geometry is the reference
        geometry_ok = check_geometry(std::cout, *engines[e], scene, converted, names, geometry_tolerance) && geometry_ok;
    std::cout.flush();
    std::vector<CompareRun> runs;
    for (auto& engine : engines) runs.push_back(run_compared(*engine, scene, converted));
    std::ostringstream table;
    print_table(table, runs, names);
    std::cout << table.str()
              << "(pen: pegsim's separating-axis depth on each engine's poses; settled: the last 20% of the steps; "
                 "drift: from half the run to its end; energy drift (E_end - E_0) / max(1 J, |E_0|); p drift "
                 "|p_end - p_0| / |p_0|)\n";
    const bool met = check_expectations(std::cout, runs, names, expected);
    if (!out_dir.empty()) {
      write_files(out_dir, runs, names, bench.h);
      std::printf("files: %s/{summary,deviation,trajectory_<engine>,series_<engine>}.csv\n", out_dir.c_str());
      std::fflush(stdout);
      const int plotted = cli::run_python_script(cli::script_path("plot_compare.py"), {out_dir});
      if (plotted != 0) std::printf("plots: not drawn (scripts/plot_compare.py exited with %d)\n", plotted);
    }
    return met && geometry_ok ? 0 : 1;
  } catch (const std::exception& e) {
    std::cerr << "pegsim compare: " << e.what() << "\n";
    return 2;
  }
}
