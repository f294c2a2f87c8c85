// What one step produced (src/sim/step_report.hpp), as Python sees it: the
// report World.step() returns and the per-step callbacks receive. Reports are
// copies: they stay valid after later steps.
#include "bindings.hpp"

#include "sim/step_report.hpp"

#include <pybind11/stl.h>

namespace pegsim::python {
namespace {

const char* feature_kind_name(FeatureKind k) {
  switch (k) {
    case FeatureKind::VertexFace: return "vertex_face";
    case FeatureKind::EdgeEdge: return "edge_edge";
    case FeatureKind::VertexEdge: return "vertex_edge";
    case FeatureKind::VertexPlane: return "vertex_plane";
    case FeatureKind::Overlap: return "overlap";
    case FeatureKind::Curved: return "curved";
  }
  return "unknown";
}

template <class Get>
Array contact_rows(const StepReport& r, Get&& get) {
  std::vector<Vec3> rows;
  rows.reserve(r.contacts.size());
  for (std::size_t i = 0; i < r.contacts.size(); ++i) rows.push_back(get(i));
  return rows_of(rows);
}

}  // namespace

void bind_report(py::module_& m) {
  py::class_<Contact>(m, "Contact", "A contact of the step (src/collision/contact.hpp): normal from body A onto B.")
      .def_readonly("body_a", &Contact::body_a)
      .def_readonly("body_b", &Contact::body_b)
      .def_property_readonly("kind", [](const Contact& c) { return feature_kind_name(c.kind); })
      .def_property_readonly("feature_a", [](const Contact& c) { return c.features.feature_a; })
      .def_property_readonly("feature_b", [](const Contact& c) { return c.features.feature_b; })
      .def_property_readonly("point_a", [](const Contact& c) { return vector_of(c.point_a); })
      .def_property_readonly("point_b", [](const Contact& c) { return vector_of(c.point_b); })
      .def_property_readonly("normal", [](const Contact& c) { return vector_of(c.normal); })
      .def_readonly("gap", &Contact::gap, "signed distance psi_n (m), negative: penetration")
      .def_property_readonly("applicability", [](const Contact& c) { return c.features.applicability; })
      .def_property_readonly("primary", [](const Contact& c) { return c.features.primary; })
      .def("__repr__", [](const Contact& c) {
        return std::string("<pegsim.Contact ") + feature_kind_name(c.kind) + " " + std::to_string(c.body_a) + "->" +
               std::to_string(c.body_b) + " gap " + std::to_string(c.gap) + ">";
      });

  py::class_<SolverResult>(m, "SolverResult", "The complementarity solve of a step (src/solvers/lcp.hpp).")
      .def_property_readonly("status", [](const SolverResult& s) { return std::string(to_string(s.status)); })
      .def_property_readonly("ok", &SolverResult::ok)
      .def_readonly("iterations", &SolverResult::iterations, "pivots or sweeps")
      .def_readonly("complementarity", &SolverResult::complementarity, "residual max |min(z, w)|")
      .def_readonly("feasibility", &SolverResult::feasibility)
      .def_readonly("regularization_level", &SolverResult::regularization_level)
      .def_readonly("message", &SolverResult::message);

  py::class_<StepReport>(m, "StepReport", "What one step produced (src/sim/step_report.hpp).")
      .def_readonly("step", &StepReport::step, "index of the step just taken")
      .def_readonly("time", &StepReport::time, "time at the end of the step (s)")
      .def_readonly("contacts_found", &StepReport::contacts_found, "feature pairs the narrowphase found")
      .def_property_readonly("impulse", [](const StepReport& r) {
        const ImpulseCounts& c = r.impulse;
        py::dict d;
        d["events"] = c.events;
        d["collisions"] = c.collisions;
        d["micro_collisions"] = c.micro_collisions;
        d["sticking"] = c.sticking;
        d["jams"] = c.jams;
        d["min_advance_clamps"] = c.min_advance_clamps;
        d["sweep_overruns"] = c.sweep_overruns;
        d["collision_budget_exhausted"] = c.collision_budget_exhausted;
        d["event_budget_exhausted"] = c.event_budget_exhausted;
        d["min_distance"] = c.min_distance;
        d["max_energy_gain"] = c.max_energy_gain;
        return d;
      }, "the impulse stepper's events over the step (sim/step_report.hpp ImpulseCounts; zero for the others)")
      .def_property_readonly("u", [](const StepReport& r) { return r.constraints.u; }, "U-constraints built")
      .def_property_readonly("i", [](const StepReport& r) { return r.constraints.i; }, "I-constraints built")
      .def_property_readonly("x", [](const StepReport& r) { return r.constraints.x; }, "X-constraints built")
      .def_readonly("traps", &StepReport::traps, "standard-model traps among the contacts found")
      .def_readonly("short_contact_distance", &StepReport::short_contact_distance,
                    "bodies that may travel farther this step than a fixed eps (contacts can be missed)")
      .def_readonly("contacts", &StepReport::contacts, "the contact model's (sub-)contacts, list of Contact")
      .def_property_readonly("normal_impulses", [](const StepReport& r) {
        Array out(static_cast<py::ssize_t>(r.impulses.size()));
        for (std::size_t i = 0; i < r.impulses.size(); ++i) out.mutable_at(static_cast<py::ssize_t>(i)) = r.impulses[i].normal;
        return out;
      }, "p_n per contact (N s)")
      .def_property_readonly("friction_impulses", [](const StepReport& r) {
        std::vector<Vec3> rows;
        for (const ContactImpulse& p : r.impulses) rows.push_back(p.friction);
        return rows_of(rows);
      }, "(m, 3): friction impulse per contact, world frame (N s)")
      .def_property_readonly("contact_normals", [](const StepReport& r) {
        return contact_rows(r, [&](std::size_t i) { return r.contacts[i].normal; });
      }, "(m, 3)")
      .def_property_readonly("contact_points", [](const StepReport& r) {
        return contact_rows(r, [&](std::size_t i) { return r.contacts[i].point_a; });
      }, "(m, 3): the contacts' points on body A")
      .def_readonly("solver", &StepReport::solver)
      .def_readonly("solver_calls", &StepReport::solver_calls)
      .def_readonly("solver_failures", &StepReport::solver_failures)
      .def_readonly("solver_recoveries", &StepReport::solver_recoveries)
      .def_readonly("impulses_scaled", &StepReport::impulses_scaled,
                    "islands whose impulses the energy bound scaled down (src/sim/impulse_energy.hpp; among the failures)")
      .def_readonly("problem_size", &StepReport::problem_size)
      .def_readonly("max_penetration", &StepReport::max_penetration, "deepest overlap after the step (m)")
      .def_readonly("position_corrections", &StepReport::position_corrections,
                    "projections of the position correction this step")
      .def_readonly("penetration_before_correction", &StepReport::penetration_before_correction,
                    "deepest overlap before the position correction (m)")
      .def_readonly("joint_position_error", &StepReport::joint_position_error,
                    "largest per-joint position error after the step and the joint correction")
      .def_readonly("joint_velocity_error", &StepReport::joint_velocity_error,
                    "largest per-joint velocity error after the step and the joint correction")
      .def_readonly("joint_position_error_before", &StepReport::joint_position_error_before,
                    "the same before the joint correction")
      .def_readonly("joint_velocity_error_before", &StepReport::joint_velocity_error_before,
                    "the same before the joint correction")
      .def_property_readonly("joint_wrenches", [](const StepReport& r) {
        Array out({static_cast<py::ssize_t>(r.joint_wrenches.size()), py::ssize_t{6}});
        for (std::size_t j = 0; j < r.joint_wrenches.size(); ++j)
          for (int k = 0; k < 6; ++k) out.mutable_at(static_cast<py::ssize_t>(j), k) = r.joint_wrenches[j](k);
        return out;
      }, "(j, 6): per joint, the force (N) and torque about its anchor (N m) it applied to its end B, world frame")
      .def_readonly("slip_residual", &StepReport::slip_residual,
                    "no-slip stepper: largest |S v+|, |T v+| over touching contacts (m/s, ref. 002 eqs. (45)-(46)); 0 otherwise")
      .def_readonly("restitution_residual", &StepReport::restitution_residual,
                    "convex-impulse stepper: largest |u_N + e nu_N| (m/s, ref. 000 eq. (1)); 0 otherwise")
      .def_readonly("barrier_newton_steps", &StepReport::barrier_newton_steps,
                    "convex-impulse stepper: the log barrier's Newton steps this step")
      .def_readonly("negative_normal_impulses", &StepReport::negative_normal_impulses,
                    "convex-impulse stepper: contacts whose phase-1 normal impulse was negative")
      .def_readonly("viscous_overshoots", &StepReport::viscous_overshoots,
                    "viscous stepper, explicit law: touching contacts whose h mu_v exceeds twice their tangential "
                    "effective mass (the impulse amplifies their slip)")
      .def("__repr__", [](const StepReport& r) {
        return "<pegsim.StepReport step " + std::to_string(r.step) + ", t = " + std::to_string(r.time) + " s, " +
               std::to_string(r.contacts.size()) + " contacts, solver " + std::string(to_string(r.solver.status)) + ">";
      });
}

}  // namespace pegsim::python
