// URDF import (Debian's liburdfdom: the ROS robot description format) into a
// kinematic tree (articulated/tree.hpp) with one collision shape per link.
//
//   URDF                              pegsim
//   link inertial (origin, mass, I)   Link::com, mass, inertia (rotated into the link frame)
//   joint origin                      Link::joint_placement (parent link frame -> joint frame)
//   revolute / continuous             Revolute (limits: lower, upper; continuous: none)
//   prismatic                         Prismatic (limits)
//   fixed                             Fixed
//   floating                          Floating
//   planar                            two Prismatic + one Revolute joints through two
//                                     massless links "<joint>/x", "<joint>/y" (no collision)
//   dynamics damping, friction        Link::damping (implicit, sim/tree_stepping.hpp), Link::friction
//   collision box                     its 8 corners at the collision origin, hulled
//   collision sphere                  the true sphere (geometry/curved.hpp) when it is the
//                                     link's only collision element
//   collision cylinder                the true cylinder when it is the only element and its
//                                     axis (the collision frame's z) is the link's z
//   other spheres, cylinders          a fine polytope (hull of 12 x 24 sphere points, 32-gon
//                                     prism), counted in UrdfRobot::approximated with a warning
//                                     (a compound's parts are polytopes; a curved shape's axis
//                                     is its body's z)
//   collision mesh                    each mesh of the file (STL, DAE, OBJ, ... through
//                                     Debian's libassimp, io/mesh_hull.hpp) as the convex
//                                     hull of its vertices, scaled; a path relative to the
//                                     URDF file's folder or file://; package:// is an error
// Several collision elements on a link become a compound (at most
// kMaxCompoundParts). A link without collision geometry does not collide.
// The root link is attached to the world at `base` by a fixed joint
// (fixed_base) or a floating one.
//
// Errors: std::runtime_error "FILE: link 'name': what" / "FILE: joint 'name':
// what", or urdfdom's own parse messages after "FILE: ".
#pragma once

#include "articulated/tree.hpp"
#include "geometry/shape.hpp"
#include "math/pose.hpp"

#include <string>
#include <vector>

namespace pegsim {

struct UrdfOptions {
  bool fixed_base = true;
  Pose base;  // where the root link's frame is put in the world
};

struct UrdfRobot {
  std::string name;
  articulated::ArticulatedTree tree;
  std::vector<Shape> shapes;    // per link, in its centre-of-mass frame (a marker box when it has none)
  std::vector<char> collides;   // per link: has collision geometry
  int approximated = 0;         // spheres and cylinders made polytopes
  std::vector<std::string> warnings;
};

UrdfRobot load_urdf_file(const std::string& path, const UrdfOptions& options = {});
UrdfRobot load_urdf_string(const std::string& xml, const std::string& source, const UrdfOptions& options = {});

}  // namespace pegsim
