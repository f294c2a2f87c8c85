// Joint controllers: code that sets joint torques (forces) from the state at
// the start of each step, before the step is taken (guide 2.3: the torques
// act over step l -> l + 1; RPIsim's userFunction runs at the same point).
//
// A JointController is the C++ hook (World::add_controller); PdController
// runs a PdControllerSpec (joints/controller_spec.hpp), the scene's
// `controllers:` entries, which the world builds from Model::controllers.
#pragma once

#include "joints/controller_spec.hpp"
#include "joints/target_expression.hpp"
#include "sim/model.hpp"
#include "sim/state.hpp"

#include <optional>

namespace pegsim {

class JointController {
 public:
  virtual ~JointController() = default;
  // Sets forces and torques on `state` (BodyState::force, torque; cleared after
  // every step) for the step about to be taken from it.
  virtual void before_step(const Model& model, State& state) = 0;
};

// Adds a joint effort to its bodies' external forces: a torque `effort` about
// A's z (revolute, cylindrical) or a force along the slide axis at P_b
// (prismatic), +effort on B and -effort on A (an action-reaction pair, guide
// 2.1: one axis for both ends). Kinds without a coordinate: no effect.
void apply_joint_effort(const Model& model, std::size_t joint, double effort, State& state);

// The free coordinate and its rate (joint_frames.hpp) of model.joints[joint].
// Unwrapped for angle joints (State::joint_angles).
double joint_position(const Model& model, const State& state, std::size_t joint);
double joint_velocity(const Model& model, const State& state, std::size_t joint);
// Sets State::joint_angles to each angle joint's unwrapped angle: World calls
// it when built and after each step. The first time (no reference), a
// limited joint's angle goes on the branch inside its limits, or the one
// nearest them (a hinge built at 3.5 rad with limits [3, 4] is at 3.5, not at
// its measured -2.78).
void update_joint_angles(const Model& model, State& state);

class PdController final : public JointController {
 public:
  // Throws std::invalid_argument on a bad spec (joint out of range or without
  // a coordinate, a table not ascending, an expression that does not parse).
  PdController(const Model& model, PdControllerSpec spec);
  void before_step(const Model& model, State& state) override;
  const PdControllerSpec& spec() const { return spec_; }
  double target(double t, long step, double h) const;
  double last_effort() const { return last_effort_; }  // the torque or force set by the last call

 private:
  PdControllerSpec spec_;
  std::optional<TargetExpression> expression_;
  double last_effort_ = 0.0;
};

}  // namespace pegsim
