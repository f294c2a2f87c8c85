// The scene file's joints: and controllers: sections: what loads, and
// malformed input rejected as "FILE:LINE: FIELD.PATH: what is wrong".
#include "common/test_paths.hpp"

#include "io/recording.hpp"
#include "io/scene.hpp"
#include "joints/controllers.hpp"
#include "joints/joint_rows.hpp"
#include "sim/world.hpp"

#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <filesystem>
#include <string>

namespace pegsim {
namespace {

// two boxes in a 3D scene, 7 lines; each case adds lines 8...
std::string scene(const std::string& extra, const std::string& options = "{dimension: 3, solver: path}") {
  return "options: " + options + "\n"                               // 1
         "bodies:\n"                                                 // 2
         "  - {name: a, shape: {box: [1, 1, 1]}, mass: 1}\n"         // 3
         "  - {name: b, shape: {box: [1, 1, 1]}, mass: 1, position: [1, 0, 0]}\n"  // 4
         "  - {name: ground, static: true, shape: {box: [4, 4, 1]}, position: [0, 0, -3]}\n"  // 5
         "  - {name: floor, static: true, shape: {box: [4, 4, 1]}, position: [0, 0, -9]}\n"  // 6
         "# joints\n" +                                              // 7
         extra;
}

std::string error_of(const std::string& yaml) {
  try {
    load_scene_string(yaml, "case.yaml");
  } catch (const SceneError& e) {
    return e.what();
  }
  return "(loaded)";
}

::testing::AssertionResult fails_with(const std::string& yaml, std::initializer_list<std::string> parts) {
  const std::string message = error_of(yaml);
  for (const std::string& part : parts)
    if (message.find(part) == std::string::npos)
      return ::testing::AssertionFailure() << "message '" << message << "' lacks '" << part << "'";
  return ::testing::AssertionSuccess();
}

TEST(JointScene, LoadsJointsWithCoincidentFramesAndOptions) {
  const Scene s = load_scene_string(scene("joints:\n"
                                          "  - {name: h, type: hinge, bodies: [a, b], anchor: [0.5, 0, 0], axis: [0, 1, 0],\n"
                                          "     limit: [-1, 1], friction: 0.5, damping: 0.1}\n"
                                          "  - {type: ball, bodies: [world, a], anchor: [0, 0, 0.5]}\n"
                                          "  - {type: slider, bodies: [b, ground], frame: a, anchor: [0, 0, 0], axis: [1, 0, 0], "
                                          "motor: {velocity: 1, max_force: 2}}\n"
                                          "controllers:\n"
                                          "  - {joint: h, kp: 5, kd: 0.1, target: {expression: 'sin(0.01 * step)'}, torque_limit: 3}\n",
                                          "{dimension: 3, joint_correction: true, joint_eps_p: 1e-6}"),
                                    "case.yaml");
  ASSERT_EQ(s.model.joints.size(), 3u);
  EXPECT_EQ(s.model.joints[0].kind, JointKind::Revolute);
  EXPECT_EQ(s.model.joints[1].name, "joint1");
  EXPECT_EQ(s.model.joints[1].body_a, kWorldBody);
  EXPECT_TRUE(s.model.joints[0].limit.enabled);
  EXPECT_EQ(s.model.joints[2].body_b, 2u);
  EXPECT_TRUE(s.model.joints[2].motor.enabled);
  EXPECT_TRUE(s.model.options.joints.correction);
  EXPECT_EQ(s.model.options.joints.eps_p, 1e-6);
  ASSERT_EQ(s.model.controllers.size(), 1u);
  EXPECT_EQ(s.model.controllers[0].target.kind, ControlTarget::Kind::Expression);
  // every joint is made with zero error
  for (const JointModel& j : s.model.joints) {
    std::vector<JointRow> rows;
    bilateral_rows(j, joint_frames(j, s.model, s.state), Dimension::Spatial, rows);
    for (const JointRow& r : rows) EXPECT_NEAR(r.error, 0.0, 1e-15);
  }
  // frame: a reads the anchor in the shape frame of the joint's end a (body b): b's centre
  EXPECT_NEAR((joint_frames(s.model.joints[2], s.model, s.state).pa - Vec3(1, 0, 0)).norm(), 0.0, 1e-15);
}

TEST(JointScene, ControllerTargets) {
  Scene s = load_scene_string(scene("joints:\n"
                                    "  - {name: h, type: revolute, bodies: [world, a], anchor: [0, 0, 0], axis: [0, 0, 1]}\n"
                                    "controllers:\n"
                                    "  - {joint: h, kp: 1, target: {table: [[0, 0], [1, 2]]}}\n"
                                    "  - {joint: h, kp: 1, target: {sine: {amplitude: 2, omega: 3, phase: 0.5, offset: 1}}}\n"
                                    "  - {joint: h, kp: 1, target: {expression: '0.5 * (1 - cos(2 * pi * t)) + step * h'}}\n"
                                    "  - {joint: h, kp: 1, target: -0.25}\n"),
                              "case.yaml");
  const Model& m = s.model;
  EXPECT_DOUBLE_EQ(PdController(m, m.controllers[0]).target(0.25, 0, 0.01), 0.5);
  EXPECT_DOUBLE_EQ(PdController(m, m.controllers[0]).target(5.0, 0, 0.01), 2.0);
  EXPECT_DOUBLE_EQ(PdController(m, m.controllers[1]).target(0.2, 0, 0.01), 1.0 + 2.0 * std::sin(3 * 0.2 + 0.5));
  EXPECT_DOUBLE_EQ(PdController(m, m.controllers[2]).target(0.25, 10, 0.01),
                   0.5 * (1 - std::cos(2 * std::numbers::pi * 0.25)) + 10 * 0.01);
  EXPECT_DOUBLE_EQ(PdController(m, m.controllers[3]).target(0.0, 0, 0.01), -0.25);
}

TEST(JointScene, MalformedJointsNameFileLineAndField) {
  const std::string j = "joints:\n";  // line 8; the joint is line 9
  EXPECT_TRUE(fails_with(scene(j + "  - {type: weld, bodies: [a, b], anchor: [0, 0, 0]}\n"),
                         {"case.yaml:9:", "joints[0].type", "weld"}));
  EXPECT_TRUE(fails_with(scene(j + "  - {type: revolute, bodies: [a, c], anchor: [0, 0, 0], axis: [0, 0, 1]}\n"),
                         {"case.yaml:9:", "joints[0].bodies[1]", "unknown body 'c'"}));
  EXPECT_TRUE(fails_with(scene(j + "  - {type: revolute, bodies: [a, a], anchor: [0, 0, 0], axis: [0, 0, 1]}\n"),
                         {"case.yaml:9:", "joints[0].bodies", "two different ends"}));
  EXPECT_TRUE(fails_with(scene(j + "  - {type: fixed, bodies: [ground, world], anchor: [0, 0, 0]}\n"),
                         {"case.yaml:9:", "joints[0].bodies", "could never act"}));
  EXPECT_TRUE(fails_with(scene(j + "  - {type: revolute, bodies: [a, b], anchor: [0, 0, 0]}\n"),
                         {"case.yaml:9:", "joints[0]", "axis"}));
  EXPECT_TRUE(fails_with(scene(j + "  - {type: revolute, bodies: [a, b], anchor: [0, 0, 0], axis: [0, 0, 0]}\n"),
                         {"case.yaml:9:", "joints[0].axis", "zero"}));
  EXPECT_TRUE(fails_with(scene(j + "  - {type: revolute, bodies: [a, b], anchor: [0, .nan, 0], axis: [0, 0, 1]}\n"),
                         {"case.yaml:9:", "joints[0].anchor"}));
  EXPECT_TRUE(fails_with(scene(j + "  - {type: revolute, bodies: [a, b], anchor: [0, 0, 0], axis: [0, 0, 1], limit: [1, -1]}\n"),
                         {"case.yaml:9:", "joints[0].limit", "lower <= upper"}));
  EXPECT_TRUE(fails_with(scene(j + "  - {type: revolute, bodies: [a, b], anchor: [0, 0, 0], axis: [0, 0, 1], limit: [-.inf, 1]}\n"),
                         {"case.yaml:9:", "joints[0].limit[0]", "finite"}));
  EXPECT_TRUE(fails_with(scene(j + "  - {type: spherical, bodies: [a, b], anchor: [0, 0, 0], friction: 1}\n"),
                         {"case.yaml:9:", "joints[0].friction", "no free coordinate"}));
  EXPECT_TRUE(fails_with(scene(j + "  - {type: revolute, bodies: [a, b], anchor: [0, 0, 0], axis: [0, 0, 1], x_axis: [0, 0, 1]}\n"),
                         {"case.yaml:9:", "joints[0]", "x_axis"}));
  EXPECT_TRUE(fails_with(scene(j + "  - {type: revolute, bodies: [a, b], anchor: [0, 0, 0], axis: [0, 0, 1], motor: {velocity: 1}}\n"),
                         {"case.yaml:9:", "joints[0].motor", "max_force"}));
  EXPECT_TRUE(fails_with(scene(j + "  - {type: revolute, bodies: [a, b], anchor: [0, 0, 0], axis: [0, 0, 1], spring: 1}\n"),
                         {"case.yaml:9:", "spring"}));
  EXPECT_TRUE(fails_with(scene(j + "  - {name: x, type: revolute, bodies: [a, b], anchor: [0, 0, 0], axis: [0, 0, 1]}\n"
                                   "  - {name: x, type: spherical, bodies: [a, ground], anchor: [0, 0, 0]}\n"),
                         {"case.yaml:10:", "joints[1].name", "duplicate joint name 'x'"}));
  // planar scenes: no universal joint, no axis on a revolute, no x_axis
  const std::string planar = "{dimension: 2, solver: path}";
  const std::string bodies2d = "options: " + planar + "\nbodies:\n  - {name: a, shape: {rectangle: [1, 1]}, mass: 1}\n";
  EXPECT_TRUE(fails_with(bodies2d + "joints:\n  - {type: universal, bodies: [world, a], anchor: [0, 0]}\n",
                         {"case.yaml:5:", "joints[0].type", "planar"}));
  EXPECT_TRUE(fails_with(bodies2d + "joints:\n  - {type: revolute, bodies: [world, a], anchor: [0, 0], axis: [1, 0]}\n",
                         {"case.yaml:5:", "joints[0].axis", "no axis"}));
}

TEST(JointScene, MalformedControllersNameFileLineAndField) {
  const std::string j = "joints:\n  - {name: h, type: revolute, bodies: [a, b], anchor: [0, 0, 0], axis: [0, 0, 1]}\n"
                        "  - {name: s, type: spherical, bodies: [a, ground], anchor: [0, 0, 0]}\ncontrollers:\n";
  // controllers start on line 12
  EXPECT_TRUE(fails_with(scene(j + "  - {joint: q, kp: 1, target: 0}\n"), {"case.yaml:12:", "controllers[0].joint", "unknown joint"}));
  EXPECT_TRUE(fails_with(scene(j + "  - {joint: s, kp: 1, target: 0}\n"), {"case.yaml:12:", "controllers[0].joint", "no coordinate"}));
  EXPECT_TRUE(fails_with(scene(j + "  - {joint: h, kp: -1, target: 0}\n"), {"case.yaml:12:", "controllers[0].kp"}));
  EXPECT_TRUE(fails_with(scene(j + "  - {joint: h, kp: 1, target: {expression: 'sin(2 * )'}}\n"),
                         {"case.yaml:12:", "controllers[0].target.expression", "column"}));
  EXPECT_TRUE(fails_with(scene(j + "  - {joint: h, kp: 1, target: {expression: 'cosh(t)'}}\n"),
                         {"case.yaml:12:", "unknown name 'cosh'"}));
  EXPECT_TRUE(fails_with(scene(j + "  - {joint: h, kp: 1, target: {table: [[0, 1], [0, 2]]}}\n"),
                         {"case.yaml:12:", "controllers[0].target.table[1]", "increase"}));
  EXPECT_TRUE(fails_with(scene(j + "  - {joint: h, kp: 1, target: {ramp: 1}}\n"), {"case.yaml:12:", "unknown target kind 'ramp'"}));
  EXPECT_TRUE(fails_with(scene(j + "  - {joint: h, kp: 1, target: 0, derivative: both}\n"),
                         {"case.yaml:12:", "controllers[0].derivative"}));
}

TEST(JointScene, BodiesJoinedByAJointDoNotCollideUnlessAsked) {
  // a and b overlap at the start; joined, they find no contact
  for (bool collide : {false, true}) {
    Scene s = load_scene_string(
        scene(std::string("joints:\n  - {type: revolute, bodies: [a, b], anchor: [0.5, 0, 0], axis: [0, 1, 0], collide: ") +
              (collide ? "true" : "false") + "}\n"),
        "case.yaml");
    s.state.bodies[1].pose.position.x() = 0.9;  // overlapping by 0.1 m
    s.model.options.gravity = Vec3::Zero();
    World world(s.model, s.state);
    const StepReport& r = world.step();
    EXPECT_EQ(r.contacts_found > 0, collide);
  }
}

}  // namespace
}  // namespace pegsim

namespace pegsim {
namespace {

// The recording keeps each step's joint errors (before and after the
// correction) as the report gave them, and the joints' names and kinds.
TEST(JointRecording, StoresTheJointErrorsOfEveryStep) {
  Scene s = load_scene_file(std::string(PEGSIM_SCENES_DIR) + "/pendulum.yaml");
  const std::string path = (std::filesystem::temp_directory_path() / "joint_recording.h5").string();
  std::vector<std::array<double, 4>> reported;
  {
    World world(s.model, s.state);
    Recorder recorder(path, world.model(), world.state(), 1, s.text);
    world.add_observer(&recorder);
    for (int k = 0; k < 20; ++k) {
      const StepReport& r = world.step();
      reported.push_back({r.joint_position_error_before, r.joint_velocity_error_before, r.joint_position_error,
                          r.joint_velocity_error});
    }
  }
  const Recording rec = read_recording(path);
  ASSERT_EQ(rec.steps.size(), 21u);  // the initial state and 20 steps
  EXPECT_EQ(rec.steps[0].joint_errors, std::vector<double>(4, 0.0));
  for (int k = 0; k < 20; ++k) {
    ASSERT_EQ(rec.steps[k + 1].joint_errors.size(), 4u);
    for (int i = 0; i < 4; ++i) EXPECT_EQ(rec.steps[k + 1].joint_errors[i], reported[k][i]);
  }
  EXPECT_GT(reported.back()[0], reported.back()[2]);  // the correction had work to do
  std::filesystem::remove(path);
}


// The recording keeps each joint's ends and frames once, and per step its
// coordinate and rate (equal to what the controllers' accessors read from
// the state) and the wrench the report gave (zeros in the initial row).
TEST(JointRecording, StoresJointFramesCoordinatesAndWrenches) {
  Scene s = load_scene_file(std::string(PEGSIM_SCENES_DIR) + "/powerball-arm.yaml");
  const std::string path = (std::filesystem::temp_directory_path() / "joint_rows_recording.h5").string();
  std::vector<std::vector<double>> q, qdot;
  std::vector<std::vector<Vec6>> wrench;
  Model model;
  {
    World world(s.model, s.state);
    Recorder recorder(path, world.model(), world.state(), 1, s.text);
    world.add_observer(&recorder);
    for (int k = 0; k < 30; ++k) {
      const StepReport& r = world.step();
      q.emplace_back();
      qdot.emplace_back();
      for (std::size_t j = 0; j < world.model().joints.size(); ++j) {
        q.back().push_back(joint_position(world.model(), world.state(), j));
        qdot.back().push_back(joint_velocity(world.model(), world.state(), j));
      }
      wrench.push_back(r.joint_wrenches);
    }
    model = world.model();
  }  // the recorder (destroyed first) closes the file
  const Recording rec = read_recording(path);
  const std::size_t nj = model.joints.size();
  ASSERT_EQ(rec.joints.size(), nj);
  for (std::size_t j = 0; j < nj; ++j) {
    const JointModel& m = model.joints[j];
    EXPECT_EQ(rec.joints[j].name, m.name);
    EXPECT_EQ(rec.joints[j].body_a, static_cast<int>(m.body_a));
    EXPECT_EQ(rec.joints[j].body_b, static_cast<int>(m.body_b));
    EXPECT_EQ(rec.joints[j].anchor_b, m.anchor_b);
    EXPECT_EQ(rec.joints[j].frame_a, m.frame_a);
  }
  ASSERT_EQ(rec.steps.size(), 31u);
  for (std::size_t j = 0; j < nj; ++j) EXPECT_EQ(rec.steps[0].joint_wrenches[j], Vec6::Zero());
  for (int k = 0; k < 30; ++k)
    for (std::size_t j = 0; j < nj; ++j) {
      EXPECT_EQ(rec.steps[k + 1].joint_positions[j], q[k][j]);
      EXPECT_EQ(rec.steps[k + 1].joint_velocities[j], qdot[k][j]);
      EXPECT_EQ(rec.steps[k + 1].joint_wrenches[j], wrench[k][j]);
    }
  EXPECT_GT(std::abs(q.back()[0]), 1e-3);  // the arm moved: the columns are not trivially zero
  std::filesystem::remove(path);
}

}  // namespace
}  // namespace pegsim
