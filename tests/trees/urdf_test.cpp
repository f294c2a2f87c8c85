// URDF import (io/urdf.hpp) and the scene's robots: section: the shipped
// two-link arm's M(q) against the closed form, shapes and joint data, and
// malformed files rejected with the file and the element named.
#include "common/test_paths.hpp"

#include "articulated/dynamics.hpp"
#include "io/scene.hpp"
#include "io/urdf.hpp"
#include "sim/tree_stepping.hpp"
#include "sim/world.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>

namespace pegsim {
namespace {

const std::string kArm = std::string(PEGSIM_SCENES_DIR) + "/../data/robots/two-link-arm.urdf";

TEST(Urdf, TwoLinkArmMatchesClosedForm) {
  const UrdfRobot robot = load_urdf_file(kArm);
  ASSERT_EQ(robot.tree.link_count(), 3);  // base (fixed to the world), upper, fore
  EXPECT_EQ(robot.tree.nv(), 2);
  EXPECT_EQ(robot.tree.link(1).joint_name, "shoulder");
  EXPECT_DOUBLE_EQ(robot.tree.link(1).lower, -2.5);
  EXPECT_TRUE(std::isinf(robot.tree.link(2).upper));  // continuous
  EXPECT_EQ(robot.approximated, 1);                   // the sphere at the fore arm's tip
  EXPECT_TRUE(is_compound(robot.shapes[2]));
  // closed form of tests/articulated/closed_form_test.cpp (same parameters)
  const double m2 = 0.8, l1 = 0.9, lc1 = 0.4, lc2 = 0.35, I1 = 0.11, I2 = 0.05, m1 = 1.5;
  for (double q2 : {-1.0, 0.4, 2.2}) {
    VecX q(2);
    q << 0.3, q2;
    const MatX M = articulated::mass_matrix(robot.tree, q);
    const double c2 = std::cos(q2);
    EXPECT_NEAR(M(0, 0), m1 * lc1 * lc1 + m2 * (l1 * l1 + lc2 * lc2 + 2 * l1 * lc2 * c2) + I1 + I2, 1e-12);
    EXPECT_NEAR(M(0, 1), m2 * (lc2 * lc2 + l1 * lc2 * c2) + I2, 1e-12);
    EXPECT_NEAR(M(1, 1), m2 * lc2 * lc2 + I2, 1e-12);
  }
}

std::string with(const std::string& body) {
  return "<?xml version=\"1.0\"?><robot name=\"r\"><link name=\"a\"><inertial><mass value=\"1\"/>"
         "<inertia ixx=\"1\" iyy=\"1\" izz=\"1\" ixy=\"0\" ixz=\"0\" iyz=\"0\"/></inertial></link>" + body + "</robot>";
}

std::string error_of_at(const std::string& xml, const std::string& source) {
  try {
    load_urdf_string(xml, source);
  } catch (const std::runtime_error& e) {
    return e.what();
  }
  return "no error";
}

std::string error_of(const std::string& xml) {
  try {
    load_urdf_string(xml, "bad.urdf");
  } catch (const std::runtime_error& e) {
    return e.what();
  }
  return "no error";
}

TEST(Urdf, MalformedFilesNameFileAndElement) {
  EXPECT_NE(error_of("<robot name=\"r\"><link name=\"a\"></robot>").find("bad.urdf: "), std::string::npos);
  const std::string link_b = "<link name=\"b\"><inertial><mass value=\"-2\"/>"
                             "<inertia ixx=\"1\" iyy=\"1\" izz=\"1\" ixy=\"0\" ixz=\"0\" iyz=\"0\"/></inertial></link>";
  const std::string joint = "<joint name=\"j\" type=\"continuous\"><parent link=\"a\"/><child link=\"b\"/><axis xyz=\"0 0 1\"/></joint>";
  EXPECT_NE(error_of(with(link_b + joint)).find("bad.urdf: link 'b': inertial: mass"), std::string::npos)
      << error_of(with(link_b + joint));
  const std::string light = "<link name=\"b\"/>";
  EXPECT_NE(error_of(with(light + "<joint name=\"j\" type=\"continuous\"><parent link=\"a\"/><child link=\"b\"/>"
                                  "<axis xyz=\"0 0 0\"/></joint>")).find("bad.urdf: joint 'j': "),
            std::string::npos);
  // a moving link without mass is caught when the robot enters a model
  UrdfRobot r = load_urdf_string(with(light + joint), "bad.urdf");
  Model model;
  State state;
  model.add_material("default");
  EXPECT_THROW(add_tree(model, state, "r", r.tree, r.shapes, VecX(), VecX(), MaterialId{}, r.collides), std::invalid_argument);
}

// Text TinyXML (under urdfdom) would read past its end or cut short is refused
// before parsing, naming line and column: a lead byte whose continuation bytes
// are missing (at the very end, inside an open element: the fuzz_urdf
// finding, tests/data/fuzz/urdf), a stray continuation byte, a NUL. Accented
// names in well-formed UTF-8 still load.
TEST(Urdf, MalformedUtf8AndNulBytesAreRefusedBeforeParsing) {
  const std::string open = "<?xml version=\"1.0\"?>\n<robot name=\"r\">\n<link name=\"a\">x";
  EXPECT_NE(error_of(open + "\xe9").find("bad.urdf:3:17: the URDF text is not UTF-8 text (byte 55)"), std::string::npos)
      << error_of(open + "\xe9");
  EXPECT_NE(error_of(open + "\xe9\xa9").find("bad.urdf:3:17: the URDF text is not UTF-8"), std::string::npos);
  EXPECT_NE(error_of("<robot name=\"\xbfr\"/>").find("bad.urdf:1:14: the URDF text is not UTF-8"), std::string::npos);
  EXPECT_NE(error_of(with("") + std::string(1, '\0') + "<junk").find("the URDF text holds a NUL byte"), std::string::npos);
  const std::string accented = "<?xml version=\"1.0\"?><robot name=\"bras\xc3\xa9\"><link name=\"a\"/></robot>";
  EXPECT_EQ(load_urdf_string(accented, "ok.urdf").name, "bras\xc3\xa9");
}

// A collision mesh (data/robots/meshes/wedge.obj, scaled by 2 along x) becomes
// the convex hull of its vertices: its support along +x reaches 2 x 0.2 m, and
// package:// paths are refused by name. Tolerance 1e-7 m: assimp keeps
// vertices in single precision (ai_real = float; 0.3 is read as 0.30000001).
TEST(Urdf, MeshCollisionBecomesItsHull) {
  const std::string source = std::string(PEGSIM_SCENES_DIR) + "/../data/robots/inline.urdf";
  auto robot_with = [](const std::string& file) {
    return "<?xml version=\"1.0\"?><robot name=\"r\"><link name=\"a\"><inertial><mass value=\"1\"/>"
           "<inertia ixx=\"1\" iyy=\"1\" izz=\"1\" ixy=\"0\" ixz=\"0\" iyz=\"0\"/></inertial>"
           "<collision><geometry><mesh filename=\"" + file + "\" scale=\"2 1 1\"/></geometry></collision></link></robot>";
  };
  const UrdfRobot r = load_urdf_string(robot_with("meshes/wedge.obj"), source);
  ASSERT_TRUE(r.collides[0]);
  EXPECT_NEAR(support(r.shapes[0], Vec3::UnitX()).x(), 0.4, 1e-7);
  EXPECT_NEAR(support(r.shapes[0], Vec3::UnitZ()).z(), 0.3, 1e-7);
  EXPECT_NEAR(support(r.shapes[0], -Vec3::UnitX()).x(), 0.0, 1e-7);
  const std::string e = error_of_at(robot_with("package://arm/wedge.stl"), source);
  EXPECT_NE(e.find("link 'a': collision mesh 'package://arm/wedge.stl': package://"), std::string::npos) << e;
  EXPECT_NE(error_of_at(robot_with("missing.stl"), source).find("missing.stl: cannot read the mesh"), std::string::npos);
}

// A sphere, or a cylinder along the link's z, that is a link's only collision
// element becomes the true curved shape (no warning), moved into the
// centre-of-mass frame; a tilted cylinder and curved parts of a compound stay
// fine polytopes, counted and warned about.
TEST(Urdf, LoneSphereAndUprightCylinderAreCurved) {
  auto link = [](const std::string& name, const std::string& collision) {
    return "<link name=\"" + name + "\"><inertial><origin xyz=\"0 0 0.1\"/><mass value=\"1\"/>"
           "<inertia ixx=\"1\" iyy=\"1\" izz=\"1\" ixy=\"0\" ixz=\"0\" iyz=\"0\"/></inertial>" + collision + "</link>";
  };
  auto joint = [](const std::string& child) {
    return "<joint name=\"" + child + "_j\" type=\"fixed\"><parent link=\"a\"/><child link=\"" + child + "\"/></joint>";
  };
  const std::string xml =
      "<?xml version=\"1.0\"?><robot name=\"r\">" +
      link("a", "<collision><origin xyz=\"0 0 0.3\"/><geometry><sphere radius=\"0.05\"/></geometry></collision>") +
      link("b", "<collision><origin xyz=\"0 0 0.2\" rpy=\"0 0 0.7\"/><geometry><cylinder radius=\"0.04\" length=\"0.3\"/></geometry></collision>") +
      link("c", "<collision><origin rpy=\"1.5707963 0 0\"/><geometry><cylinder radius=\"0.04\" length=\"0.3\"/></geometry></collision>") +
      joint("b") + joint("c") + "</robot>";
  const UrdfRobot r = load_urdf_string(xml, "curved.urdf");
  ASSERT_EQ(r.shapes.size(), 3u);
  const auto* sphere = std::get_if<Sphere>(&r.shapes[0]);
  ASSERT_NE(sphere, nullptr);
  EXPECT_DOUBLE_EQ(sphere->radius, 0.05);
  EXPECT_TRUE(sphere->centre.isApprox(Vec3(0, 0, 0.2)));  // 0.3 from the link origin, the centre of mass at 0.1
  const auto* cylinder = std::get_if<Cylinder>(&r.shapes[1]);
  ASSERT_NE(cylinder, nullptr);
  EXPECT_DOUBLE_EQ(cylinder->height, 0.3);
  EXPECT_TRUE(cylinder->centre.isApprox(Vec3(0, 0, 0.1)));
  EXPECT_TRUE(std::holds_alternative<Polyhedron>(r.shapes[2]));  // axis along y: a polytope
  EXPECT_EQ(r.approximated, 1);
  // the shipped arm's flange is an upright cylinder: arm7.urdf loads without approximation
  EXPECT_EQ(load_urdf_file(std::string(PEGSIM_SCENES_DIR) + "/../data/robots/arm7.urdf").approximated, 0);
}

std::string arm_scene(const std::string& extra) {
  return "options: {h: 0.002}\nbodies:\n  - {name: ground, static: true, shape: {box: [4, 4, 1]}, position: [0, 0, -1]}\n"
         "robots:\n  - {name: arm, urdf: " + kArm + ", position: [0, 0, 0.3], joints: {shoulder: 0.5, elbow: -0.4}}\n" + extra;
}

// The arm in a scene, its joints driven by PD controllers to their targets.
// Gravity is along -z and the joints turn about z, so gravity does no work on
// them: at rest the joints sit at their targets exactly.
TEST(Urdf, SceneRobotWithControllersReachesTargets) {
  Scene s = load_scene_string(arm_scene("controllers:\n  - {robot: arm, joint: shoulder, kp: 40, kd: 8, target: -0.3}\n"
                                        "  - {robot: arm, joint: elbow, kp: 20, kd: 4, target: 1.0}\n"));
  ASSERT_EQ(s.model.trees.size(), 1u);
  EXPECT_DOUBLE_EQ(s.state.trees[0].q(0), 0.5);
  World world(std::move(s.model), std::move(s.state));
  for (int k = 0; k < 4000; ++k) world.step();
  const VecX& q = world.state().trees[0].q;
  std::printf("URDF arm under PD: q = (%.6f, %.6f), targets (-0.3, 1.0)\n", q(0), q(1));
  EXPECT_NEAR(q(0), -0.3, 1e-6);
  EXPECT_NEAR(q(1), 1.0, 1e-6);
}

// the error a scene text gives, or "no error"
std::string message(const std::string& text) {
  try {
    load_scene_string(text, "s.yaml");
  } catch (const SceneError& e) {
    return std::string(e.what());
  }
  return std::string("no error");
}

TEST(Urdf, SceneErrorsNameTheField) {
  EXPECT_NE(message(arm_scene("controllers:\n  - {robot: arm, joint: wrist, kp: 1, target: 0}\n")).find("has no joint 'wrist'"),
            std::string::npos);
  EXPECT_NE(message(arm_scene("controllers:\n  - {robot: leg, joint: elbow, kp: 1, target: 0}\n")).find("unknown robot 'leg'"),
            std::string::npos);
  const std::string missing = "bodies:\n  - {name: g, static: true, shape: {box: [1, 1, 1]}}\nrobots:\n  - {name: r, urdf: /nonexistent.urdf}\n";
  EXPECT_NE(message(missing).find("s.yaml:4"), std::string::npos) << message(missing);
  EXPECT_NE(message(missing).find("cannot open the URDF file"), std::string::npos);
  // not a URDF file at all: a directory, and /dev/zero (read in capped chunks, never to its end)
  const std::string folder = "bodies:\n  - {name: g, static: true, shape: {box: [1, 1, 1]}}\nrobots:\n  - {name: r, urdf: " +
                             std::string(PEGSIM_SCENES_DIR) + "}\n";
  EXPECT_NE(message(folder).find("s.yaml:4"), std::string::npos) << message(folder);
  EXPECT_NE(message(folder).find("is a directory, not a URDF file"), std::string::npos) << message(folder);
  const std::string zeros = "bodies:\n  - {name: g, static: true, shape: {box: [1, 1, 1]}}\nrobots:\n  - {name: r, urdf: /dev/zero}\n";
  EXPECT_NE(message(zeros).find("/dev/zero: the URDF file is larger than 16 MB"), std::string::npos) << message(zeros);
}

// Initial velocities of a robot: joint_velocities of 1-dof joints, and for a
// floating base the root's world-frame velocity and angular_velocity. The
// two-link arm thrown upwards with no gravity: its root keeps the given
// velocity (nothing acts on the free tree), and the joint rates start as given.
// Errors: a fixed base given a velocity, a joint without one coordinate.
TEST(Urdf, SceneRobotStartsWithGivenVelocities) {
  const std::string text =
      "options: {h: 0.001, gravity: [0, 0, 0]}\nbodies:\n  - {name: marker, static: true, shape: {box: [0.1, 0.1, 0.1]}, "
      "position: [0, 0, -5]}\nrobots:\n  - {name: arm, urdf: " + kArm +
      ", fixed_base: false, orientation: {axis_angle: [0, 0, 1, 1.2]}, velocity: [0.5, -0.2, 3], angular_velocity: [0, 0, 0.7],"
      " joint_velocities: {shoulder: 0.4, elbow: -0.3}}\n";
  Scene s = load_scene_string(text, "throw.yaml");
  const TreeState& ts0 = s.state.trees.at(0);
  const articulated::ArticulatedTree& tree = s.model.trees[0].tree;
  EXPECT_DOUBLE_EQ(ts0.v(tree.link(1).v_index), 0.4);
  EXPECT_DOUBLE_EQ(ts0.v(tree.link(2).v_index), -0.3);
  // the base link's frame origin moves at the given world velocity: the root body's centre
  // of mass is at that origin plus R c, moving at v + omega x R c
  World world(s.model, s.state);
  const std::uint32_t base = world.model().trees[0].link_body[0];
  const BodyState& b = world.state().bodies[base];
  const Vec3 offset = b.pose.position - Vec3::Zero();  // the base placed at the origin
  EXPECT_TRUE(b.linear_velocity.isApprox(Vec3(0.5, -0.2, 3) + Vec3(0, 0, 0.7).cross(offset), 1e-12)) << b.linear_velocity.transpose();
  EXPECT_TRUE(b.angular_velocity.isApprox(Vec3(0, 0, 0.7), 1e-12)) << b.angular_velocity.transpose();
  std::string fixed = text;
  fixed.replace(fixed.find("fixed_base: false"), 17, "fixed_base: true");
  EXPECT_NE(message(fixed).find("a fixed base does not move"), std::string::npos) << message(fixed);
  EXPECT_NE(message(arm_scene("").replace(arm_scene("").find("joints:"), 7, "joint_velocities: {wrist: 1}, joints:"))
                .find("has no joint 'wrist'"),
            std::string::npos);
}

}  // namespace
}  // namespace pegsim
