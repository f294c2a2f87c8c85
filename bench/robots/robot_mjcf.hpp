// A pegsim Model with kinematic trees (scenes' robots:) as MuJoCo 2.2 MJCF text,
// for the robot benchmark (robot_bench.cpp). Each tree link is a body nested in
// its parent's, placed by its joint frame (X_T: MJCF pos and quat), with its
// joint there (revolute: hinge, prismatic: slide, about the link's axis; fixed:
// none; limits as MJCF ranges), its inertial (centre of mass, mass, full
// inertia) and its collision shape as geoms in the link frame (a polyhedron:
// a mesh of its vertices, which MuJoCo hulls,
// or MuJoCo's box when it is an axis-aligned box centred on the frame; a sphere or a cylinder: MuJoCo's
// own, whose axis is z as ours; a compound: one geom a part). Loose dynamic
// bodies get a free joint, static half-spaces a plane, other static bodies
// world geoms. As in pegsim, a robot's links do not collide with each other:
// link geoms have contype 2, conaffinity 1, every other geom contype 1,
// conaffinity 3. Friction: the model's default pair's mu on every geom
// (condim 3, MuJoCo's pyramidal cone); MuJoCo's soft-contact defaults.
// Maximal-coordinate joints that form a tree (revolute, prismatic; each body
// the body B of at most one, its A the world or a dynamic body) become nested
// bodies with a hinge or slide named as the joint (robot_mjcf.cpp).
// Throws std::invalid_argument for what it does not write: spherical or
// floating tree joints, other joint kinds, joints in a loop, cones, capsules,
// 2D scenes.
#pragma once

#include "sim/model.hpp"
#include "sim/state.hpp"

#include <string>

namespace pegsim::bench {

// Body names: link i of tree t is "t<t>_<i>" (its joint the same name), loose
// body b is "b<b>".
std::string robot_mjcf(const Model& model, const State& state);

}  // namespace pegsim::bench
