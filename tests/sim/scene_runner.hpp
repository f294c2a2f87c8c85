// Loading shipped scenes for scenario tests.
#pragma once

#include "common/test_paths.hpp"

#include "io/scene.hpp"
#include "sim/world.hpp"

#include <algorithm>
#include <string>

namespace pegsim::test {

inline std::string scene_path(const std::string& name) { return std::string(PEGSIM_SCENES_DIR) + "/" + name + ".yaml"; }

// A world that measures StepReport::max_penetration every step (the tests
// read it; a world measures it only when asked).
inline World measuring_world(Model model, State state) {
  World w(std::move(model), std::move(state));
  w.set_measure_penetration(true);
  return w;
}

inline World load_world(const std::string& name) {
  Scene s = load_scene_file(scene_path(name));
  return measuring_world(std::move(s.model), std::move(s.state));
}

// Steps w until its time reaches t_end: the solver failures and the deepest
// penetration after any step (StepReport::max_penetration).
struct RunStats {
  int failures = 0;
  double max_penetration = 0.0;
};

inline RunStats run_until(World& w, double t_end) {
  RunStats r;
  w.set_measure_penetration(true);
  while (w.state().time < t_end - 1e-12) {
    const StepReport& report = w.step();
    r.failures += report.solver_failures;
    r.max_penetration = std::max(r.max_penetration, report.max_penetration);
  }
  return r;
}

}  // namespace pegsim::test
