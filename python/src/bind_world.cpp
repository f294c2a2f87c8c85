// World: steps a scene. Options may be overridden when it is made; the
// per-step callbacks and the recording are fed after every step.
#include "world_handle.hpp"

#include "contact/contact_model.hpp"

#include <pybind11/stl.h>

#include <cmath>
#include <optional>
#include <stdexcept>

namespace pegsim::python {

std::uint32_t WorldHandle::body(py::handle which) const {
  const auto& bodies = world.model().bodies;
  if (py::isinstance<py::str>(which)) {
    const std::string name = py::cast<std::string>(which);
    for (std::size_t i = 0; i < bodies.size(); ++i)
      if (bodies[i].name == name) return static_cast<std::uint32_t>(i);
    throw std::invalid_argument("no body named '" + name + "'");
  }
  const long i = py::cast<long>(which);
  if (i < 0 || i >= static_cast<long>(bodies.size()))
    throw py::index_error("body index " + std::to_string(i) + " out of range (0.." + std::to_string(bodies.size()) + ")");
  return static_cast<std::uint32_t>(i);
}

std::string WorldHandle::row(std::size_t i) const {
  return "row " + std::to_string(i) + " (body '" + world.model().bodies[i].name + "')";
}

namespace {

std::unique_ptr<WorldHandle> make_world(const Scene& scene, std::optional<std::string> model,
                                        std::optional<std::string> solver, std::optional<double> h, py::object eps,
                                        std::optional<int> friction_directions, std::optional<double> tolerance,
                                        std::optional<int> max_iterations, std::optional<std::string> formulation,
                                        std::optional<std::vector<std::string>> solver_chain,
                                        std::optional<std::string> stepper) {
  Model m = scene.model;
  SimOptions& o = m.options;
  if (model) set_contact_model_option(o, *model);
  if (solver && solver_chain) throw std::invalid_argument("World: give solver or solver_chain, not both");
  if (solver) set_solver_option(o, *solver);
  if (solver_chain) set_solver_chain_option(o, *solver_chain);
  if (stepper) set_stepper_option(o, *stepper);
  if (h) {
    if (!(*h > 0.0) || !std::isfinite(*h)) throw std::invalid_argument("World: h must be positive");
    o.h = *h;
  }
  if (!eps.is_none()) set_eps_option(o, eps);
  if (friction_directions) set_friction_directions_option(o, *friction_directions);
  if (tolerance) set_tolerance_option(o, *tolerance);
  if (max_iterations) {
    if (*max_iterations < 0) throw std::invalid_argument("World: max_iterations must be >= 0");
    o.solver_max_iterations = *max_iterations;
  }
  if (formulation) set_formulation_option(o, *formulation);
  return std::make_unique<WorldHandle>(std::move(m), scene.state, scene.text);
}

// The World checks its state after integrating; a NaN set before a step
// would first reach the broadphase, so it is caught here, with the same message.
void check_finite_before_step(const WorldHandle& w) {
  const State& state = w.world.state();
  for (std::size_t i = 0; i < state.bodies.size(); ++i) {
    const BodyState& s = state.bodies[i];
    if (s.pose.position.allFinite() && s.pose.orientation.coeffs().allFinite() && s.linear_velocity.allFinite() &&
        s.angular_velocity.allFinite() && s.force.allFinite() && s.torque.allFinite())
      continue;
    throw std::runtime_error("step " + std::to_string(state.step) + " (t = " + std::to_string(state.time) +
                             " s): body '" + w.world.model().bodies[i].name +
                             "' has a non-finite pose, velocity or applied force");
  }
}

// one step, then the recording, then each callback(world, report)
py::object step_once(py::object self) {
  WorldHandle& w = self.cast<WorldHandle&>();
  check_finite_before_step(w);
  const StepReport& r = w.world.step();
  if (w.recorder) {
    try {
      w.recorder->on_step(w.world.model(), w.world.state(), r);
    } catch (const RecordingError& e) {
      // a failed write (a full disk): the recording stops, the World keeps its
      // state and steps on; the file holds the rows up to its last checkpoint
      w.recorder.reset();
      throw std::runtime_error(std::string(e.what()) + "; the recording is stopped (World.record starts another), "
                               "the World is at step " + std::to_string(w.world.state().step) + " and steps on");
    }
  }
  py::object report = py::cast(r, py::return_value_policy::copy);
  for (std::size_t k = 0; k < w.callbacks.size(); ++k) w.callbacks[k](self, report);
  return report;
}

py::dict options_of(const SimOptions& o) {
  py::dict d;
  d["dimension"] = static_cast<int>(o.dimension);
  d["h"] = o.h;
  d["duration"] = o.duration;
  d["eps"] = o.eps_auto ? py::object(py::str("auto")) : py::object(py::float_(o.eps));
  d["eps_theta"] = o.eps_theta;
  d["friction_directions"] = o.friction_directions;
  d["model"] = std::string(to_string(o.model));
  d["formulation"] = std::string(to_string(o.formulation));
  d["stepper"] = o.stepper;
  d["solver"] = o.solver;
  d["solver_chain"] = o.solver_chain.empty() ? std::vector<std::string>{o.solver} : o.solver_chain;
  d["solver_tolerance"] = o.solver_tolerance;
  d["solver_max_iterations"] = o.solver_max_iterations;
  d["gravity"] = vector_of(o.gravity);
  d["position_correction"] = o.position_correction;
  d["contact_drift_correction"] = o.contact_drift_correction;
  d["energy_bound"] = o.energy_bound;
  return d;
}

}  // namespace

void bind_world(py::module_& m) {
  py::class_<WorldHandle> c(m, "World", "Steps a scene (src/sim/world.hpp).");
  c.def(py::init(&make_world), py::arg("scene"), py::kw_only(), py::arg("model") = py::none(),
        py::arg("solver") = py::none(), py::arg("h") = py::none(), py::arg("eps") = py::none(),
        py::arg("friction_directions") = py::none(), py::arg("tolerance") = py::none(),
        py::arg("max_iterations") = py::none(), py::arg("formulation") = py::none(),
        py::arg("solver_chain") = py::none(), py::arg("stepper") = py::none(),
        "a world stepping a copy of the scene; keyword options override the scene's "
        "(solver replaces the scene's solver_chain with that one solver)");

  // stepping
  c.def("step", [](py::object self, long n) -> py::object {
    if (n < 1) throw std::invalid_argument("World.step: n must be >= 1, got " + std::to_string(n));
    py::object report;
    for (long k = 0; k < n; ++k) report = step_once(self);
    return report;
  }, py::arg("n") = 1, "takes n steps (callbacks after each); returns the last step's StepReport");
  c.def("run", [](py::object self, double duration) -> py::object {
    const WorldHandle& w = self.cast<const WorldHandle&>();
    const long n = std::lround(duration / w.world.model().options.h);
    if (!(duration > 0.0) || n < 1) throw std::invalid_argument("World.run: duration must be at least one step");
    py::object report;
    for (long k = 0; k < n; ++k) report = step_once(self);
    return report;
  }, py::arg("duration"), "steps round(duration / h) times; returns the last StepReport");
  c.def("add_callback", [](WorldHandle& w, py::object fn) {
    if (!PyCallable_Check(fn.ptr())) throw py::type_error("add_callback: expected a callable f(world, report)");
    w.callbacks.push_back(std::move(fn));
  }, py::arg("callback"),
     "calls callback(world, report) after every step, in the order added (a controller or a logger, "
     "RPIsim's userFunction): it may read and set the state and apply forces for the next step");
  c.def("clear_callbacks", [](WorldHandle& w) { w.callbacks.clear(); });

  // recording (docs/recording-format.md)
  c.def("record", [](WorldHandle& w, const std::string& path, int every, bool timings) {
    if (every < 1) throw std::invalid_argument("World.record: every must be >= 1");
    w.recorder.reset();  // closes a previous recording first
    w.recorder = std::make_unique<Recorder>(path, w.world.model(), w.world.state(), every, w.scene_text, timings);
  }, py::arg("path"), py::arg("every") = 1, py::arg("timings") = false,
     "records the current state and every following step (one in `every`) to an HDF5 file");
  c.def("close_recording", [](WorldHandle& w) {
    const std::unique_ptr<Recorder> recorder = std::move(w.recorder);  // detached even if closing fails
    if (recorder) recorder->close();
  }, "flushes and closes the recording (also done when the World is deleted)");

  // options
  c.def_property("solver", [](const WorldHandle& w) { return w.world.model().options.solver; },
                 [](WorldHandle& w, const std::string& name) { w.world.set_solver(name); },
                 "the chain's first solver; setting it makes the chain that solver alone");
  c.def_property("solver_chain", [](const WorldHandle& w) { return w.world.solver_chain(); },
                 [](WorldHandle& w, const std::vector<std::string>& names) { w.world.set_solver_chain(names); },
                 "the certified fallback chain (a list of solver names)");
  c.def_property("stepper", [](const WorldHandle& w) { return w.world.model().options.stepper; },
                 [](WorldHandle& w, const std::string& name) { w.world.set_stepper(name); });
  c.def_property("measure_penetration", [](const WorldHandle& w) { return w.world.measures_penetration(); },
                 [](WorldHandle& w, bool on) { w.world.set_measure_penetration(on); },
                 "measure StepReport.max_penetration every step (on by default in Python; off saves the "
                 "separating-axis tests of every pair; NaN is reported then)");
  c.def_property("model", [](const WorldHandle& w) { return std::string(to_string(w.world.model().options.model)); },
                 [](WorldHandle& w, const std::string& name) {
                   SimOptions o = w.world.model().options;
                   set_contact_model_option(o, name);  // the registry's error for an unknown name
                   w.world.set_contact_model(o.model);
                 }, "contact model: one of pegsim.contact_models");
  c.def_property("h", [](const WorldHandle& w) { return w.world.model().options.h; },
                 [](WorldHandle& w, double h) { w.world.set_time_step(h); }, "time step (s)");
  c.def_property_readonly("options", [](const WorldHandle& w) { return options_of(w.world.model().options); },
                          "the options in use, as a dict");

  // bodies and state
  c.def_property_readonly("dimension", [](const WorldHandle& w) { return w.planar() ? 2 : 3; });
  c.def_property_readonly("time", [](const WorldHandle& w) { return w.world.state().time; });
  c.def_property_readonly("step_count", [](const WorldHandle& w) { return w.world.state().step; });
  c.def_property_readonly("body_count", &WorldHandle::body_count);
  c.def_property_readonly("body_names", [](const WorldHandle& w) {
    std::vector<std::string> out;
    for (const BodyModel& b : w.world.model().bodies) out.push_back(b.name);
    return out;
  });
  c.def_property_readonly("masses", [](const WorldHandle& w) {
    std::vector<double> out;
    for (const BodyModel& b : w.world.model().bodies) out.push_back(b.is_static ? 0.0 : b.mass);
    return Array(static_cast<py::ssize_t>(out.size()), out.data());
  }, "(n,) kg; 0 for static bodies");
  c.def_property_readonly("static", [](const WorldHandle& w) {
    std::vector<bool> out;
    for (const BodyModel& b : w.world.model().bodies) out.push_back(b.is_static);
    return out;
  }, "per body: static (kinematic bodies included: infinite mass)");
  c.def_property_readonly("kinematic", [](const WorldHandle& w) {
    std::vector<bool> out;
    for (const BodyModel& b : w.world.model().bodies) out.push_back(b.is_kinematic);
    return out;
  }, "per body: kinematic (prescribed motion at the velocity in the state)");
  c.def("body", &WorldHandle::body, py::arg("name"), "the index of a body given by name (or index)");
  bind_world_state(c);
  bind_world_statistics(c);
  c.def("energy", [](const WorldHandle& w) { return mechanical_energy(w.world.model(), w.world.state()); },
        "kinetic + gravitational potential energy of the dynamic bodies (J)");
  c.def("momentum", [](const WorldHandle& w) { return vector_of(linear_momentum(w.world.model(), w.world.state())); },
        "linear momentum of the dynamic bodies (kg m/s)");
  c.def_property_readonly("last_report", [](const WorldHandle& w) { return w.world.last_report(); });
  c.def("__repr__", [](const WorldHandle& w) {
    return "<pegsim.World " + std::to_string(w.planar() ? 2 : 3) + "D, " + std::to_string(w.body_count()) +
           " bodies, t = " + std::to_string(w.world.state().time) + " s>";
  });
}

}  // namespace pegsim::python
