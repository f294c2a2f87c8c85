// Pieces shared by the Stewart-Trinkle rows (formulation.cpp) and the PEG rows
// (peg_rows.cpp). Internal to the dynamics stage.
#pragma once

#include "dynamics/formulation.hpp"
#include "solvers/delassus.hpp"

#include <cstddef>
#include <vector>

namespace pegsim::formulation_detail {

// G column for direction d at the contact's points (eqs. 2.22, 2.26): body A
// receives -d at point_a, body B receives +d at point_b; static bodies are left out.
JacobianRow contact_row(const Contact& c, const Vec3& d, const Model& model, const State& state);

// w = ja . nu_a + jb . nu_b
double row_velocity(const JacobianRow& row, const std::vector<Vec6>& nu);

// The row's part of b: row_velocity over in.free_velocity, plus the kinematic
// bodies' row.prescribed when in.prescribed_motion.
double row_rate(const JacobianRow& row, const FormulationInput& in);

// One contact's n_d friction rows (first_friction ...) and its slip row (eq.
// 2.21-2.22): Jacobian rows, directions, roles, contact_of = normal_row,
// var_contact = contact_index, and the contact's block in LcpProblem::layout.
// The couplings (E, -E', U) are the caller's: they differ between formulations.
// `drift_rate` (ConstrainedContact::drift_rate) goes into each row's
// prescribed rate: the row measures d . (u + drift_rate).
void add_friction_rows(const Contact& contact, const Vec3& drift_rate, int contact_index, int normal_row, int first_friction, int slip,
                       int nd, const FormulationInput& in, std::vector<Vec3>& dirs, StepProblem& out);

// LcpStructure::inverse_mass from the per-body inverse masses (the rows
// numbering bodies as minv does), and one body's 6 x 6 block.
void fill_inverse_mass(const std::vector<InverseMass>& minv, LcpStructure& structure);
Mat6 inverse_mass_block(const InverseMass& m);

// Eqs. 4.41-4.51 (peg_rows.cpp).
void build_peg_problem(FormulationKind kind, const FormulationInput& in, const ConstraintSet& set,
                       StepProblem& out);

}  // namespace pegsim::formulation_detail
