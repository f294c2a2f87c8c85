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
};

}  // namespace pegsim
