// read_recording(path): an HDF5 recording (docs/recording-format.md) read by
// the C++ reader (src/io/recording.hpp) into numpy arrays, N rows, nb bodies,
// M contacts over all rows. A truncated or malformed file raises RuntimeError
// with the reader's message; an incomplete one (its writer killed) reads up
// to its last checkpoint with complete = False and a RuntimeWarning.
#include "bindings.hpp"

#include "io/recording.hpp"

#include <pybind11/stl.h>

namespace pegsim::python {
namespace {

using Steps = std::vector<RecordedStep>;

Array per_row(const Steps& steps, double (*get)(const RecordedStep&)) {
  Array out(static_cast<py::ssize_t>(steps.size()));
  for (std::size_t k = 0; k < steps.size(); ++k) out.mutable_at(static_cast<py::ssize_t>(k)) = get(steps[k]);
  return out;
}

// [N, nb, 3] from a per-body member
Array per_body(const Steps& steps, std::size_t nb, const std::vector<Vec3> RecordedStep::*member) {
  Array out(std::vector<py::ssize_t>{static_cast<py::ssize_t>(steps.size()), static_cast<py::ssize_t>(nb), 3});
  auto r = out.mutable_unchecked<3>();
  for (std::size_t k = 0; k < steps.size(); ++k)
    for (std::size_t i = 0; i < nb; ++i)
      for (int c = 0; c < 3; ++c)
        r(static_cast<py::ssize_t>(k), static_cast<py::ssize_t>(i), c) = (steps[k].*member)[i][c];
  return out;
}

py::dict contacts_of(const Steps& steps) {
  std::vector<std::int64_t> offsets{0};
  std::vector<std::uint32_t> body_a, body_b;
  std::vector<Vec3> point_a, point_b, normal, friction;
  std::vector<double> gap, impulse;
  std::vector<int> kind, primary;
  for (const RecordedStep& s : steps) {
    for (std::size_t c = 0; c < s.contacts.size(); ++c) {
      const Contact& k = s.contacts[c];
      body_a.push_back(k.body_a);
      body_b.push_back(k.body_b);
      kind.push_back(static_cast<int>(k.kind));
      primary.push_back(k.features.primary ? 1 : 0);
      point_a.push_back(k.point_a);
      point_b.push_back(k.point_b);
      normal.push_back(k.normal);
      gap.push_back(k.gap);
      impulse.push_back(c < s.normal_impulse.size() ? s.normal_impulse[c] : 0.0);
      friction.push_back(c < s.friction_impulse.size() ? s.friction_impulse[c] : Vec3::Zero());
    }
    offsets.push_back(static_cast<std::int64_t>(body_a.size()));
  }
  py::dict d;
  d["contact_offsets"] = py::array_t<std::int64_t>(static_cast<py::ssize_t>(offsets.size()), offsets.data());
  d["contact_body_a"] = py::array_t<std::uint32_t>(static_cast<py::ssize_t>(body_a.size()), body_a.data());
  d["contact_body_b"] = py::array_t<std::uint32_t>(static_cast<py::ssize_t>(body_b.size()), body_b.data());
  d["contact_kind"] = py::array_t<int>(static_cast<py::ssize_t>(kind.size()), kind.data());
  d["contact_primary"] = py::array_t<int>(static_cast<py::ssize_t>(primary.size()), primary.data());
  d["contact_point_a"] = rows_of(point_a);
  d["contact_point_b"] = rows_of(point_b);
  d["contact_normal"] = rows_of(normal);
  d["contact_gap"] = Array(static_cast<py::ssize_t>(gap.size()), gap.data());
  d["normal_impulse"] = Array(static_cast<py::ssize_t>(impulse.size()), impulse.data());
  d["friction_impulse"] = rows_of(friction);
  return d;
}

// joint_names, joint_kinds, joint_bodies [nj, 2] (-1: world); per row, when
// recorded: joint_positions, joint_velocities [N, nj], joint_wrenches [N, nj, 6]
void add_joints(const Recording& rec, py::dict& d) {
  std::vector<std::string> names, kinds;
  std::vector<int> ends;
  for (const RecordedJoint& j : rec.joints) {
    names.push_back(j.name);
    kinds.push_back(j.kind);
    ends.push_back(j.body_a);
    ends.push_back(j.body_b);
  }
  const auto nj = static_cast<py::ssize_t>(rec.joints.size());
  d["joint_names"] = names;
  d["joint_kinds"] = kinds;
  d["joint_bodies"] = py::array_t<int>(std::vector<py::ssize_t>{nj, 2}, ends.data());
  if (rec.steps.empty() || rec.steps.front().joint_positions.empty()) return;
  const auto n = static_cast<py::ssize_t>(rec.steps.size());
  Array positions(std::vector<py::ssize_t>{n, nj}), velocities(std::vector<py::ssize_t>{n, nj});
  Array wrenches(std::vector<py::ssize_t>{n, nj, 6});
  for (py::ssize_t k = 0; k < n; ++k) {
    const RecordedStep& s = rec.steps[static_cast<std::size_t>(k)];
    for (py::ssize_t j = 0; j < nj; ++j) {
      positions.mutable_at(k, j) = s.joint_positions[static_cast<std::size_t>(j)];
      velocities.mutable_at(k, j) = s.joint_velocities[static_cast<std::size_t>(j)];
      for (int c = 0; c < 6; ++c) wrenches.mutable_at(k, j, c) = s.joint_wrenches[static_cast<std::size_t>(j)](c);
    }
  }
  d["joint_positions"] = positions;
  d["joint_velocities"] = velocities;
  d["joint_wrenches"] = wrenches;
}

py::object recording_arrays(const std::string& path) {
  const Recording rec = read_recording(path);
  const Steps& steps = rec.steps;
  const std::size_t nb = rec.body_names.size();
  const auto n = static_cast<py::ssize_t>(steps.size());
  py::dict d = contacts_of(steps);

  // once per file
  d["path"] = path;
  d["complete"] = rec.complete;  // False: the writer never closed it; the rows up to its last checkpoint
  d["format_version"] = rec.format_version;
  d["dimension"] = rec.dimension;
  d["h"] = rec.h;
  d["every"] = rec.every;
  d["model"] = rec.model;
  d["formulation"] = rec.formulation;
  d["solver"] = rec.solver;
  d["scene_text"] = rec.scene_text;
  d["body_names"] = rec.body_names;
  d["body_static"] = std::vector<bool>(rec.body_static.begin(), rec.body_static.end());
  d["body_mass"] = Array(static_cast<py::ssize_t>(nb), rec.body_mass.data());
  Array inertia(std::vector<py::ssize_t>{static_cast<py::ssize_t>(nb), 3, 3});
  for (std::size_t i = 0; i < nb; ++i)
    for (int a = 0; a < 3; ++a)
      for (int b = 0; b < 3; ++b) inertia.mutable_at(static_cast<py::ssize_t>(i), a, b) = rec.body_inertia[i](a, b);
  d["body_inertia"] = inertia;

  // per row: the state
  py::array_t<std::int64_t> step(n);
  for (py::ssize_t k = 0; k < n; ++k) step.mutable_at(k) = steps[static_cast<std::size_t>(k)].step;
  d["step"] = step;
  d["time"] = per_row(steps, [](const RecordedStep& s) { return s.time; });
  d["position"] = per_body(steps, nb, &RecordedStep::position);
  d["linear_velocity"] = per_body(steps, nb, &RecordedStep::linear_velocity);
  d["angular_velocity"] = per_body(steps, nb, &RecordedStep::angular_velocity);
  Array orientation(std::vector<py::ssize_t>{n, static_cast<py::ssize_t>(nb), 4});
  for (std::size_t k = 0; k < steps.size(); ++k)
    for (std::size_t i = 0; i < nb; ++i) {
      const Quat& q = steps[k].orientation[i];
      const double wxyz[4] = {q.w(), q.x(), q.y(), q.z()};
      for (int c = 0; c < 4; ++c)
        orientation.mutable_at(static_cast<py::ssize_t>(k), static_cast<py::ssize_t>(i), c) = wxyz[c];
    }
  d["orientation"] = orientation;
  if (rec.dimension == 2) {
    Array theta(std::vector<py::ssize_t>{n, static_cast<py::ssize_t>(nb)});
    for (std::size_t k = 0; k < steps.size(); ++k)
      for (std::size_t i = 0; i < nb; ++i)
        theta.mutable_at(static_cast<py::ssize_t>(k), static_cast<py::ssize_t>(i)) =
            i < steps[k].theta.size() ? steps[k].theta[i] : 0.0;
    d["theta"] = theta;
  }

  // per row: contacts and the solver
  d["contacts_found"] = per_row(steps, [](const RecordedStep& s) { return double(s.contacts_found); });
  d["contacts"] = per_row(steps, [](const RecordedStep& s) { return double(s.contacts.size()); });
  d["constraints_u"] = per_row(steps, [](const RecordedStep& s) { return double(s.constraints.u); });
  d["constraints_i"] = per_row(steps, [](const RecordedStep& s) { return double(s.constraints.i); });
  d["constraints_x"] = per_row(steps, [](const RecordedStep& s) { return double(s.constraints.x); });
  d["traps"] = per_row(steps, [](const RecordedStep& s) { return double(s.traps); });
  std::vector<std::string> status;
  for (const RecordedStep& s : steps) status.emplace_back(to_string(s.solver_status));
  d["solver_status"] = status;
  d["solver_iterations"] = per_row(steps, [](const RecordedStep& s) { return double(s.solver_iterations); });
  d["solver_calls"] = per_row(steps, [](const RecordedStep& s) { return double(s.solver_calls); });
  d["solver_failures"] = per_row(steps, [](const RecordedStep& s) { return double(s.solver_failures); });
  d["solver_recoveries"] = per_row(steps, [](const RecordedStep& s) { return double(s.solver_recoveries); });
  d["problem_size"] = per_row(steps, [](const RecordedStep& s) { return double(s.problem_size); });
  d["complementarity"] = per_row(steps, [](const RecordedStep& s) { return s.complementarity; });
  d["feasibility"] = per_row(steps, [](const RecordedStep& s) { return s.feasibility; });
  d["max_penetration"] = per_row(steps, [](const RecordedStep& s) { return s.max_penetration; });
  add_joints(rec, d);
  if (!rec.complete)  // readable, but say so: the run did not finish writing
    PyErr_WarnEx(PyExc_RuntimeWarning, incomplete_note(path, rec).c_str(), 1);
  return py::module_::import("types").attr("SimpleNamespace")(**d);
}

}  // namespace

void bind_recording(py::module_& m) {
  m.def("read_recording", &recording_arrays, py::arg("path"),
        "reads an HDF5 recording into a namespace of numpy arrays (docs/python.md lists them)");
}

}  // namespace pegsim::python
