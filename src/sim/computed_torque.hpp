// A computed-torque controller for a kinematic tree (inverse-dynamics
// feedforward plus PD feedback; e.g. Siciliano et al., "Robotics: Modelling,
// Planning and Control", 2009, eq. 8.57; Featherstone 2008, section 5.1 for
// the inverse dynamics):
//
//   tau = M(q) (qdd_d + kp (q_d - q) + kd (qd_d - qd)) + C(q, qd)
//
// with M by CRBA and C (Coriolis, centrifugal, gravity) by RNEA. With an exact
// model and no contact the closed loop is e'' + kd e' + kp e = 0 per joint.
// The desired trajectory is a callback of time giving q_d, qd_d, qdd_d (v-sized
// for qd_d and qdd_d; q_d of size nq). Runs at the start of each step like the
// PD controllers (joints/controllers.hpp) and adds to TreeState::tau.
#pragma once

#include "joints/controllers.hpp"

#include <functional>

namespace pegsim {

struct DesiredMotion {
  VecX q, qd, qdd;
};

// One 1-dof joint (coordinate q_index, rate v_index) on q_d = a sin(omega t):
// qd_d = a omega cos(omega t), qdd_d = -a omega^2 sin(omega t). (Reference
// 000's arm: the shoulder's yaw and pitch on sin(t)/4 and sin(2t)/4.)
void set_sinusoid(DesiredMotion& d, int q_index, int v_index, double amplitude, double omega, double t);

class ComputedTorqueController final : public JointController {
 public:
  using Trajectory = std::function<DesiredMotion(double t)>;
  // Throws std::invalid_argument when the tree index is out of range or a gain is negative.
  ComputedTorqueController(const Model& model, int tree, double kp, double kd, Trajectory trajectory);
  void before_step(const Model& model, State& state) override;
  const VecX& last_torque() const { return last_; }

 private:
  int tree_;
  double kp_, kd_;
  Trajectory trajectory_;
  VecX last_;
};

// q_d - q on a tree's configuration space: angles and displacements subtract;
// a quaternion's error is the rotation vector of Q^-1 Q_d (child frame), so
// the result has v's size.
VecX configuration_error(const articulated::ArticulatedTree& tree, const VecX& q_desired, const VecX& q);

}  // namespace pegsim
