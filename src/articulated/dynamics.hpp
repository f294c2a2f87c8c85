// Dynamics of a kinematic tree (Featherstone 2008):
//   inverse dynamics    tau = M(q) qdd + C(q, v)        recursive Newton-Euler, Table 5.1 (rnea.cpp)
//   joint-space inertia M(q)                            composite-rigid-body algorithm, Table 6.2 (crba.cpp)
//   forward dynamics    qdd = M^-1 (tau - C)            Cholesky of M, section 6.1 (eq. 6.1's solve; crba.cpp)
//                       qdd                             articulated-body algorithm, Table 7.1 (aba.cpp)
// C(q, v) = RNEA(q, v, 0) holds the Coriolis, centrifugal and gravity terms
// (the book's bias force, eq. 6.2's C = ID(q, qd, 0)). Gravity enters as the
// fictitious base acceleration a_0 = -a_g (section 5.3). External forces are
// spatial forces per link in that link's coordinates (empty: none).
#pragma once

#include "articulated/kinematics.hpp"

#include <vector>

namespace pegsim::articulated {

VecX inverse_dynamics(const ArticulatedTree& tree, const VecX& q, const VecX& v, const VecX& qdd,
                      const Vec3& gravity, const std::vector<Vec6>& external_force = {});
VecX bias_forces(const ArticulatedTree& tree, const VecX& q, const VecX& v, const Vec3& gravity,
                 const std::vector<Vec6>& external_force = {});
// The same from forward kinematics already taken at (q, v) (kin.velocity filled):
// a stepper that needs the transforms for M(q) and the Jacobians takes them once.
VecX inverse_dynamics(const ArticulatedTree& tree, const TreeKinematics& kin, const VecX& v, const VecX& qdd,
                      const Vec3& gravity, const std::vector<Vec6>& external_force = {});
VecX bias_forces(const ArticulatedTree& tree, const TreeKinematics& kin, const VecX& v, const Vec3& gravity);

MatX mass_matrix(const ArticulatedTree& tree, const VecX& q);
MatX mass_matrix(const ArticulatedTree& tree, const TreeKinematics& kin);  // from kin's transforms

VecX forward_dynamics_cholesky(const ArticulatedTree& tree, const VecX& q, const VecX& v, const VecX& tau,
                               const Vec3& gravity, const std::vector<Vec6>& external_force = {});
VecX forward_dynamics_aba(const ArticulatedTree& tree, const VecX& q, const VecX& v, const VecX& tau,
                          const Vec3& gravity, const std::vector<Vec6>& external_force = {});

// A spatial force on link i in its own coordinates from a world force f acting
// at world point p (what a contact impulse or an applied load becomes).
Vec6 link_force(const TreeKinematics& kin, int i, const Vec3& f_world, const Vec3& point_world);

}  // namespace pegsim::articulated
