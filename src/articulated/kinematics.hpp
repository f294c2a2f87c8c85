// Forward kinematics of a kinematic tree (Featherstone 2008, section 4.1 and
// the first pass of Tables 5.1 / 7.1): every link's transform from its
// parent and from the world, and its spatial velocity; link Jacobians; and the
// conversion to pegsim's body convention (a body frame at the centre of mass,
// velocities [v_com; omega] in world coordinates, dynamics/mass.hpp).
#pragma once

#include "articulated/tree.hpp"
#include "math/pose.hpp"

#include <vector>

namespace pegsim::articulated {

// A joint's motion subspace S_i (eq. 4.5; constant in link coordinates for
// pegsim's joints, c_J = 0): 6 x nv_i with nv_i <= 6, held without the heap.
using Subspace = Eigen::Matrix<double, 6, Eigen::Dynamic, 0, 6, 6>;
Subspace joint_subspace(const Link& link);

struct TreeKinematics {
  std::vector<Transform> from_parent;  // i_X_lambda(i) = X_J X_T (eq. 4.16)
  std::vector<Transform> from_world;   // i_X_0 = i_X_lambda(i) lambda(i)_X_0
  std::vector<Subspace> subspace;      // S_i, link i coordinates
  std::vector<Vec6> velocity;          // v_i = i_X_lambda v_lambda + S_i qd_i (eq. 4.17), link coordinates
};

// Positions only (velocity left empty) when v is empty.
void forward_kinematics(const ArticulatedTree& tree, const VecX& q, const VecX& v, TreeKinematics& out);

// The pose of link i's frame in the world.
Pose link_frame_pose(const TreeKinematics& kin, int i);
// The pose of link i as a pegsim body: origin at its centre of mass, axes the link frame's.
Pose link_body_pose(const ArticulatedTree& tree, const TreeKinematics& kin, int i);
// [v_com; omega] in world coordinates (pegsim's body velocity) from the link's spatial velocity.
Vec6 link_body_velocity(const ArticulatedTree& tree, const TreeKinematics& kin, int i);

// The 6 x nv Jacobian of a point of link i (world coordinates), in pegsim's
// order: rows 0-2 the point's velocity, rows 3-5 the link's angular velocity,
// J v = [v_p; omega]. Columns of joints that do not support link i are zero.
// (The book's 0_X_j S_j per supporting joint j, eq. 4.20's J = [0_X_j S_j],
// shifted from the world origin to the point.)
MatX point_jacobian(const ArticulatedTree& tree, const TreeKinematics& kin, int i, const Vec3& point_world);

// The link's kinetic energy 1/2 (m |v_com|^2 + omega' I_world omega) from its body velocity.
double link_kinetic_energy(const ArticulatedTree& tree, const TreeKinematics& kin, int i);

}  // namespace pegsim::articulated
