// A joint's constraint functions psi and their Jacobian rows G' (thesis eqs.
// 2.10, 2.25-2.28, Table 2.1), with the row definitions of the reading guide
// (shared/notes/joints-and-grasp.md 1.3): each row is the exact gradient of
// its psi, dpsi/dt = G' nu at every pose, not only at zero error.
//
// With A's world axes x_a, y_a, z_a, anchors P_a, P_b and centres u_A, u_B:
//   translation along k in {x_a, y_a, z_a}:  psi = k . (P_a - P_b)
//       row on A [k; (P_b - u_A) x k], on B [-k; -(P_b - u_B) x k]
//     (the A-side lever ends at B's anchor: with k turning with A this is the
//     exact gradient; Table 2.1's lever to P_a is exact only at zero error and
//     breaks angular momentum on sliding joints, guide 1.3 and 5.5)
//   rotation about x_a:  psi = y_a . z_b    (= x_a . (z_b x z_a)),  row [0;  y_a x z_b] on A
//   rotation about y_a:  psi = -x_a . z_b   (= y_a . (z_b x z_a)),  row [0;  z_b x x_a] on A
//   rotation about z_a:  psi = -y_a . x_b   (= z_a . (x_b x x_a)),  row [0;  x_b x y_a] on A
//   universal's cross:   psi = x_a . y_b,                           row [0;  x_a x y_b] on A
// and the rotation rows on B are the negated rows on A. Each rotation psi is,
// to first order, the small angle of A relative to B about that axis; the
// rows on A and B are equal and opposite, so every joint impulse is an
// action-reaction pair (linear and angular momentum conserved).
#pragma once

#include "joints/joint_frames.hpp"
#include "solvers/lcp.hpp"

#include <vector>

namespace pegsim {

struct JointRow {
  JacobianRow row;      // G' of this constraint (w = ja . nu_a + jb . nu_b)
  double error = 0.0;   // psi at the current pose
};

// The bilateral rows of a joint (Table 2.1 and its planar form, joint.hpp),
// appended to `out`.
void bilateral_rows(const JointModel& joint, const JointFrames& frames, Dimension dim, std::vector<JointRow>& out);
// How many there are: 6 - DOF in 3D, 3 - DOF in the plane.
int bilateral_row_count(JointKind kind, Dimension dim);

// The free coordinate's row: G' nu = joint_velocity() (joint_frames.hpp). Its
// impulse p is a torque impulse about z_a (or a force impulse along the slide
// axis) acting +p on B and -p on A.
JacobianRow coordinate_row(const JointModel& joint, const JointFrames& frames, Dimension dim);

// ja . nu_a + jb . nu_b at the frames' velocities.
double row_rate(const JacobianRow& row, const JointFrames& frames);

}  // namespace pegsim
