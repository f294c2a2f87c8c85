// The joint rows of a step's problem: appended after the contact rows of an
// island's StepProblem (dynamics/formulation.hpp), the hook the island solver
// calls once the contact formulation is built.
//
// With nu eliminated (nu^{l+1} = nu* + M^-1 G z, eq. 2.30), the bilateral rows
// of the MCP eq. 2.34 become Free rows of the LCP:
//   w_b = G_b' M^-1 (G z) + G_b' nu* + psi_b / h  = 0,   p_b free     (eq. 2.28 / h)
// (psi_b / h only with JointOptions::stabilization; kept under Anitescu-Potra,
// which drops the unilateral psi_n / h only, guide 1.4). Then, per joint with
// a free coordinate q (joint_rows.hpp coordinate_row, G_q):
//   limits, unilateral like a contact (guide 1.7):
//     0 <= G_q' nu + (q - lower) / h  perp p_lo >= 0,  0 <= -G_q' nu + (upper - q) / h  perp p_hi >= 0
//   a motor (target rate v, bound F) and Coulomb friction (v = 0, bound F_f),
//   each the bounded row |p| <= F h written as a pure LCP with Stewart-
//   Trinkle's friction trick (eqs. 2.21, 2.31-2.33 with U p_n replaced by the
//   constant F h): two opposite rows and a multiplier sigma,
//     0 <=  G_q' nu - v + sigma  perp p+ >= 0
//     0 <= -G_q' nu + v + sigma  perp p- >= 0
//     0 <=  F h - p+ - p-        perp sigma >= 0
//   so |G_q' nu - v| > 0 only when p+ + p- = F h (the bound is reached);
//   damping c, implicit: a Free row G_q' nu + p / (c h) = 0, i.e. the impulse
//     p = -c h (G_q' nu^{l+1}), unconditionally stable.
// Every row is in LcpStructure form (JacobianRow per variable, E-like
// couplings) and, when asked, in the dense A. Row roles: Bilateral for the
// Free rows, Other for the rest (contact_of -1).
#pragma once

#include "dynamics/formulation.hpp"

#include <vector>

namespace pegsim {

// Appends the rows of model.joints[j] for j in `joints` (ascending) to `out`,
// and sets out.var_joint / var_joint_row for every variable (-1 for contact
// rows). Reads in.model, state, inverse_mass, free_velocity, h, matrix.
void append_joint_rows(const FormulationInput& in, const std::vector<int>& joints, StepProblem& out);

}  // namespace pegsim

namespace pegsim {

// The wrench each joint's rows apply to its end B over the step, as a force
// (N) and a torque about B's anchor P_b (N m), world frame: sum over the
// joint's variables of G_B z / h (guide 1.4: the reaction on B is G_B p_b / h),
// limits, motor, friction and damping included. For a joint whose B end is the
// world or static, the negated wrench on A about the same point (the rows are
// action-reaction pairs). Adds into `wrenches` (one [force; torque] per model
// joint, sized by the caller).
void add_joint_reactions(const Model& model, const State& state, const StepProblem& problem, const VecX& z, double h,
                         std::vector<Vec6>& wrenches);

}  // namespace pegsim
