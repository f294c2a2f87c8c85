// What a PD controller on a joint's free coordinate is configured with (scene
// files' `controllers:`, or code). The running controller is in
// joints/controllers.hpp; the world runs Model::controllers at the start of
// every step, on the state at that step's start (guide 2.3).
#pragma once

#include <limits>
#include <string>
#include <vector>

namespace pegsim {

// The target q_d(t) of a controller.
struct ControlTarget {
  enum class Kind : unsigned char { Constant, Table, Sine, Expression };
  Kind kind = Kind::Constant;
  double value = 0.0;                        // Constant
  std::vector<double> times, values;         // Table: piecewise linear, held beyond its ends; times ascending
  double amplitude = 0.0, omega = 0.0, phase = 0.0, offset = 0.0;  // Sine: offset + amplitude sin(omega t + phase)
  std::string expression;                    // Expression of t, step and h (joints/target_expression.hpp)
};

// tau = kp (q_d - q) + kd (qdot_d - qdot) on the error, or kp (q_d - q) - kd
// qdot on the measurement (the default: no kick when the target jumps),
// clamped to +-torque_limit; applied as an equal and opposite torque about the
// joint's z (force along its slide axis) on its two bodies.
struct PdControllerSpec {
  int joint = -1;  // index into Model::joints; with tree >= 0: the link of Model::trees[tree] whose joint is driven
  int tree = -1;   // >= 0: a 1-dof joint (revolute, prismatic) of a kinematic tree, its effort added to TreeState::tau
  double kp = 0.0, kd = 0.0;
  ControlTarget target;
  double torque_limit = std::numeric_limits<double>::infinity();
  bool derivative_on_error = false;
};

}  // namespace pegsim
