// joints: and controllers: (docs/scene-format.md, "joints", "controllers").
//
// A joint names its two ends by body name (or `world`), its kind from the
// joint registry (joints/joint.hpp), and its anchor and axes at the initial
// pose: in world coordinates, or with `frame: a` / `frame: b` in the frame the
// scene gave that body's shape in.
#include "io/scene_limits.hpp"
#include "io/scene_parts.hpp"

#include "joints/controllers.hpp"
#include "joints/joint_frames.hpp"

#include <cmath>
#include <exception>
#include <map>
#include <numbers>

namespace pegsim::scene_detail {

namespace {

std::uint32_t find_end(const Field& f, const Model& model) {
  const std::string name = f.text();
  if (name == "world") return kWorldBody;
  for (std::size_t i = 0; i < model.bodies.size(); ++i)
    if (model.bodies[i].name == name) return static_cast<std::uint32_t>(i);
  f.fail("unknown body '" + name + "' (a body's name, or world)");
}

// a point or direction given in `frame` (world, or a body's shape frame) to world
Vec3 to_world(const Vec3& v, bool point, std::uint32_t body, const std::vector<Vec3>& origins, const State& state) {
  if (body == kWorldBody) return v;
  const Pose& pose = state.bodies[body].pose;
  return point ? pose.to_world(v + origins[body]) : pose.rotate(v);
}

void parse_joint(const Field& f, std::size_t index, const std::vector<Vec3>& origins, Model& model, const State& state,
                 std::map<std::string, int>& name_lines) {
  const bool planar = model.options.dimension == Dimension::Planar;
  f.expect_keys({"name", "type", "bodies", "anchor", "axis", "x_axis", "frame", "collide", "limit", "motor",
                 "friction", "damping"});
  JointSpec spec;
  const Field name = f["name"];
  spec.name = name.present() ? name.text() : "joint" + std::to_string(index);
  if (auto [it, fresh] = name_lines.emplace(spec.name, f.line()); !fresh)
    (name.present() ? name : f)
        .fail("duplicate joint name '" + spec.name + "' (first used at line " + std::to_string(it->second + 1) + ")");
  const Field type = f.require("type");
  parse_joint_kind(type.choice(joint_kind_names_and_aliases()), spec.kind);
  if (planar && !joint_kind_in_plane(spec.kind)) type.fail("a " + type.text() + " joint has no planar form");

  const Field bodies = f.require("bodies");
  const auto ends = bodies.items(2);
  spec.body_a = find_end(ends[0], model);
  spec.body_b = find_end(ends[1], model);
  if (spec.body_a == spec.body_b) bodies.fail("a joint needs two different ends");
  auto moves = [&](std::uint32_t b) { return b != kWorldBody && !model.bodies[b].is_static; };
  if (!moves(spec.body_a) && !moves(spec.body_b))
    bodies.fail("both ends are the world or static bodies: the joint could never act");
  for (const std::uint32_t b : {spec.body_a, spec.body_b})
    if (b != kWorldBody && model.bodies[b].is_kinematic)
      bodies.fail("a joint to kinematic body '" + model.bodies[b].name +
                  "' is not supported yet (its rows would not see the body's prescribed velocity)");

  // the frame anchor and axes are given in
  std::uint32_t frame = kWorldBody;
  if (const Field fr = f["frame"]; fr.present()) {
    const std::string which = fr.choice({"world", "a", "b"});
    frame = which == "a" ? spec.body_a : which == "b" ? spec.body_b : kWorldBody;
    if (which != "world" && frame == kWorldBody) fr.fail("that end is the world: give frame: world");
  }
  auto point_or_vector = [&](const Field& p) { return planar ? lift(p.vec2()) : p.vec3(); };
  const Field anchor = f.require("anchor");
  spec.anchor = to_world(within(anchor, point_or_vector(anchor), scene_limits::kMaxLength, "m"), true, frame, origins,
                         state);
  const bool needs_axis = !planar || joint_coordinate(spec.kind) == JointCoordinate::Slide ||
                          spec.kind == JointKind::Cylindrical;
  const bool uses_axis = needs_axis && spec.kind != JointKind::Spherical;
  if (const Field a = f["axis"]; a.present()) {
    if (!uses_axis) a.fail("a " + type.text() + " joint " + (planar ? "in a 2D scene " : "") + "has no axis; remove it");
    const Vec3 axis = to_world(point_or_vector(a), false, frame, origins, state);
    if (!(axis.norm() > 1e-12)) a.fail("the axis must not be the zero vector");
    spec.axis = axis;
  } else if (uses_axis && spec.kind != JointKind::Fixed) {
    f.fail("required field is missing: axis (the joint's " + std::string(planar ? "slide axis" : "z axis") + ")");
  }
  if (const Field x = f["x_axis"]; x.present()) {
    if (planar) x.fail("3D field in a 2D scene: a planar joint's z is the world z");
    spec.x_axis = to_world(x.vec3(), false, frame, origins, state);
  }
  JointModel joint;
  try {
    joint = make_joint(spec, model, state);
  } catch (const std::exception& e) {
    f.fail(e.what());
  }

  if (const Field c = f["collide"]; c.present()) joint.collide = c.boolean();
  const bool has_coordinate = joint_coordinate(joint.kind) != JointCoordinate::None;
  auto coordinate_only = [&](const Field& g) {
    if (!has_coordinate) g.fail("a " + type.text() + " joint has no free coordinate to limit, drive or brake");
  };
  if (const Field l = f["limit"]; l.present()) {
    coordinate_only(l);
    const auto bounds = l.items(2);
    joint.limit.enabled = true;
    joint.limit.lower = bounds[0].number();
    joint.limit.upper = bounds[1].number();
    if (!(joint.limit.lower <= joint.limit.upper)) l.fail("needs lower <= upper");
  }
  if (const Field m = f["motor"]; m.present()) {
    coordinate_only(m);
    m.expect_keys({"velocity", "max_force"});
    joint.motor.enabled = true;
    joint.motor.velocity = m.require("velocity").number();
    joint.motor.max_force = m.require("max_force").non_negative();
  }
  if (const Field fr = f["friction"]; fr.present()) {
    coordinate_only(fr);
    joint.friction = fr.non_negative();
  }
  if (const Field d = f["damping"]; d.present()) {
    coordinate_only(d);
    joint.damping = d.non_negative();
  }
  model.joints.push_back(std::move(joint));
}

ControlTarget parse_target(const Field& f) {
  ControlTarget t;
  if (f.is_scalar()) {
    t.value = f.number();
    return t;
  }
  if (!f.is_map() || f.entries().size() != 1)
    f.fail("expected a number or a map with one key: table, sine or expression");
  const auto [kind, value] = f.entries().front();
  if (kind == "table") {
    t.kind = ControlTarget::Kind::Table;
    const auto rows = value.items();
    if (rows.empty()) value.fail("a table needs at least one [time, value] row");
    for (const Field& row : rows) {
      const auto tv = row.numbers(2);
      if (!t.times.empty() && !(tv[0] > t.times.back())) row.fail("table times must increase");
      t.times.push_back(tv[0]);
      t.values.push_back(tv[1]);
    }
  } else if (kind == "sine") {
    t.kind = ControlTarget::Kind::Sine;
    value.expect_keys({"amplitude", "omega", "phase", "offset"});
    t.amplitude = value.require("amplitude").number();
    t.omega = value.require("omega").number();
    if (const Field p = value["phase"]; p.present()) t.phase = p.number();
    if (const Field o = value["offset"]; o.present()) t.offset = o.number();
  } else if (kind == "expression") {
    t.kind = ControlTarget::Kind::Expression;
    t.expression = value.text();
    try {
      (void)TargetExpression::parse(t.expression);
    } catch (const std::exception& e) {
      value.fail(std::string("cannot parse the expression: ") + e.what());
    }
  } else {
    f.fail("unknown target kind '" + kind + "' (expected table, sine or expression)");
  }
  return t;
}

}  // namespace

void parse_joints(const Field& joints, const std::vector<Vec3>& origins, Model& model, const State& state) {
  if (!joints.present()) return;
  std::map<std::string, int> name_lines;
  const auto list = joints.items();
  for (std::size_t i = 0; i < list.size(); ++i) parse_joint(list[i], i, origins, model, state, name_lines);
}

void parse_controllers(const Field& controllers, Model& model) {
  if (!controllers.present()) return;
  for (const Field& f : controllers.items()) {
    f.expect_keys({"type", "robot", "joint", "kp", "kd", "target", "torque_limit", "derivative"});
    if (const Field t = f["type"]; t.present()) t.choice({"pd"});
    PdControllerSpec spec;
    const Field joint = f.require("joint");
    const std::string name = joint.text();
    if (const Field robot = f["robot"]; robot.present()) {  // a joint of a robot: (scene_robots.cpp)
      const std::string rname = robot.text();
      for (std::size_t t = 0; t < model.trees.size(); ++t)
        if (model.trees[t].name == rname) spec.tree = static_cast<int>(t);
      if (spec.tree < 0) robot.fail("unknown robot '" + rname + "'");
      const articulated::ArticulatedTree& tree = model.trees[spec.tree].tree;
      spec.joint = find_tree_joint(tree, name);
      if (spec.joint < 0) joint.fail("robot '" + rname + "' has no joint '" + name + "'");
      if (tree.link(spec.joint).nv() != 1) joint.fail("joint '" + name + "' has no single coordinate to control");
    } else {
      for (std::size_t j = 0; j < model.joints.size(); ++j)
        if (model.joints[j].name == name) spec.joint = static_cast<int>(j);
    }
    if (spec.joint < 0) joint.fail("unknown joint '" + name + "'");
    if (spec.tree < 0 && joint_coordinate(model.joints[spec.joint].kind) == JointCoordinate::None)
      joint.fail("a " + std::string(to_string(model.joints[spec.joint].kind)) + " joint has no coordinate to control");
    spec.kp = f.require("kp").non_negative();
    if (const Field kd = f["kd"]; kd.present()) spec.kd = kd.non_negative();
    spec.target = parse_target(f.require("target"));
    if (const Field l = f["torque_limit"]; l.present()) spec.torque_limit = l.non_negative();
    if (const Field d = f["derivative"]; d.present()) spec.derivative_on_error = d.choice({"measurement", "error"}) == "error";
    model.controllers.push_back(std::move(spec));
  }
}

}  // namespace pegsim::scene_detail
