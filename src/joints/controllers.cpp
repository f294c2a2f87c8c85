#include "joints/controllers.hpp"

#include "joints/joint_frames.hpp"
#include "joints/joint_rows.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numbers>
#include <stdexcept>

namespace pegsim {

void apply_joint_effort(const Model& model, std::size_t joint, double effort, State& state) {
  const JointModel& j = model.joints.at(joint);
  if (joint_coordinate(j.kind) == JointCoordinate::None) return;
  // the coordinate row's columns are the generalized force of a unit effort on each body
  const JacobianRow g = coordinate_row(j, joint_frames(j, model, state), model.options.dimension);
  for (auto [body, col] : {std::pair{g.body_a, g.ja}, std::pair{g.body_b, g.jb}}) {
    if (body == kNoBody) continue;
    state.bodies[body].force += effort * col.head<3>();
    state.bodies[body].torque += effort * col.tail<3>();
  }
}

double joint_position(const Model& model, const State& state, std::size_t joint) {
  const JointModel& j = model.joints.at(joint);
  return joint_position(j, joint_frames(j, model, state), model.options.dimension, state, joint);
}

void update_joint_angles(const Model& model, State& state) {
  const std::size_t nj = model.joints.size();
  state.joint_angles.resize(nj, std::numeric_limits<double>::quiet_NaN());
  constexpr double kTurn = 2.0 * std::numbers::pi;
  for (std::size_t j = 0; j < nj; ++j) {
    const JointModel& joint = model.joints[j];
    if (joint_coordinate(joint.kind) != JointCoordinate::Angle) continue;
    const bool first = !std::isfinite(state.joint_angles[j]);
    double q = joint_position(model, state, j);
    if (first && joint.limit.enabled && !(q >= joint.limit.lower && q <= joint.limit.upper)) {
      // the branch inside the limits, else the one nearest them
      const double up = q + kTurn * std::ceil((joint.limit.lower - q) / kTurn);  // first at or above lower
      const double down = up - kTurn;
      q = up <= joint.limit.upper || up - joint.limit.upper < joint.limit.lower - down ? up : down;
    }
    state.joint_angles[j] = q;
  }
}

double joint_velocity(const Model& model, const State& state, std::size_t joint) {
  const JointModel& j = model.joints.at(joint);
  return joint_velocity(j, joint_frames(j, model, state), model.options.dimension);
}

// A controller on a kinematic tree's joint (PdControllerSpec::tree): a
// revolute or prismatic link of that tree.
static void check_tree_joint(const Model& model, const PdControllerSpec& spec) {
  if (static_cast<std::size_t>(spec.tree) >= model.trees.size())
    throw std::invalid_argument("controller tree index " + std::to_string(spec.tree) + " out of range");
  const articulated::ArticulatedTree& tree = model.trees[spec.tree].tree;
  if (spec.joint < 0 || spec.joint >= tree.link_count())
    throw std::invalid_argument("controller link index " + std::to_string(spec.joint) + " out of range");
  if (tree.link(spec.joint).nv() != 1)
    throw std::invalid_argument("a " + std::string(articulated::to_string(tree.link(spec.joint).joint)) +
                                " joint has no coordinate to control");
}

PdController::PdController(const Model& model, PdControllerSpec spec) : spec_(std::move(spec)) {
  if (spec_.tree >= 0) check_tree_joint(model, spec_);
  else if (spec_.joint < 0 || static_cast<std::size_t>(spec_.joint) >= model.joints.size())
    throw std::invalid_argument("controller joint index " + std::to_string(spec_.joint) + " out of range");
  if (spec_.tree < 0 && joint_coordinate(model.joints[spec_.joint].kind) == JointCoordinate::None)
    throw std::invalid_argument("a " + std::string(to_string(model.joints[spec_.joint].kind)) +
                                " joint has no coordinate to control");
  const ControlTarget& t = spec_.target;
  if (t.kind == ControlTarget::Kind::Table) {
    if (t.times.empty() || t.times.size() != t.values.size())
      throw std::invalid_argument("a target table needs as many times as values, at least one");
    for (std::size_t i = 1; i < t.times.size(); ++i)
      if (!(t.times[i] > t.times[i - 1])) throw std::invalid_argument("target table times must increase");
  }
  if (t.kind == ControlTarget::Kind::Expression) expression_ = TargetExpression::parse(t.expression);
  if (!(spec_.torque_limit >= 0.0)) throw std::invalid_argument("torque_limit must be >= 0");
}

double PdController::target(double time, long step, double h) const {
  const ControlTarget& t = spec_.target;
  switch (t.kind) {
    case ControlTarget::Kind::Constant: return t.value;
    case ControlTarget::Kind::Sine: return t.offset + t.amplitude * std::sin(t.omega * time + t.phase);
    case ControlTarget::Kind::Expression: return expression_->evaluate(time, step, h);
    case ControlTarget::Kind::Table: {
      if (time <= t.times.front()) return t.values.front();
      if (time >= t.times.back()) return t.values.back();
      const auto it = std::upper_bound(t.times.begin(), t.times.end(), time);
      const std::size_t i = static_cast<std::size_t>(it - t.times.begin());
      const double s = (time - t.times[i - 1]) / (t.times[i] - t.times[i - 1]);
      return t.values[i - 1] + s * (t.values[i] - t.values[i - 1]);
    }
  }
  return 0.0;
}

void PdController::before_step(const Model& model, State& state) {
  const double h = model.options.h;
  const articulated::Link* link = spec_.tree >= 0 ? &model.trees[spec_.tree].tree.link(spec_.joint) : nullptr;
  const double q = link ? state.trees[spec_.tree].q(link->q_index) : joint_position(model, state, spec_.joint);
  const double qdot = link ? state.trees[spec_.tree].v(link->v_index) : joint_velocity(model, state, spec_.joint);
  const double qd = target(state.time, state.step, h);
  double tau = spec_.kp * (qd - q);
  if (spec_.derivative_on_error) {
    // the target's rate by a backward difference over one step
    const double qd_rate = (qd - target(state.time - h, state.step - 1, h)) / h;
    tau += spec_.kd * (qd_rate - qdot);
  } else {
    tau -= spec_.kd * qdot;
  }
  tau = std::clamp(tau, -spec_.torque_limit, spec_.torque_limit);
  last_effort_ = tau;
  if (link) state.trees[spec_.tree].tau(link->v_index) += tau;
  else apply_joint_effort(model, spec_.joint, tau, state);
}

}  // namespace pegsim
