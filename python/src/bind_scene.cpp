// Scene: a model and its initial state, built in code (add_material,
// set_friction, add_body) or loaded from a scene file (load_scene); its
// options are those of a scene file's options: section (docs/scene-format.md).
#include "bindings.hpp"
#include "body_builder.hpp"
#include "world_handle.hpp"

#include "contact/contact_model.hpp"
#include "dynamics/formulation.hpp"
#include "dynamics/mass.hpp"
#include "io/scene.hpp"
#include "sim/certification.hpp"
#include "sim/stepper.hpp"
#include "solvers/lcp.hpp"

#include <pybind11/stl.h>

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace pegsim::python {
namespace {

Scene empty_scene(int dimension, const std::string& name) {
  if (dimension != 2 && dimension != 3)
    throw std::invalid_argument("Scene: dimension must be 2 or 3, got " + std::to_string(dimension));
  Scene s;
  s.source = "<python>";
  s.name = name;
  SimOptions& o = s.model.options;
  o.dimension = dimension == 2 ? Dimension::Planar : Dimension::Spatial;
  o.gravity = dimension == 2 ? Vec3(0.0, -9.81, 0.0) : Vec3(0.0, 0.0, -9.81);
  s.model.add_material("default");
  return s;
}

double checked_positive(double x, const char* field) {
  if (!(x > 0.0) || !std::isfinite(x))
    throw std::invalid_argument(std::string("Scene.") + field + ": must be positive, got " + std::to_string(x));
  return x;
}

Mat3 inertia_from(py::handle value, bool planar) {
  Mat3 j = Mat3::Zero();
  if (planar) {
    j(2, 2) = py::cast<double>(value);  // Izz
    return j;
  }
  const Array a = Array::ensure(value);
  if (a && a.ndim() == 1) {  // principal moments along the shape axes
    const Vec3 d = vec3_from(value, "add_body: inertia");
    return d.asDiagonal();
  }
  const auto rows = table_from(value, 3, 3, "add_body: inertia");
  for (int i = 0; i < 3; ++i)
    for (int k = 0; k < 3; ++k) j(i, k) = rows[i][k];
  return j;
}

}  // namespace

// option setters shared with World (bind_world.cpp)
namespace {
// "unknown <what> 'name' (available: a, b, c)" from a registry's names
void check_name(const std::string& what, const std::string& name, const std::vector<std::string>& names) {
  if (std::find(names.begin(), names.end(), name) != names.end()) return;
  throw std::invalid_argument("unknown " + what + " '" + name + "' (available: " + chain_text(names) + ")");
}
}  // namespace

void set_contact_model_option(SimOptions& o, const std::string& name) {
  check_name("contact model", name, contact_model_names());
  parse_contact_model(name, o.model);
}

// a solver alone: the chain is that solver (a scene's solver_chain is replaced)
void set_solver_option(SimOptions& o, const std::string& name) { set_solver_chain_option(o, {name}); }

void set_solver_chain_option(SimOptions& o, const std::vector<std::string>& names) {
  if (names.empty()) throw std::invalid_argument("solver_chain: needs at least one solver");
  for (const std::string& name : names) check_name("solver", name, solver_names());
  o.solver_chain = names;
  o.solver = names.front();
}

void set_formulation_option(SimOptions& o, const std::string& name) {
  check_name("formulation", name, formulation_names());
  parse_formulation(name, o.formulation);
}

void set_stepper_option(SimOptions& o, const std::string& name) {
  check_name("stepper", name, stepper_names());
  o.stepper = name;
}

void set_eps_option(SimOptions& o, py::handle eps) {
  if (py::isinstance<py::str>(eps)) {
    if (py::cast<std::string>(eps) != "auto")
      throw std::invalid_argument("eps: expected a length in m or 'auto', got '" + py::cast<std::string>(eps) + "'");
    o.eps_auto = true;
    return;
  }
  const double e = py::cast<double>(eps);
  if (!(e >= 0.0) || !std::isfinite(e)) throw std::invalid_argument("eps: must be >= 0, got " + std::to_string(e));
  o.eps = e;
  o.eps_auto = false;
}

void set_friction_directions_option(SimOptions& o, int n) {
  if (n < 3)  // fewer do not positively span the tangent plane
    throw std::invalid_argument("friction_directions: must be at least 3, got " + std::to_string(n));
  o.friction_directions = n;
}

void set_tolerance_option(SimOptions& o, double tolerance) {
  if (!(tolerance > 0.0) || !std::isfinite(tolerance))
    throw std::invalid_argument("tolerance: must be positive, got " + std::to_string(tolerance));
  o.solver_tolerance = tolerance;
}

void bind_scene(py::module_& m) {
  using O = SimOptions;
  py::class_<Scene>(m, "Scene", "A model (bodies, materials, options) and its initial state.")
      .def(py::init(&empty_scene), py::arg("dimension") = 3, py::arg("name") = "scene",
           "an empty scene of dimension 2 or 3 with the default options and material 'default'")
      .def_readonly("name", &Scene::name)
      .def_readonly("source", &Scene::source, "the file it was loaded from, or '<python>'")
      .def_readonly("text", &Scene::text, "the YAML text it was loaded from ('' if built in code)")
      .def_property_readonly("dimension", [](const Scene& s) { return static_cast<int>(s.model.options.dimension); })
      .def_property_readonly("body_count", [](const Scene& s) { return s.model.bodies.size(); })
      .def_property_readonly("body_names", [](const Scene& s) {
        std::vector<std::string> out;
        for (const BodyModel& b : s.model.bodies) out.push_back(b.name);
        return out;
      })
      .def_property_readonly("materials", [](const Scene& s) {
        std::vector<std::string> out;
        for (const Material& mat : s.model.materials) out.push_back(mat.name);
        return out;
      })
      // options (docs/scene-format.md, "options")
      .def_property("h", [](const Scene& s) { return s.model.options.h; },
                    [](Scene& s, double h) { s.model.options.h = checked_positive(h, "h"); }, "time step (s)")
      .def_property("duration", [](const Scene& s) { return s.model.options.duration; },
                    [](Scene& s, double d) { s.model.options.duration = checked_positive(d, "duration"); })
      .def_property("eps", [](const Scene& s) -> py::object {
        const O& o = s.model.options;
        return o.eps_auto ? py::object(py::str("auto")) : py::object(py::float_(o.eps));
      }, [](Scene& s, py::handle e) { set_eps_option(s.model.options, e); },
         "contact distance (m), or 'auto' (thesis eq. 5.1 per body pair)")
      .def_property("eps_theta", [](const Scene& s) { return s.model.options.eps_theta; },
                    [](Scene& s, double e) {
                      if (!(e >= -1.0 && e <= 1.0)) throw std::invalid_argument("eps_theta: must lie in [-1, 1]");
                      s.model.options.eps_theta = e;
                    }, "applicability relaxation -sin(theta) (thesis 3.2)")
      .def_property("friction_directions", [](const Scene& s) { return s.model.options.friction_directions; },
                    [](Scene& s, int n) { set_friction_directions_option(s.model.options, n); })
      .def_property("model", [](const Scene& s) { return std::string(to_string(s.model.options.model)); },
                    [](Scene& s, const std::string& n) { set_contact_model_option(s.model.options, n); },
                    "contact model: standard, peg, lnc or corrective")
      .def_property("formulation", [](const Scene& s) { return std::string(to_string(s.model.options.formulation)); },
                    [](Scene& s, const std::string& n) { set_formulation_option(s.model.options, n); })
      .def_property("stepper", [](const Scene& s) { return s.model.options.stepper; },
                    [](Scene& s, const std::string& n) { set_stepper_option(s.model.options, n); },
                    "how a step is taken (pegsim.steppers)")
      .def_property("solver", [](const Scene& s) { return s.model.options.solver; },
                    [](Scene& s, const std::string& n) { set_solver_option(s.model.options, n); },
                    "a solver alone (sets solver_chain to it)")
      .def_property("solver_chain", [](const Scene& s) {
        const SimOptions& o = s.model.options;
        return o.solver_chain.empty() ? std::vector<std::string>{o.solver} : o.solver_chain;
      }, [](Scene& s, const std::vector<std::string>& names) { set_solver_chain_option(s.model.options, names); },
                    "the certified fallback chain: each island's problem goes to the next solver when one misses")
      .def_property("solver_tolerance", [](const Scene& s) { return s.model.options.solver_tolerance; },
                    [](Scene& s, double t) { set_tolerance_option(s.model.options, t); })
      .def_property("solver_max_iterations", [](const Scene& s) { return s.model.options.solver_max_iterations; },
                    [](Scene& s, int n) {
                      if (n < 0) throw std::invalid_argument("solver_max_iterations: must be >= 0");
                      s.model.options.solver_max_iterations = n;
                    })
      .def_property("solver_time_budget", [](const Scene& s) { return s.model.options.solver_time_budget; },
                    [](Scene& s, double seconds) {
                      if (!(seconds >= 0.0)) throw std::invalid_argument("solver_time_budget: must be >= 0 s");
                      s.model.options.solver_time_budget = seconds;
                    },
                    "wall-clock seconds one solve may take (0: no limit); a solve past it is a counted failure")
      .def_property("gyroscopic", [](const Scene& s) { return std::string(to_string(s.model.options.gyroscopic)); },
                    [](Scene& s, const std::string& term) {
                      if (!parse_gyroscopic(term, s.model.options.gyroscopic))
                        throw std::invalid_argument("gyroscopic: expected implicit or explicit, got '" + term + "'");
                    }, "the spin's gyroscopic term: 'implicit' (midpoint rule, keeps energy and |L|) or 'explicit' (thesis eq. 2.30)")
      .def_property("position_correction", [](const Scene& s) { return s.model.options.position_correction; },
                    [](Scene& s, bool on) { s.model.options.position_correction = on; },
                    "project poses out of overlap after each step (sim/position_correction.cpp)")
      .def_property("contact_drift_correction",
                    [](const Scene& s) { return s.model.options.contact_drift_correction; },
                    [](Scene& s, bool on) { s.model.options.contact_drift_correction = on; },
                    "take back a persistent contact's tangential drift of the last step in the next (sim/contact_drift.hpp)")
      .def_property("energy_bound",
                    [](const Scene& s) { return s.model.options.energy_bound; },
                    [](Scene& s, bool on) { s.model.options.energy_bound = on; },
                    "hold every island's impulses to the energy bound (src/sim/impulse_energy.hpp)")
      .def_property("gravity", [](const Scene& s) { return vector_of(s.model.options.gravity); },
                    [](Scene& s, py::handle g) {
                      const bool planar = s.model.options.dimension == Dimension::Planar;
                      const Vec3 v = vec3_from(g, "Scene.gravity", planar);
                      if (planar && v.z() != 0.0) throw std::invalid_argument("Scene.gravity: a 2D scene's gravity is (x, y)");
                      s.model.options.gravity = v;
                    }, "m/s^2, (3,) (a 2D scene: z = 0)")
      // materials and friction
      .def("add_material", [](Scene& s, const std::string& name) {
        for (const Material& mat : s.model.materials)
          if (mat.name == name) throw std::invalid_argument("add_material: duplicate material name '" + name + "'");
        return s.model.add_material(name).index;
      }, py::arg("name"), "a new material (friction 0 with every other until set_friction)")
      .def("set_friction", [](Scene& s, const std::string& a, const std::string& b, double mu) {
        if (!(mu >= 0.0) || !std::isfinite(mu))
          throw std::invalid_argument("set_friction: mu must be >= 0, got " + std::to_string(mu));
        s.model.set_friction(material_named(s.model, a), material_named(s.model, b), mu);
      }, py::arg("a"), py::arg("b"), py::arg("mu"), "Coulomb friction coefficient of a material pair")
      .def("friction", [](const Scene& s, const std::string& a, const std::string& b) {
        return s.model.mu(material_named(s.model, a), material_named(s.model, b));
      }, py::arg("a"), py::arg("b"))
      // restitution (the impulse stepper's, sim/impulse_stepping.hpp)
      .def("set_restitution", [](Scene& s, const std::string& a, const std::string& b, double e) {
        s.model.set_restitution(material_named(s.model, a), material_named(s.model, b), e);
      }, py::arg("a"), py::arg("b"), py::arg("e"), "coefficient of restitution of a material pair, in [0, 1]")
      .def("restitution", [](const Scene& s, const std::string& a, const std::string& b) {
        return s.model.restitution_of(material_named(s.model, a), material_named(s.model, b));
      }, py::arg("a"), py::arg("b"))
      .def_property("collision_tolerance", [](const Scene& s) { return s.model.options.impulse.collision_tolerance; },
                    [](Scene& s, double eps) {
                      s.model.options.impulse.collision_tolerance = checked_positive(eps, "collision_tolerance");
                    }, "the impulse stepper's collision envelope (m)")
      .def_property("restitution_law", [](const Scene& s) { return s.model.options.impulse.restitution_law; },
                    [](Scene& s, const std::string& law) {
                      check_name("restitution_law", law, {"poisson", "stronge", "newton"});
                      s.model.options.impulse.restitution_law = law;
                    }, "the impulse stepper's restitution law: poisson (the paper's), stronge or newton")
      // bodies
      .def("add_body", [](Scene& s, const ShapeHandle& shape, py::object position, py::object orientation, double theta,
                          py::object velocity, py::object angular_velocity, std::optional<double> mass,
                          std::optional<double> density, py::object inertia, bool is_static,
                          bool kinematic, const std::string& material, const std::string& name) {
        const bool planar = s.model.options.dimension == Dimension::Planar;
        BodySpec b;
        b.name = name;
        b.shape = shape.shape;
        b.is_static = is_static || kinematic;
        b.is_kinematic = kinematic;
        if (!position.is_none()) b.position = vec3_from(position, "add_body: position", planar);
        if (!orientation.is_none()) {
          if (planar) throw std::invalid_argument("add_body: a 2D body turns by theta, not orientation");
          const auto q = numbers_from(orientation, 4, "add_body: orientation (w, x, y, z)");
          b.orientation = Quat(q[0], q[1], q[2], q[3]);
        }
        if (!planar && theta != 0.0) throw std::invalid_argument("add_body: theta is for 2D bodies; use orientation");
        b.theta = theta;
        if (!velocity.is_none()) b.velocity = vec3_from(velocity, "add_body: velocity", planar);
        if (!angular_velocity.is_none()) {
          b.angular_velocity = planar ? Vec3(0.0, 0.0, py::cast<double>(angular_velocity))
                                      : vec3_from(angular_velocity, "add_body: angular_velocity");
        }
        b.mass = mass;
        b.density = density;
        if (!inertia.is_none()) b.inertia = inertia_from(inertia, planar);
        b.material = material;
        return add_body(s, std::move(b));
      }, py::arg("shape"), py::kw_only(), py::arg("position") = py::none(), py::arg("orientation") = py::none(),
         py::arg("theta") = 0.0, py::arg("velocity") = py::none(), py::arg("angular_velocity") = py::none(),
         py::arg("mass") = py::none(), py::arg("density") = py::none(), py::arg("inertia") = py::none(),
         py::arg("static") = false, py::arg("kinematic") = false, py::arg("material") = "default",
         py::arg("name") = "",
         "adds a body; returns its index. The shape is placed by position and orientation (w, x, y, z) "
         "(2D: theta); the body's position is its centre of mass. kinematic=True: a static body moved at its "
         "constant velocity and angular velocity (prescribed motion; World.velocities can change it per step).")
      .def("__repr__", [](const Scene& s) {
        return "<pegsim.Scene '" + s.name + "', " + std::to_string(static_cast<int>(s.model.options.dimension)) +
               "D, " + std::to_string(s.model.bodies.size()) + " bodies>";
      });

  m.def("load_scene", &load_scene_file, py::arg("path"),
        "loads a scene file (docs/scene-format.md); ValueError 'FILE:LINE: FIELD: message' if it is malformed");
  m.def("load_scene_string", &load_scene_string, py::arg("text"), py::arg("source") = "<string>",
        "loads a scene from YAML text; `source` names it in error messages");
}

}  // namespace pegsim::python
