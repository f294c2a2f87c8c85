#include "sim/computed_torque.hpp"

#include "articulated/dynamics.hpp"

#include <cmath>

#include <stdexcept>

namespace pegsim {

VecX configuration_error(const articulated::ArticulatedTree& tree, const VecX& q_desired, const VecX& q) {
  VecX e = VecX::Zero(tree.nv());
  for (const articulated::Link& l : tree.links()) {
    const int i = l.q_index, k = l.v_index;
    auto rotation_error = [&](int at) {
      const Quat a(q(at), q(at + 1), q(at + 2), q(at + 3)), b(q_desired(at), q_desired(at + 1), q_desired(at + 2), q_desired(at + 3));
      const Eigen::AngleAxisd d(a.normalized().conjugate() * b.normalized());
      return Vec3(d.angle() * d.axis());
    };
    switch (l.joint) {
      case articulated::JointKind::Revolute:
      case articulated::JointKind::Prismatic: e(k) = q_desired(i) - q(i); break;
      case articulated::JointKind::Fixed: break;
      case articulated::JointKind::Spherical: e.segment<3>(k) = rotation_error(i); break;
      case articulated::JointKind::Floating: {
        const Quat Q(q(i + 3), q(i + 4), q(i + 5), q(i + 6));
        e.segment<3>(k) = rotation_error(i + 3);
        e.segment<3>(k + 3) = Q.normalized().conjugate() * Vec3(q_desired.segment<3>(i) - q.segment<3>(i));
        break;
      }
    }
  }
  return e;
}

void set_sinusoid(DesiredMotion& d, int q_index, int v_index, double amplitude, double omega, double t) {
  d.q(q_index) = amplitude * std::sin(omega * t);
  d.qd(v_index) = amplitude * omega * std::cos(omega * t);
  d.qdd(v_index) = -amplitude * omega * omega * std::sin(omega * t);
}

ComputedTorqueController::ComputedTorqueController(const Model& model, int tree, double kp, double kd,
                                                   Trajectory trajectory)
    : tree_(tree), kp_(kp), kd_(kd), trajectory_(std::move(trajectory)) {
  if (tree < 0 || static_cast<std::size_t>(tree) >= model.trees.size())
    throw std::invalid_argument("computed-torque controller: tree index " + std::to_string(tree) + " out of range");
  if (!(kp >= 0.0) || !(kd >= 0.0)) throw std::invalid_argument("computed-torque controller: gains must be >= 0");
  if (!trajectory_) throw std::invalid_argument("computed-torque controller: no trajectory");
}

void ComputedTorqueController::before_step(const Model& model, State& state) {
  const articulated::ArticulatedTree& tree = model.trees[tree_].tree;
  TreeState& ts = state.trees[tree_];
  const DesiredMotion d = trajectory_(state.time);
  if (d.q.size() != tree.nq() || d.qd.size() != tree.nv() || d.qdd.size() != tree.nv())
    throw std::invalid_argument("computed-torque controller: the trajectory's sizes do not match the tree");
  const VecX a = d.qdd + kp_ * configuration_error(tree, d.q, ts.q) + kd_ * (d.qd - ts.v);
  last_ = articulated::inverse_dynamics(tree, ts.q, ts.v, a, model.options.gravity);  // M a + C (RNEA)
  ts.tau += last_;
}

}  // namespace pegsim
