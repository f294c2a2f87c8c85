// The World as Python holds it: the C++ World, an optional recording, and the
// per-step callbacks (RPIsim's userFunction, thesis 6.2), called in that order
// after every step with (world, report).
#pragma once

#include "bindings.hpp"

#include "io/recording.hpp"
#include "io/scene.hpp"
#include "sim/statistics.hpp"
#include "sim/world.hpp"

#include <memory>
#include <string>
#include <vector>

namespace pegsim::python {

struct WorldHandle {
  WorldHandle(Model model, State state, std::string scene_text)
      : world(std::move(model), std::move(state)), scene_text(std::move(scene_text)),
        statistics(std::make_unique<RunStatistics>(world.model(), world.state())) {
    // Python reads StepReport.max_penetration after any step (World.measure_penetration turns it off)
    world.set_measure_penetration(true);
    // the run summary's figures from the first step on; it follows World.measure_penetration
    // rather than forcing the separating-axis tests on
    statistics->measure_penetration = false;
    world.add_observer(statistics.get());
  }

  World world;
  std::string scene_text;              // stored in recordings as /model/scene
  std::unique_ptr<Recorder> recorder;  // fed after each step, before the callbacks
  std::vector<py::object> callbacks;
  std::unique_ptr<RunStatistics> statistics;  // World.statistics (bind_statistics.cpp); observes every step

  bool planar() const { return world.model().options.dimension == Dimension::Planar; }
  std::size_t body_count() const { return world.model().bodies.size(); }
  // a body given by index or name; IndexError / ValueError otherwise
  std::uint32_t body(py::handle which) const;
  // a row label for messages: "row 2 (body 'box2')"
  std::string row(std::size_t i) const;
};

// option setters shared by Scene and World (bind_scene.cpp)
void set_contact_model_option(SimOptions& o, const std::string& name);
void set_solver_option(SimOptions& o, const std::string& name);
void set_formulation_option(SimOptions& o, const std::string& name);
void set_solver_chain_option(SimOptions& o, const std::vector<std::string>& names);
void set_stepper_option(SimOptions& o, const std::string& name);
void set_eps_option(SimOptions& o, py::handle eps);
void set_friction_directions_option(SimOptions& o, int n);
void set_tolerance_option(SimOptions& o, double tolerance);

// state arrays of World (world_state.cpp)
void bind_world_state(py::class_<WorldHandle>& c);
// World.statistics, World.summary, World.overlap (bind_statistics.cpp)
void bind_world_statistics(py::class_<WorldHandle>& c);

}  // namespace pegsim::python
