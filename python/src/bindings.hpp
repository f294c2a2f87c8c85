// The pegsim Python module: one bind_* function per part (docs/python.md).
#pragma once

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

#include "geometry/shape.hpp"
#include "math/types.hpp"

#include <string>
#include <vector>

namespace pegsim::python {

namespace py = pybind11;

void bind_shapes(py::module_& m);     // bind_shapes.cpp: Shape and its constructors
void bind_scene(py::module_& m);      // bind_scene.cpp: Scene (built in code or loaded)
void bind_report(py::module_& m);     // bind_report.cpp: StepReport, Contact, SolverResult
void bind_world(py::module_& m);      // bind_world.cpp: World (step, state arrays, callbacks)
void bind_recording(py::module_& m);  // bind_recording.cpp: read_recording
void bind_joints(py::module_& m);     // bind_joints.cpp: Scene.add_joint, World's joint state and torques
void bind_trees(py::module_& m);      // bind_trees.cpp: robots' joint state, M(q), bias forces, Jacobians

const char* shape_kind(const Shape& shape);  // "polyhedron", "polygon", "half_space"

// Python's pegsim.Shape. A struct of its own: pybind11/stl.h would otherwise
// convert the std::variant Shape into its alternatives.
struct ShapeHandle {
  Shape shape;
};

// numpy <-> Eigen (arrays.cpp). Inputs are checked: wrong shapes or
// non-numbers raise ValueError naming `what`.
using Array = py::array_t<double, py::array::c_style | py::array::forcecast>;
Array rows_of(const std::vector<Vec3>& rows);               // (n, 3)
Array rows_of(const std::vector<Vec2>& rows);               // (n, 2)
Array vector_of(const Vec3& v);                             // (3,)
Array matrix_of(const Mat3& m);                             // (3, 3)
// a sequence of `n` numbers (n = 2 or 3; 2 is lifted to z = 0 when `allow_2d`)
Vec3 vec3_from(py::handle value, const std::string& what, bool allow_2d = false);
// exactly n numbers
std::vector<double> numbers_from(py::handle value, long n, const std::string& what);
// an (rows, cols) array; rows < 0: any number of rows
std::vector<std::vector<double>> table_from(py::handle value, long rows, long cols, const std::string& what);

}  // namespace pegsim::python
