// robots: (docs/scene-format.md, "robots"): URDF files (io/urdf.hpp) placed in
// the scene as kinematic trees (sim/tree_stepping.hpp).
#include "io/scene_limits.hpp"
#include "io/scene_parts.hpp"
#include "io/urdf.hpp"
#include "sim/tree_stepping.hpp"

#include <filesystem>
#include <iostream>
#include <set>

namespace pegsim::scene_detail {

// The link whose joint is named `name` (URDF joint names), -1: none.
int find_tree_joint(const articulated::ArticulatedTree& tree, const std::string& name) {
  for (int i = 0; i < tree.link_count(); ++i)
    if (tree.link(i).joint_name == name) return i;
  return -1;
}

// The link of robot `name`'s 1-dof joint `joint` (revolute, continuous or
// prismatic: one entry of q and of v); `value` fails, naming the field, otherwise.
int single_coordinate_link(const articulated::ArticulatedTree& tree, const std::string& name, const std::string& joint,
                           const Field& value) {
  const int link = find_tree_joint(tree, joint);
  if (link < 0) value.fail("robot '" + name + "' has no joint '" + joint + "'");
  if (tree.link(link).nq() != 1 || tree.link(link).nv() != 1)
    value.fail("joint '" + joint + "' has no single coordinate to set");
  return link;
}

// The tree's initial v: joint_velocities of 1-dof joints (rad/s, m/s), and for
// a floating base its root's velocity and angular_velocity (world frame; the
// velocity is that of the root link's frame origin, the robot's `position`),
// turned into the floating joint's [omega; v] in the root's frame
// (articulated/tree.hpp), which at the start is the base orientation.
VecX initial_velocity(const Field& f, const std::string& name, const articulated::ArticulatedTree& tree,
                      const UrdfOptions& options) {
  VecX v = VecX::Zero(tree.nv());
  if (const Field rates = f["joint_velocities"]; rates.present())
    for (const auto& [joint, value] : rates.entries("joint"))
      v(tree.link(single_coordinate_link(tree, name, joint, value)).v_index) =
          within(value, value.number(), scene_limits::kMaxSpeed, "rad/s or m/s");
  const Mat3 Rt = options.base.orientation.toRotationMatrix().transpose();
  const char* fixed = "a fixed base does not move; give fixed_base: false for a floating base";
  if (const Field w = f["angular_velocity"]; w.present()) {
    if (options.fixed_base) w.fail(fixed);
    v.segment<3>(tree.link(0).v_index) = Rt * within(w, w.vec3(), scene_limits::kMaxAngularSpeed, "rad/s");
  }
  if (const Field lin = f["velocity"]; lin.present()) {
    if (options.fixed_base) lin.fail(fixed);
    v.segment<3>(tree.link(0).v_index + 3) = Rt * within(lin, lin.vec3(), scene_limits::kMaxSpeed, "m/s");
  }
  return v;
}

void parse_robots(const Field& robots, Model& model, State& state) {
  if (!robots.present()) return;
  std::set<std::string> names;
  const std::filesystem::path folder = std::filesystem::path(robots.source()).parent_path();
  for (const Field& f : robots.items()) {
    f.expect_keys({"name", "urdf", "position", "orientation", "fixed_base", "material", "joints", "joint_velocities",
                   "velocity", "angular_velocity"});
    const Field name_field = f.require("name");
    const std::string name = name_field.text();
    if (!names.insert(name).second) name_field.fail("robot '" + name + "' is defined twice");
    UrdfOptions options;
    if (const Field p = f["position"]; p.present()) options.base.position = within(p, p.vec3(), scene_limits::kMaxLength, "m");
    if (const Field o = f["orientation"]; o.present()) options.base.orientation = parse_orientation(o);
    if (const Field b = f["fixed_base"]; b.present()) options.fixed_base = b.boolean();
    const Field file = f.require("urdf");
    std::filesystem::path path = file.text();
    if (path.is_relative() && robots.source().front() != '<') path = folder / path;
    UrdfRobot robot;
    try {
      robot = load_urdf_file(path.string(), options);
    } catch (const std::exception& e) {
      file.fail(e.what());
    }
    if (robot.approximated > 0)
      std::cerr << "warning: " << path.string() << ": " << robot.approximated
                << " sphere/cylinder collision shapes approximated by polytopes\n";
    MaterialId material;
    if (const Field m = f["material"]; m.present()) material = find_material(m, model);
    VecX q = robot.tree.neutral_configuration();
    if (const Field joints = f["joints"]; joints.present())
      for (const auto& [joint, value] : joints.entries("joint")) {
        q(robot.tree.link(single_coordinate_link(robot.tree, name, joint, value)).q_index) = value.number();
      }
    const VecX v = initial_velocity(f, name, robot.tree, options);
    try {
      add_tree(model, state, name, std::move(robot.tree), robot.shapes, q, v, material, std::move(robot.collides));
    } catch (const std::invalid_argument& e) {
      file.fail(e.what());
    }
  }
}

}  // namespace pegsim::scene_detail
