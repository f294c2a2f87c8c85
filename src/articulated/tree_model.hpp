// A kinematic tree as a participant of a pegsim Model and State.
//
// Each link is also a Model body (Model::bodies[link_body[i]]: its collision
// shape, mass and inertia), so the broadphase, narrowphase, contact models,
// recordings and the viewer see links like loose bodies. The link body's frame
// is the link's centre-of-mass frame: origin at Link::com, axes the link
// frame's; its shape is given in that frame. Its pose and velocity in State
// follow the tree's q and v (sim/tree_stepping.hpp keeps them in sync); the
// tree's generalized coordinates are the source of truth. PD controllers on
// its 1-dof joints are Model::controllers entries with PdControllerSpec::tree
// set (joints/controller_spec.hpp).
#pragma once

#include "articulated/tree.hpp"

#include <cstdint>
#include <string>
#include <vector>

namespace pegsim {

struct TreeModel {
  std::string name;
  articulated::ArticulatedTree tree;
  std::vector<std::uint32_t> link_body;  // per link: its body index in Model::bodies
  // per link: 0 when it has no collision geometry (its body's shape is a
  // marker for drawing and never collides); empty: every link collides
  std::vector<char> link_collides;
};

struct TreeState {
  VecX q, v;
  VecX tau;  // applied joint forces for the coming step (N m, N); cleared after every step
};

}  // namespace pegsim
