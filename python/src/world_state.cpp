// World's state as numpy arrays, one row per body in body order:
//   positions (n, 3)          centre of mass, world frame (m)
//   orientations (n, 4)       unit quaternions [w, x, y, z] (as in recordings)
//   poses2d (n, 3)            2D scenes: [x, y, theta]
//   linear_velocities (n, 3)  of the centre of mass, world frame (m/s)
//   angular_velocities (n, 3) world frame (rad/s)
//   forces, torques (n, 3)    external force / torque about the centre of mass
//                             for the coming step (cleared after each step)
// Getters return copies; setters check shapes and values (ValueError) and take
// effect at the next step.
#include "world_handle.hpp"

#include <cmath>
#include <stdexcept>

namespace pegsim::python {
namespace {

using Rows = std::vector<std::vector<double>>;

template <class Get>
Array body_rows(const WorldHandle& w, Get&& get) {
  std::vector<Vec3> rows;
  for (const BodyState& s : w.world.state().bodies) rows.push_back(get(s));
  return rows_of(rows);
}

Rows checked_rows(const WorldHandle& w, py::handle value, long cols, const char* what) {
  Rows rows = table_from(value, static_cast<long>(w.body_count()), cols, std::string("World.") + what);
  for (std::size_t i = 0; i < rows.size(); ++i)
    for (double x : rows[i])
      if (!std::isfinite(x)) throw std::invalid_argument(std::string("World.") + what + ": " + w.row(i) + " is not finite");
  return rows;
}

// planar bodies move in the z = 0 plane and turn about z
void check_planar(const WorldHandle& w, const Rows& rows, std::initializer_list<int> zero, const char* what) {
  if (!w.planar()) return;
  for (std::size_t i = 0; i < rows.size(); ++i)
    for (int k : zero)
      if (rows[i][static_cast<std::size_t>(k)] != 0.0)
        throw std::invalid_argument(std::string("World.") + what + ": " + w.row(i) +
                                    ": a 2D body keeps it in the plane (component " + std::to_string(k) + " must be 0)");
}

void check_static_still(const WorldHandle& w, const Rows& rows, const char* what) {
  for (std::size_t i = 0; i < rows.size(); ++i)
    if (const BodyModel& b = w.world.model().bodies[i];
        b.is_static && !b.is_kinematic && (rows[i][0] != 0.0 || rows[i][1] != 0.0 || rows[i][2] != 0.0))
      throw std::invalid_argument(std::string("World.") + what + ": " + w.row(i) +
                                  " is static and cannot move (a kinematic body can)");
}

Vec3 vec(const std::vector<double>& r) { return Vec3(r[0], r[1], r[2]); }

}  // namespace

void bind_world_state(py::class_<WorldHandle>& c) {
  c.def_property("positions", [](const WorldHandle& w) {
    return body_rows(w, [](const BodyState& s) { return s.pose.position; });
  }, [](WorldHandle& w, py::handle value) {
    const Rows rows = checked_rows(w, value, 3, "positions");
    check_planar(w, rows, {2}, "positions");
    for (std::size_t i = 0; i < rows.size(); ++i) w.world.state().bodies[i].pose.position = vec(rows[i]);
  }, "(n, 3) centres of mass, world frame (m)");

  c.def_property("orientations", [](const WorldHandle& w) {
    Array out(std::vector<py::ssize_t>{static_cast<py::ssize_t>(w.body_count()), 4});
    const auto& bodies = w.world.state().bodies;
    for (std::size_t i = 0; i < bodies.size(); ++i) {
      const Quat& q = bodies[i].pose.orientation;
      const double wxyz[4] = {q.w(), q.x(), q.y(), q.z()};
      for (int k = 0; k < 4; ++k) out.mutable_at(static_cast<py::ssize_t>(i), k) = wxyz[k];
    }
    return out;
  }, [](WorldHandle& w, py::handle value) {
    const Rows rows = checked_rows(w, value, 4, "orientations");
    for (std::size_t i = 0; i < rows.size(); ++i) {
      const Quat q(rows[i][0], rows[i][1], rows[i][2], rows[i][3]);
      if (std::abs(q.norm() - 1.0) > 1e-6)  // as scene files: a typo, not a rounding, is caught
        throw std::invalid_argument("World.orientations: " + w.row(i) + " is not a unit quaternion [w, x, y, z] (|q| = " +
                                    std::to_string(q.norm()) + ", allowed 1 +- 1e-6)");
      if (w.planar() && (q.x() != 0.0 || q.y() != 0.0))
        throw std::invalid_argument("World.orientations: " + w.row(i) + ": a 2D body turns about z only (x = y = 0)");
    }
    for (std::size_t i = 0; i < rows.size(); ++i) {
      BodyState& s = w.world.state().bodies[i];
      s.pose.orientation = Quat(rows[i][0], rows[i][1], rows[i][2], rows[i][3]).normalized();
    }
  }, "(n, 4) unit quaternions [w, x, y, z]; set: normalised (|q| must be 1 +- 1e-6)");

  c.def_property("poses2d", [](const WorldHandle& w) {
    if (!w.planar()) throw std::invalid_argument("World.poses2d: a 3D scene (use positions and orientations)");
    return body_rows(w, [](const BodyState& s) { return Vec3(s.pose.position.x(), s.pose.position.y(), planar_angle(s.pose)); });
  }, [](WorldHandle& w, py::handle value) {
    if (!w.planar()) throw std::invalid_argument("World.poses2d: a 3D scene (use positions and orientations)");
    const Rows rows = checked_rows(w, value, 3, "poses2d");
    for (std::size_t i = 0; i < rows.size(); ++i) {
      BodyState& s = w.world.state().bodies[i];
      s.pose = Pose::planar(rows[i][0], rows[i][1], rows[i][2]);
    }
  }, "2D scenes: (n, 3) rows [x, y, theta]");

  c.def_property("linear_velocities", [](const WorldHandle& w) {
    return body_rows(w, [](const BodyState& s) { return s.linear_velocity; });
  }, [](WorldHandle& w, py::handle value) {
    const Rows rows = checked_rows(w, value, 3, "linear_velocities");
    check_planar(w, rows, {2}, "linear_velocities");
    check_static_still(w, rows, "linear_velocities");
    for (std::size_t i = 0; i < rows.size(); ++i) w.world.state().bodies[i].linear_velocity = vec(rows[i]);
  }, "(n, 3) velocities of the centres of mass, world frame (m/s)");

  c.def_property("angular_velocities", [](const WorldHandle& w) {
    return body_rows(w, [](const BodyState& s) { return s.angular_velocity; });
  }, [](WorldHandle& w, py::handle value) {
    const Rows rows = checked_rows(w, value, 3, "angular_velocities");
    check_planar(w, rows, {0, 1}, "angular_velocities");
    check_static_still(w, rows, "angular_velocities");
    for (std::size_t i = 0; i < rows.size(); ++i) w.world.state().bodies[i].angular_velocity = vec(rows[i]);
  }, "(n, 3) angular velocities, world frame (rad/s)");

  c.def_property("forces", [](const WorldHandle& w) {
    return body_rows(w, [](const BodyState& s) { return s.force; });
  }, [](WorldHandle& w, py::handle value) {
    const Rows rows = checked_rows(w, value, 3, "forces");
    check_planar(w, rows, {2}, "forces");
    for (std::size_t i = 0; i < rows.size(); ++i) w.world.state().bodies[i].force = vec(rows[i]);
  }, "(n, 3) external forces for the coming step (N), cleared after it");

  c.def_property("torques", [](const WorldHandle& w) {
    return body_rows(w, [](const BodyState& s) { return s.torque; });
  }, [](WorldHandle& w, py::handle value) {
    const Rows rows = checked_rows(w, value, 3, "torques");
    check_planar(w, rows, {0, 1}, "torques");
    for (std::size_t i = 0; i < rows.size(); ++i) w.world.state().bodies[i].torque = vec(rows[i]);
  }, "(n, 3) external torques about the centres of mass for the coming step (N m), cleared after it");

  c.def("apply_force", [](WorldHandle& w, py::handle body, py::handle force, py::object torque, py::object point) {
    const std::uint32_t i = w.body(body);
    const Vec3 f = vec3_from(force, "apply_force: force", w.planar());
    Vec3 t = torque.is_none() ? Vec3::Zero() : w.planar() ? Vec3(0.0, 0.0, py::cast<double>(torque))
                                                           : vec3_from(torque, "apply_force: torque");
    BodyState& s = w.world.state().bodies[i];
    if (!point.is_none())  // a force at a world point also turns the body: (p - c) x f
      t += (vec3_from(point, "apply_force: point", w.planar()) - s.pose.position).cross(f);
    if (!f.allFinite() || !t.allFinite()) throw std::invalid_argument("apply_force: " + w.row(i) + ": not finite");
    s.force += f;
    s.torque += t;
  }, py::arg("body"), py::arg("force"), py::arg("torque") = py::none(), py::arg("point") = py::none(),
     "adds an external force (and torque; 2D: a number, about z) to a body (index or name) for the coming step; "
     "with point (world frame) the force acts there");
}

}  // namespace pegsim::python
