// Joints from Python (src/joints/): Scene.add_joint builds one at the scene's
// current poses; World reads joint coordinates as numpy arrays and applies
// joint torques for the coming step (a per-step callback is a controller that
// sees the state at the step's start, as RPIsim's userFunction).
#include "world_handle.hpp"

#include "joints/controllers.hpp"
#include "joints/joint_frames.hpp"

#include <pybind11/stl.h>

#include <cmath>
#include <optional>
#include <stdexcept>

namespace pegsim::python {
namespace {

std::uint32_t end_of(const Scene& s, py::handle which) {
  if (py::isinstance<py::str>(which)) {
    const std::string name = py::cast<std::string>(which);
    if (name == "world") return kWorldBody;
    for (std::size_t i = 0; i < s.model.bodies.size(); ++i)
      if (s.model.bodies[i].name == name) return static_cast<std::uint32_t>(i);
    throw std::invalid_argument("Scene.add_joint: no body named '" + name + "' (or world)");
  }
  const long i = py::cast<long>(which);
  if (i < 0 || i >= static_cast<long>(s.model.bodies.size()))
    throw py::index_error("Scene.add_joint: body index " + std::to_string(i) + " out of range");
  return static_cast<std::uint32_t>(i);
}

std::size_t joint_of(const WorldHandle& w, py::handle which) {
  const auto& joints = w.world.model().joints;
  if (py::isinstance<py::str>(which)) {
    const std::string name = py::cast<std::string>(which);
    for (std::size_t j = 0; j < joints.size(); ++j)
      if (joints[j].name == name) return j;
    throw std::invalid_argument("no joint named '" + name + "'");
  }
  const long j = py::cast<long>(which);
  if (j < 0 || j >= static_cast<long>(joints.size()))
    throw py::index_error("joint index " + std::to_string(j) + " out of range (0.." + std::to_string(joints.size()) + ")");
  return static_cast<std::size_t>(j);
}

template <class Get>
Array per_joint(const WorldHandle& w, Get&& get) {
  const std::size_t n = w.world.model().joints.size();
  Array out(static_cast<py::ssize_t>(n));
  for (std::size_t j = 0; j < n; ++j) out.mutable_at(static_cast<py::ssize_t>(j)) = get(j);
  return out;
}

}  // namespace

void bind_joints(py::module_& m) {
  auto c = py::reinterpret_borrow<py::class_<Scene>>(m.attr("Scene"));
  c.def("add_joint", [](Scene& s, const std::string& type, py::handle body_a, py::handle body_b, py::handle anchor,
                        py::object axis, py::object x_axis, std::optional<std::string> name, bool collide,
                        std::optional<std::pair<double, double>> limit) {
    const bool planar = s.model.options.dimension == Dimension::Planar;
    JointSpec spec;
    if (!parse_joint_kind(type, spec.kind))
      throw std::invalid_argument("Scene.add_joint: unknown joint type '" + type + "'");
    spec.name = name ? *name : "joint" + std::to_string(s.model.joints.size());
    for (const JointModel& j : s.model.joints)
      if (j.name == spec.name) throw std::invalid_argument("Scene.add_joint: duplicate joint name '" + spec.name + "'");
    spec.body_a = end_of(s, body_a);
    spec.body_b = end_of(s, body_b);
    spec.anchor = vec3_from(anchor, "Scene.add_joint: anchor", planar);
    if (!axis.is_none()) spec.axis = vec3_from(axis, "Scene.add_joint: axis", planar);
    if (!x_axis.is_none()) spec.x_axis = vec3_from(x_axis, "Scene.add_joint: x_axis");
    JointModel joint = make_joint(spec, s.model, s.state);  // std::invalid_argument -> ValueError
    joint.collide = collide;
    if (limit) {
      if (joint_coordinate(joint.kind) == JointCoordinate::None)
        throw std::invalid_argument("Scene.add_joint: a " + type + " joint has no coordinate to limit");
      if (!(limit->first <= limit->second)) throw std::invalid_argument("Scene.add_joint: limit needs lower <= upper");
      joint.limit = JointLimit{true, limit->first, limit->second};
    }
    s.model.joints.push_back(std::move(joint));
    return s.model.joints.size() - 1;
  }, py::arg("type"), py::arg("body_a"), py::arg("body_b"), py::arg("anchor"), py::arg("axis") = py::none(),
     py::arg("x_axis") = py::none(), py::arg("name") = py::none(), py::arg("collide") = false,
     py::arg("limit") = py::none(),
     "Joins two bodies (names, indices, or 'world') at a world anchor and axis at the current poses; returns its index.")
   .def_property_readonly("joint_names", [](const Scene& s) {
     std::vector<std::string> out;
     for (const JointModel& j : s.model.joints) out.push_back(j.name);
     return out;
   });
  auto w = py::reinterpret_borrow<py::class_<WorldHandle>>(m.attr("World"));
  w.def_property_readonly("joint_names", [](const WorldHandle& w) {
     std::vector<std::string> out;
     for (const JointModel& j : w.world.model().joints) out.push_back(j.name);
     return out;
   })
   .def("joint_positions", [](const WorldHandle& w) {
     return per_joint(w, [&](std::size_t j) { return joint_position(w.world.model(), w.world.state(), j); });
   }, "per joint: its angle (rad, unwrapped: it counts turns) or slide (m); 0 for joints without a coordinate")
   .def("joint_velocities", [](const WorldHandle& w) {
     return per_joint(w, [&](std::size_t j) { return joint_velocity(w.world.model(), w.world.state(), j); });
   }, "per joint: the rate of its coordinate")
   .def("apply_joint_torque", [](WorldHandle& w, py::handle joint, double effort) {
     if (!std::isfinite(effort)) throw std::invalid_argument("World.apply_joint_torque: the torque must be finite");
     apply_joint_effort(w.world.model(), joint_of(w, joint), effort, w.world.state());
   }, py::arg("joint"), py::arg("torque"),
     "Adds an equal and opposite torque about the joint's axis (force along a slide) for the coming step.");
}

}  // namespace pegsim::python
