// The state: what stepping changes. Cheap to copy, so two copies can be stepped
// side by side (determinism tests) or saved and restored.
#pragma once

#include "articulated/tree_model.hpp"
#include "math/pose.hpp"
#include "math/types.hpp"

#include <vector>

namespace pegsim {

struct BodyState {
  Pose pose;  // planar bodies: a rotation about z only; their angle is planar_angle(pose)
  Vec3 linear_velocity = Vec3::Zero();   // of the centre of mass, world frame
  Vec3 angular_velocity = Vec3::Zero();  // world frame
  Vec3 force = Vec3::Zero();   // external force applied this step (cleared after each step)
  Vec3 torque = Vec3::Zero();  // external torque about the centre of mass, world frame
};

struct State {
  double time = 0.0;
  long step = 0;
  std::vector<BodyState> bodies;
  std::vector<TreeState> trees;  // per Model::trees: q, v and applied joint forces
  // Per Model::joints: an angle joint's coordinate (revolute, cylindrical,
  // planar revolute) unwrapped, as World last left it (after its construction
  // and after each step): the measured angle, in (-pi, pi], is read on the
  // branch nearest it (joints/joint_frames.hpp unwrap_angle), so a wheel's
  // angle counts its turns and limits and targets may lie beyond pi. NaN or
  // missing: no reference yet (the measured angle). Unused for other joints.
  std::vector<double> joint_angles;
};

}  // namespace pegsim
