// Time-stepping formulations: bodies + constraint set -> complementarity problem.
//
// Stewart-Trinkle (thesis eq. 6.1, the LCP form of the MCP eq. 2.34 with the
// bilateral rows eliminated by eq. 2.37 once joints exist):
//
//   0 <= | Gn'M^-1 Gn  Gn'M^-1 Gf  0 | |p_n|   | Gn' nu* + psi_n/h |     |p_n|
//        | Gf'M^-1 Gn  Gf'M^-1 Gf  E | |p_f| + | Gf' nu*           |  perp |p_f| >= 0
//        | U           -E'         0 | |s  |   | 0                 |     |s  |
//
// with nu* = nu + M^-1 p_ext (eq. 2.30), G columns [n; r x n] per body (eq.
// 2.26, 2.22), E = blockdiag(ones(n_d, 1)) and U = diag(mu) (eq. 2.21).
// Anitescu-Potra drops the psi_n/h term (thesis, after eq. 2.35).
//
// Variables are ordered [p_n | p_f | s]. Contacts whose material pair has
// mu = 0 get no friction or slip rows: their cone is the normal ray, and the
// rows would only carry p_f = 0 (U p_n - E' p_f >= 0 forces it).
//
// A constraint set with I- or X-constraints (PEG, thesis 4.7) is written as
// eqs. 4.41-4.51 instead (peg_rows.cpp): [p_n | p_f | s | c, d], the slack
// rows with RowRole::PegSlack and no Jacobian.
#pragma once

#include "contact/constraint_set.hpp"
#include "dynamics/mass.hpp"
#include "solvers/lcp.hpp"

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace pegsim {

struct StepProblem {
  LcpProblem lcp;  // lcp.structure.rows: one Jacobian row per variable (slip rows: no bodies)
  // per ConstraintSet contact: its variables (-1 when absent)
  std::vector<int> normal_var, first_friction_var, slip_var;
  // per LCP variable: the next Normal variable whose impulse acts along the
  // same contact's normal (-1: none). PEG can give one contact several (an I-
  // and an X-constraint); normal_var heads the chain.
  std::vector<int> next_normal_var;
  // per LCP variable: the ConstraintSet contact it belongs to (normal,
  // friction and slip rows: their contact; PEG's c_j and d_i slacks: the
  // sub-contact whose gap they compare, eqs. 4.10, 4.12); -1 for none. With
  // the role it names a variable across steps (sim/warm_start.hpp).
  std::vector<int> var_contact;
  // per LCP variable: the model joint it belongs to and its index among that
  // joint's variables (-1: a contact variable; joints/joint_problem.hpp)
  std::vector<int> var_joint, var_joint_row;
  std::vector<Vec3> friction_direction;  // per LCP variable; zero for non-friction rows
  int friction_directions = 0;           // n_d used for each frictional contact
};

struct FormulationInput {
  const Model* model = nullptr;
  const State* state = nullptr;
  const std::vector<InverseMass>* inverse_mass = nullptr;  // per body
  const std::vector<Vec6>* free_velocity = nullptr;       // nu* per body
  double h = 0.0;
  // Assemble the dense LcpProblem::A (false: the structure only, for solvers
  // that work on it; assemble_matrix() in solvers/lcp.hpp builds A later if a
  // fallback needs it). PEG's rows (eqs. 4.41-4.51) likewise: what their
  // slack and secondary rows measure is LcpStructure::measures.
  bool matrix = true;
  // Add kinematic bodies' surface velocities (JacobianRow::prescribed) to b;
  // false for a position projection, whose b is gaps only.
  bool prescribed_motion = true;
};

// The registry's names, "stewart-trinkle", "anitescu-potra" (scene files, CLI,
// Python, recordings); parse_formulation: false if unknown.
std::string_view to_string(FormulationKind kind);
bool parse_formulation(std::string_view text, FormulationKind& kind);
std::vector<std::string> formulation_names();

// Builds the LCP of eq. 6.1 (Stewart-Trinkle or Anitescu-Potra).
void build_problem(FormulationKind kind, const FormulationInput& in, const ConstraintSet& constraints,
                   StepProblem& out);

// Numbers the bodies the problem's rows name 0..k-1, in the order the rows
// first name them, fills LcpStructure::inverse_mass for those k from the
// scene's per-body inverse masses and records their scene indices
// (LcpStructure::scene_body). Called by build_problem, and again for rows added after it (joint_problem.cpp,
// tree_stepping.cpp) from `first_row` on, extending the numbering; the rows'
// measures (LcpStructure::measures) are numbered after them. Before it, rows
// name scene bodies. Costs the island's rows and bodies, not the scene's.
void number_island_bodies(LcpStructure& structure, const std::vector<InverseMass>& inverse_mass,
                          std::size_t first_row = 0);

// The normal impulse on a ConstraintSet contact: the sum over its Normal
// variables (0 for a contact with none, such as a PEG secondary sub-contact).
double normal_impulse(const StepProblem& problem, const VecX& z, int contact);

// p = G z per body the rows name, in their numbering (LcpStructure::scene_body
// maps it to scene bodies; without one, the first `scene_bodies` bodies):
// `impulse` is resized to that many bodies and filled.
void body_impulses(const LcpStructure& structure, const VecX& z, std::size_t scene_bodies,
                   std::vector<Vec6>& impulse);

// nu^{l+1} = nu* + M^-1 G z (eq. 2.30): accumulates each variable's impulse
// onto its bodies and adds M^-1 of it to their velocities (scene bodies; the
// rows' bodies mapped through LcpStructure::scene_body).
void apply_impulses(const StepProblem& problem, const VecX& z, const std::vector<InverseMass>& inverse_mass,
                    std::vector<Vec6>& velocity);

// Friction directions d_1..d_nd around n (eq. 2.22): 3D, nd evenly spaced in
// the tangent plane starting from a deterministic tangent; planar, +-t.
void friction_basis(const Vec3& n, int nd, Dimension dim, std::vector<Vec3>& out);

}  // namespace pegsim
