// pegsim bench: time per step by stage for a scene, once per solver, in one run
// so the figures are comparable on a noisy machine.
#include "commands.hpp"

#include "io/scene.hpp"
#include "sim/certification.hpp"
#include "sim/statistics.hpp"
#include "sim/world.hpp"

#include <chrono>
#include <cstdio>
#include <sstream>
#include <stdexcept>

namespace pegsim::cli {


int bench_command(const BenchArgs& args) {
  const std::vector<std::string> solvers = split_list(args.solvers);
  std::vector<std::string> models = split_list(args.models);
  if (models.empty()) models.push_back(args.model);  // --model, or empty: the scene's
  for (const std::string& m : models) {
    ContactModelKind kind;
    if (!m.empty() && !parse_contact_model(m, kind)) {
      std::fprintf(stderr, "pegsim bench: unknown contact model '%s' (available: %s)\n", m.c_str(),
                   chain_text(contact_model_names()).c_str());
      return 2;
    }
  }

  std::printf("pegsim bench: %s, h = %g s, %ld steps per solver\n",
              args.scene.empty() ? builtin_scene_name() : args.scene.c_str(), args.h, args.steps);
  std::printf("%-10s %-16s %10s %10s %10s %10s %10s %10s %8s %9s\n", "model", "solver", "us/step", "broad", "narrow", "model",
              "formul.", "solve", "fails", "contacts");
  int status = 0;
  for (const std::string& model : models)
  for (const std::string& name : solvers) {
    Scene scene = args.scene.empty() ? load_scene_string(builtin_scene_text(), builtin_scene_name())
                                     : load_scene_file(args.scene);
    World world(std::move(scene.model), std::move(scene.state));
    world.set_time_step(args.h);
    world.set_solver(name);
    ContactModelKind kind = world.model().options.model;
    if (!model.empty()) parse_contact_model(model, kind);
    world.set_contact_model(kind);
    RunStatistics stats(world.model(), world.state());
    stats.measure_penetration = false;  // bench prints no penetration: the step runs without the meter
    world.add_observer(&stats);
    const auto start = std::chrono::steady_clock::now();
    for (long i = 0; i < args.steps; ++i) world.step();
    const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    const double n = static_cast<double>(std::max(args.steps, 1L));
    auto us = [&](Stage s) { return 1e6 * stats.total_time[s] / n; };
    std::printf("%-10s %-16s %10.1f %10.1f %10.1f %10.1f %10.1f %10.1f %8ld %9.1f\n", std::string(to_string(kind)).c_str(), name.c_str(), 1e6 * wall / n,
                us(Stage::Broadphase), us(Stage::Narrowphase), us(Stage::ContactModel), us(Stage::Formulation),
                us(Stage::Solver), stats.solver_failures + stats.non_finite_steps, stats.contacts_total / n);
    if (stats.non_finite_steps > 0) {  // counted among the fails above, and the command fails
      std::fprintf(stderr, "pegsim bench: %s: %s\n", name.c_str(), stats.non_finite_text().c_str());
      status = 1;
    }
  }
  return status;
}

}  // namespace pegsim::cli
