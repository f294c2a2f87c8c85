// A joint's frames in the world, making a joint from world data, and its free
// coordinate (angle or slide) with its rate.
#pragma once

#include "joints/joint.hpp"
#include "sim/model.hpp"
#include "sim/state.hpp"

#include <optional>

namespace pegsim {

// Both joint frames in world coordinates at the current state (thesis Fig. 2.1).
struct JointFrames {
  Vec3 pa, pb;                          // anchors P_a, P_b
  Mat3 axes_a, axes_b;                  // columns x, y, z of each frame
  Vec3 ua = Vec3::Zero(), ub = Vec3::Zero();  // centres of mass (the world end: its anchor)
  Vec6 nu_a = Vec6::Zero(), nu_b = Vec6::Zero();  // [v; w] of each end (0 for world or static)
  // the LCP's body of each end: kNoBody for the world or a static body (neither moves)
  std::uint32_t body_a = kWorldBody, body_b = kWorldBody;
};
JointFrames joint_frames(const JointModel& joint, const Model& model, const State& state);

// What a scene or a program gives for a joint: world anchor and axes at the
// current (initial) pose.
struct JointSpec {
  std::string name;
  JointKind kind = JointKind::Revolute;
  std::uint32_t body_a = kWorldBody, body_b = kWorldBody;
  Vec3 anchor = Vec3::Zero();
  // 3D: the joint's z (the hinge or slide axis); planar: the in-plane slide axis
  // of prismatic and cylindrical joints (the joint's x), ignored by the others
  Vec3 axis = Vec3::UnitZ();
  // 3D, optional: the joint's x, projected perpendicular to z; without it the
  // frame is the shortest-arc rotation of the world z onto the axis (RPIsim's
  // rule; a rotation of pi about world x for an axis along -z)
  std::optional<Vec3> x_axis;
};

// The joint with both frames stored in body coordinates (rho = R^T (anchor -
// u), F = R^T [x y z]), coincident at the state's poses. Limits, motor,
// friction, damping and collide stay at their defaults. Throws
// std::invalid_argument on a bad spec: a body index out of range, one body at
// both ends, two ends that cannot move (world or static), a zero or
// non-finite axis, an x_axis along z, a kind that planar scenes lack.
JointModel make_joint(const JointSpec& spec, const Model& model, const State& state);

// The free coordinate: the angle of B's x about A's z relative to A's x,
// atan2(z_a . (x_a x x_b), x_a . x_b) in (-pi, pi]; or the slide s = k . (P_b
// - P_a) along A's slide axis k (3D: z_a; planar: x_a). 0 for kinds without one.
double joint_position(const JointModel& joint, const JointFrames& frames, Dimension dim);
// The same with an angle on the branch of State::joint_angles[index]
// (unwrap_angle): the coordinate every limit, controller, recording and
// Python call reads.
double joint_position(const JointModel& joint, const JointFrames& frames, Dimension dim, const State& state,
                      std::size_t index);
// measured + 2 pi k for the k that puts it nearest `reference` (the unwrapped
// angle a step earlier: a step turns a joint by less than pi, 628 rad/s at
// h = 0.005); `measured` itself when the reference is not finite.
double unwrap_angle(double measured, double reference);
// Its exact time derivative: z_a . (w_B - w_A), or d/dt [k . (P_b - P_a)].
double joint_velocity(const JointModel& joint, const JointFrames& frames, Dimension dim);
// The column of the frame that is the slide axis (3D: 2 for z; planar: 0 for x).
int slide_axis_column(Dimension dim);

}  // namespace pegsim
