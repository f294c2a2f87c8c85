// Kinematic trees (robots: in scene files, src/sim/tree_stepping.hpp) from
// Python: joint-space state, applied joint forces, and the dynamics terms a
// controller needs, as numpy arrays (docs/python.md, "Robots"):
//   World.robot_names, robot_q(r), robot_v(r), set_robot_torque(r, tau)
//   World.set_robot_state(r, q=None, v=None)     a new q and/or v between steps (links follow)
//   World.mass_matrix(r, q=None)                 M(q), CRBA (nv x nv)
//   World.bias_forces(r, q=None, v=None)         C(q, v) with gravity, RNEA (nv)
//   World.inverse_dynamics(r, qdd, q=None, v=None)  M qdd + C (nv)
//   World.link_jacobian(r, link, point=None)     6 x nv, rows [v_point; omega], world frame
// q and v default to the robot's current state; r is a robot's name or index.
#include "world_handle.hpp"

#include "articulated/dynamics.hpp"
#include "sim/tree_stepping.hpp"

#include <pybind11/eigen.h>
#include <pybind11/stl.h>

#include <stdexcept>

namespace pegsim::python {
namespace {

std::size_t robot_of(const WorldHandle& w, py::handle which) {
  const auto& trees = w.world.model().trees;
  if (py::isinstance<py::str>(which)) {
    const std::string name = py::cast<std::string>(which);
    for (std::size_t t = 0; t < trees.size(); ++t)
      if (trees[t].name == name) return t;
    throw std::invalid_argument("no robot named '" + name + "'");
  }
  const long t = py::cast<long>(which);
  if (t < 0 || t >= static_cast<long>(trees.size()))
    throw py::index_error("robot index " + std::to_string(t) + " out of range (0.." + std::to_string(trees.size()) + ")");
  return static_cast<std::size_t>(t);
}

VecX sized(const std::optional<VecX>& given, const VecX& fallback, const std::string& what) {
  if (!given) return fallback;
  if (given->size() != fallback.size())
    throw std::invalid_argument(what + " needs " + std::to_string(fallback.size()) + " entries, got " +
                                std::to_string(given->size()));
  if (!given->allFinite()) throw std::invalid_argument(what + " must be finite");
  return *given;
}

}  // namespace

void bind_trees(py::module_& m) {
  auto w = py::reinterpret_borrow<py::class_<WorldHandle>>(m.attr("World"));
  w.def_property_readonly("robot_names", [](const WorldHandle& w) {
     std::vector<std::string> names;
     for (const TreeModel& t : w.world.model().trees) names.push_back(t.name);
     return names;
   })
   .def("robot_q", [](const WorldHandle& w, py::handle r) -> VecX { return w.world.state().trees[robot_of(w, r)].q; },
        "the robot's joint positions q (quaternions as w, x, y, z)")
   .def("robot_v", [](const WorldHandle& w, py::handle r) -> VecX { return w.world.state().trees[robot_of(w, r)].v; },
        "the robot's joint velocities v")
   .def("set_robot_torque", [](WorldHandle& w, py::handle r, const VecX& tau) {
      TreeState& ts = w.world.state().trees[robot_of(w, r)];
      ts.tau = sized(tau, ts.v, "tau");
    }, "joint forces for the coming step (cleared after it)")
   .def("set_robot_state", [](WorldHandle& w, py::handle r, std::optional<VecX> q, std::optional<VecX> v) {
      const std::size_t t = robot_of(w, r);
      TreeState& ts = w.world.state().trees[t];
      VecX new_q = sized(q, ts.q, "q");
      const VecX new_v = sized(v, ts.v, "v");  // both checked before either is set
      articulated::normalize_configuration(w.world.model().trees[t].tree, new_q);
      if (!new_q.allFinite()) throw std::invalid_argument("q: a joint quaternion of zero length");
      ts.q = std::move(new_q);
      ts.v = new_v;
      sync_tree_bodies(w.world.model(), w.world.state());  // the links' poses and velocities from q, v
    }, py::arg("robot"), py::arg("q") = py::none(), py::arg("v") = py::none(),
    "sets the robot's joint positions q (quaternions normalised) and/or velocities v between steps; its links follow")
   .def("mass_matrix", [](const WorldHandle& w, py::handle r, std::optional<VecX> q) -> MatX {
      const std::size_t t = robot_of(w, r);
      return articulated::mass_matrix(w.world.model().trees[t].tree, sized(q, w.world.state().trees[t].q, "q"));
    }, py::arg("robot"), py::arg("q") = py::none())
   .def("bias_forces", [](const WorldHandle& w, py::handle r, std::optional<VecX> q, std::optional<VecX> v) -> VecX {
      const std::size_t t = robot_of(w, r);
      const TreeState& ts = w.world.state().trees[t];
      return articulated::bias_forces(w.world.model().trees[t].tree, sized(q, ts.q, "q"), sized(v, ts.v, "v"),
                                      w.world.model().options.gravity);
    }, py::arg("robot"), py::arg("q") = py::none(), py::arg("v") = py::none())
   .def("inverse_dynamics", [](const WorldHandle& w, py::handle r, const VecX& qdd, std::optional<VecX> q,
                               std::optional<VecX> v) -> VecX {
      const std::size_t t = robot_of(w, r);
      const TreeState& ts = w.world.state().trees[t];
      return articulated::inverse_dynamics(w.world.model().trees[t].tree, sized(q, ts.q, "q"), sized(v, ts.v, "v"),
                                           sized(qdd, ts.v, "qdd"), w.world.model().options.gravity);
    }, py::arg("robot"), py::arg("qdd"), py::arg("q") = py::none(), py::arg("v") = py::none())
   .def("link_jacobian", [](const WorldHandle& w, py::handle r, const std::string& link, py::object point) -> MatX {
      const std::size_t t = robot_of(w, r);
      const articulated::ArticulatedTree& tree = w.world.model().trees[t].tree;
      const int i = tree.find_link(link);
      if (i < 0) throw std::invalid_argument("robot '" + w.world.model().trees[t].name + "' has no link '" + link + "'");
      articulated::TreeKinematics kin;
      articulated::forward_kinematics(tree, w.world.state().trees[t].q, VecX(), kin);
      const Vec3 p = point.is_none() ? articulated::link_body_pose(tree, kin, i).position : vec3_from(point, "point");
      return articulated::point_jacobian(tree, kin, i, p);
    }, py::arg("robot"), py::arg("link"), py::arg("point") = py::none(),
    "6 x nv: rows 0-2 the velocity of `point` (world; default the link's centre of mass), rows 3-5 the link's angular velocity");
}

}  // namespace pegsim::python
