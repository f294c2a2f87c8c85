// PYBIND11_MODULE: the pegsim Python module (docs/python.md).
//
// C++ errors arrive as Python exceptions with the C++ message unchanged:
// bad input (scene files, shapes, unknown solver or model, wrong array shapes)
// as ValueError, failures while running (a non-finite state, an unreadable
// recording) as RuntimeError.
#include "bindings.hpp"

#include <pybind11/stl.h>  // solver_names() returns a std::vector<std::string>

#include "contact/contact_model.hpp"
#include "dynamics/formulation.hpp"
#include "geometry/shape.hpp"
#include "sim/stepper.hpp"
#include "io/h5.hpp"
#include "io/scene.hpp"
#include "solvers/lcp.hpp"

namespace pegsim::python {
namespace {

void translate_errors() {
  py::register_exception_translator([](std::exception_ptr p) {
    try {
      if (p) std::rethrow_exception(p);
    } catch (const SceneError& e) {  // FILE:LINE: FIELD: what is wrong
      PyErr_SetString(PyExc_ValueError, e.what());
    } catch (const GeometryError& e) {  // an invalid shape
      PyErr_SetString(PyExc_ValueError, e.what());
    }
    // std::invalid_argument -> ValueError, std::runtime_error -> RuntimeError: pybind11's own
  });
}

}  // namespace
}  // namespace pegsim::python

PYBIND11_MODULE(pegsim, m) {
  using namespace pegsim::python;
  // no HDF5 shutdown at the interpreter's exit (src/io/h5.hpp): after a failed
  // write (a full disk) HDF5 1.10.8 cannot close the recording and crashes
  // closing it again at exit. Effective when pegsim is imported before h5py.
  pegsim::h5::skip_shutdown_at_exit();
  m.doc() = "pegsim: rigid-body contact simulation with exact polytope contact (docs/python.md)";
  translate_errors();
  bind_shapes(m);
  bind_scene(m);
  bind_report(m);
  bind_world(m);
  bind_recording(m);
  bind_joints(m);
  bind_trees(m);
  m.def("solver_names", &pegsim::solver_names, "the complementarity solvers World(solver=...) accepts");
  // the registries' names (contact/contact_model.hpp, dynamics/formulation.hpp, sim/stepper.hpp)
  auto names = [](const std::vector<std::string>& list) {
    py::tuple t(list.size());
    for (std::size_t i = 0; i < list.size(); ++i) t[i] = py::str(list[i]);
    return t;
  };
  m.attr("contact_models") = names(pegsim::contact_model_names());
  m.attr("formulations") = names(pegsim::formulation_names());
  m.attr("steppers") = names(pegsim::stepper_names());
  // parameter studies: the pure-Python package pegsim_sweep next to this module (docs/sweeps.md),
  // imported on the first call so that `import pegsim` needs neither Dask nor pandas
  m.def("sweep", [](py::args args, py::kwargs kwargs) {
    return py::module_::import("pegsim_sweep").attr("sweep")(*args, **kwargs);
  }, "pegsim.sweep(study, out=None, *, workers=None, scheduler=None, client=None, resume=True, record=None, "
     "plots=True, progress=True, on_row=None): runs a parameter study on Dask (pegsim_sweep.sweep, docs/sweeps.md)");
}
