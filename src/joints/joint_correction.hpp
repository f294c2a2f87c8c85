// Joint errors and their correction after the step (thesis 2.4.2, Algorithm 1).
//
// The error of a joint is its bilateral rows' psi (joint_rows.hpp), the
// velocity error their G' nu; each is reported as its Euclidean norm per
// joint, the largest over the joints (the thesis's norm(C) and norm(C dot)).
//
// Algorithm 1, over all joints together (the thesis's global norm):
//   while max_j ||C_j|| > eps_p:                 (position)
//     p = -(G' M^-1 G)^-1 C / h,  dnu = M^-1 G p,  q += V dnu h,  nu += dnu
//     G and C recomputed at the corrected q (guide 5.9: "G^(l+1) <- G^(l)"
//     read as the rebuild the RPIsim code does)
//   while max_j ||G' nu||_j > eps_v:             (velocity)
//     p = -(G' M^-1 G)^-1 G' nu,  nu += M^-1 G p
// each loop capped at JointOptions::correction_iterations (the thesis gives no
// cap). The correction ignores contact (the thesis's stated weakness, l.824).
// The position step uses the exact-gradient rows of joint_rows.hpp (the same
// rows as the step), where the thesis's Table 2.2 uses a separate set with
// levers to tip points; both vanish on the same set of poses.
#pragma once

#include "sim/model.hpp"
#include "sim/state.hpp"

namespace pegsim {

struct JointErrors {
  double position = 0.0;  // max_j ||psi_j||
  double velocity = 0.0;  // max_j ||G_j' nu||
};
JointErrors measure_joint_errors(const Model& model, const State& state);

struct JointCorrection {
  JointErrors before, after;
  int position_iterations = 0, velocity_iterations = 0;
};

// Algorithm 1 on `state` (poses and velocities), with the model's JointOptions.
JointCorrection correct_joints(const Model& model, State& state);

}  // namespace pegsim
