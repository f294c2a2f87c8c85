// World.statistics: the figures of the CLI's run summary (src/sim/statistics.hpp),
// accumulated from the World's first step; World.summary: its text;
// World.overlap: the bodies' total overlap now (src/analysis/overlap.hpp).
// pegsim.sweep (python/pegsim_sweep) reads one row of results from these.
#include "world_handle.hpp"

#include "analysis/overlap.hpp"

#include <pybind11/stl.h>

namespace pegsim::python {
namespace {

py::dict statistics_of(const RunStatistics& s) {
  py::dict d;
  d["steps"] = s.steps;
  d["contacts_max"] = s.contacts_max;
  d["contacts_mean"] = s.steps > 0 ? static_cast<double>(s.contacts_total) / static_cast<double>(s.steps) : 0.0;
  d["traps"] = s.traps_total;
  d["solver_calls"] = s.solver_calls;
  d["solver_failures"] = s.solver_failures;
  d["solver_recoveries"] = s.solver_recoveries;
  d["impulses_scaled"] = s.impulses_scaled;
  d["viscous_overshoots"] = s.viscous_overshoots;
  d["over_budget"] = s.over_budget;
  d["out_of_time"] = s.out_of_time;
  d["short_contact_distance"] = s.short_contact_distance;
  d["solver_iterations_max"] = s.solver_iterations_max;
  d["escalations"] = s.escalations;
  d["steps_with_escalations"] = s.steps_with_escalations;
  d["solver_chain"] = s.solver_chain;
  d["solved_by"] = s.solved_by;
  d["worst_complementarity"] = s.worst_complementarity;
  d["worst_certified_residual"] = s.worst_certified_residual;
  d["worst_cone_violation"] = s.worst_cone_violation;
  d["penetration_exceeded"] = s.penetration_exceeded;
  d["max_penetration"] = s.max_penetration;
  d["position_corrections"] = s.position_corrections;
  d["correction_failures"] = s.correction_failures;
  d["max_penetration_before_correction"] = s.max_penetration_before_correction;
  d["energy_initial"] = s.energy_initial;
  d["energy_final"] = s.energy_final;
  d["energy_drift"] = s.energy_drift();
  d["energy_max_rise"] = s.energy_max_rise;
  d["momentum_initial"] = vector_of(s.momentum_initial);
  d["momentum_final"] = vector_of(s.momentum_final);
  d["momentum_drift"] = s.momentum_drift();
  d["seconds_per_step"] = s.seconds_per_step();
  return d;
}

}  // namespace

void bind_world_statistics(py::class_<WorldHandle>& c) {
  c.def_property_readonly("statistics", [](const WorldHandle& w) { return statistics_of(*w.statistics); },
                          "the run summary's figures since the World was made, as a dict (steps, solver "
                          "failures, escalations, max_penetration, energy_drift, momentum_drift, "
                          "seconds_per_step, ...: docs/python.md)");
  c.def("summary", [](const WorldHandle& w, double wall_seconds) { return w.statistics->summary(wall_seconds); },
        py::arg("wall_seconds") = 0.0, "the run summary `pegsim run` prints, as text");
  c.def("overlap", [](const WorldHandle& w) { return total_overlap(w.world.model(), w.world.state()); },
        "total overlap between the bodies now: area (2D, m^2) or volume (3D, m^3), measured on the geometry "
        "alone (thesis 5.2.3-5.2.4)");
}

}  // namespace pegsim::python
