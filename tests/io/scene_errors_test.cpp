// Malformed scenes: each is rejected before anything runs, with a message
// "FILE:LINE: FIELD.PATH: what is wrong".
#include "common/test_paths.hpp"

#include "scene_test_util.hpp"

#include <gtest/gtest.h>

#include <fstream>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

namespace pegsim::test {
namespace {

// Lines joined with '\n': line numbers in the expectations are 1-based indices.
std::string yaml(std::initializer_list<const char*> lines) {
  std::string out;
  for (const char* l : lines) out += std::string(l) + "\n";
  return out;
}

// a valid 3D scene of 8 lines, extended by each case
std::string scene3d(std::initializer_list<const char*> extra_box_lines = {}) {
  std::string out = yaml({"options: {dimension: 3}",                          // 1
                          "bodies:",                                          // 2
                          "  - name: ground",                                 // 3
                          "    shape: {half_space: {normal: [0, 0, 1]}}",     // 4
                          "    static: true",                                 // 5
                          "  - name: box",                                    // 6
                          "    shape: {box: [1, 1, 1]}",                      // 7
                          "    density: 1000"});                              // 8
  for (const char* l : extra_box_lines) out += std::string(l) + "\n";        // 9...
  return out;
}

TEST(SceneErrors, BaseSceneLoads) { EXPECT_EQ(scene_error(scene3d()), "(loaded)"); }

TEST(SceneErrors, YamlSyntax) {
  EXPECT_TRUE(fails_with(yaml({"options: {h: 0.1", "bodies: []"}), {"case.yaml:", "YAML syntax error"}));
  EXPECT_TRUE(fails_with(yaml({"bodies:", "  - name: a", " - name: b"}), {"case.yaml:", "YAML syntax error"}));
  // the second document is named by its '---' line
  EXPECT_TRUE(fails_with(yaml({"bodies: []", "---", "bodies: []"}), {"case.yaml:2:", "one YAML document"}));
  // yaml-cpp's LoadAll looped on this for ever, allocating (issue 17); the loader counts documents itself
  EXPECT_TRUE(fails_with(",", {"case.yaml:1:", "YAML syntax error"}));
  EXPECT_TRUE(fails_with("bodies: []\n,\n", {"case.yaml:", "YAML syntax error"}));
  EXPECT_TRUE(fails_with("", {"case.yaml:1:", "the scene is empty"}));
  EXPECT_TRUE(fails_with(yaml({"- a", "- b"}), {"case.yaml:1:", "a scene is a map"}));
}

// Input that is not a scene file at all: a clear error naming it, no read without end.
TEST(SceneErrors, NotASceneFile) {
  const std::string dir = ::testing::TempDir();
  try {
    load_scene_file(dir);
    ADD_FAILURE() << "a directory loaded";
  } catch (const SceneError& e) {
    EXPECT_NE(std::string(e.what()).find("is a directory"), std::string::npos) << e.what();
  }
  try {
    load_scene_file("/dev/zero");  // never ends: capped at 4 MB (io/scene_limits.hpp)
    ADD_FAILURE() << "/dev/zero loaded";
  } catch (const SceneError& e) {
    EXPECT_NE(std::string(e.what()).find("larger than 4 MB"), std::string::npos) << e.what();
  }
  EXPECT_TRUE(fails_with(std::string(5u << 20, '#'), {"larger than 4 MB"}));
}

TEST(SceneErrors, UnknownKeys) {
  EXPECT_TRUE(fails_with(yaml({"options: {dimension: 3}", "bodys: []"}),
                         {"case.yaml:2: bodys: unknown key (expected one of: options, materials"}));
  EXPECT_TRUE(fails_with(yaml({"options:", "  dimension: 3", "  step: 0.01", "bodies: []"}),
                         {"case.yaml:3: options.step: unknown key"}));
  EXPECT_TRUE(fails_with(scene3d({"    colour: red"}), {"case.yaml:9: bodies[1].colour: unknown key"}));
  EXPECT_TRUE(fails_with(yaml({"shapes:", "  peg: {prism: {sides: 8, radius: 1, height: 2, depth: 3}}",
                               "bodies: [{shape: peg, mass: 1}]"}),
                         {"case.yaml:2: shapes.peg.prism.depth: unknown key"}));
  EXPECT_TRUE(fails_with(yaml({"materials: [a, b]", "friction:", "  - {materials: [a, b], mu: 0.3, e: 1}",
                               "bodies: [{shape: {cube: 1}, mass: 1}]"}),
                         {"case.yaml:3: friction[0].e: unknown key"}));
  EXPECT_TRUE(fails_with(scene3d({"    orientation: {euler: [0, 0, 0]}"}),
                         {"case.yaml:9: bodies[1].orientation.euler: unknown orientation form 'euler'"}));
  EXPECT_TRUE(fails_with(yaml({"bodies:", "  - {shape: {torus: 1}, mass: 1}"}),
                         {"case.yaml:2: bodies[0].shape.torus: unknown shape kind 'torus'"}));
  // curved kinds (geometry/curved.hpp): their dimensions as maps, checked
  EXPECT_TRUE(fails_with(yaml({"bodies:", "  - {shape: {sphere: 1}, mass: 1}"}),
                         {"case.yaml:2: bodies[0].shape.sphere: expected a map, got 1"}));
  EXPECT_TRUE(fails_with(yaml({"bodies:", "  - {shape: {cylinder: {radius: 1, height: -2}}, mass: 1}"}),
                         {"case.yaml:2: bodies[0].shape.cylinder.height:"}));
  EXPECT_TRUE(fails_with(yaml({"bodies:", "  - {shape: {disc: {radius: 1}}, mass: 1}"}),
                         {"case.yaml:2: bodies[0].shape.disc: 2D shape in a 3D scene"}));
  EXPECT_TRUE(fails_with(scene3d({"    <<: {mass: 1}"}), {"case.yaml:9: bodies[1].<<: YAML merge keys"}));
  EXPECT_TRUE(fails_with(scene3d({"    density: 2000"}),
                         {"case.yaml:9: bodies[1].density: duplicate key 'density' (first given at line 8)"}));
}

TEST(SceneErrors, MissingRequiredFields) {
  EXPECT_TRUE(fails_with(yaml({"options: {dimension: 3}"}), {"case.yaml:1: bodies: required field is missing"}));
  EXPECT_TRUE(fails_with(yaml({"bodies:", "  - {name: a, mass: 1}"}),
                         {"case.yaml:2: bodies[0].shape: required field is missing"}));
  EXPECT_TRUE(fails_with(yaml({"shapes:", "  peg: {prism: {sides: 8, height: 2}}", "bodies: [{shape: peg, mass: 1}]"}),
                         {"case.yaml:2: shapes.peg.prism.radius: required field is missing"}));
  EXPECT_TRUE(fails_with(yaml({"materials: [a]", "friction:", "  - {materials: [a, a]}",
                               "bodies: [{shape: {cube: 1}, mass: 1}]"}),
                         {"case.yaml:3: friction[0].mu: required field is missing"}));
  EXPECT_TRUE(fails_with(yaml({"bodies:", "  - {shape: {half_space: {offset: 1}}, static: true}"}),
                         {"case.yaml:2: bodies[0].shape.half_space.normal: required field is missing"}));
  EXPECT_TRUE(fails_with(yaml({"bodies:", "  - name: a", "    shape: {cube: 1}"}),
                         {"case.yaml:2: bodies[0]: required field is missing: a dynamic body needs mass or density"}));
  EXPECT_TRUE(fails_with(yaml({"bodies: []"}), {"case.yaml:1: bodies: a scene needs at least one body"}));
}

TEST(SceneErrors, WrongTypes) {
  EXPECT_TRUE(fails_with(yaml({"options: {h: abc}", "bodies: [{shape: {cube: 1}, mass: 1}]"}),
                         {"case.yaml:1: options.h: expected a number, got abc"}));
  EXPECT_TRUE(fails_with(yaml({"options: {h: '0.1'}", "bodies: [{shape: {cube: 1}, mass: 1}]"}),
                         {"case.yaml:1: options.h: expected a number, got '0.1'"}));
  EXPECT_TRUE(fails_with(yaml({"options: {dimension: 4}", "bodies: [{shape: {cube: 1}, mass: 1}]"}),
                         {"case.yaml:1: options.dimension: must be 2 or 3, got 4"}));
  EXPECT_TRUE(fails_with(yaml({"options: {dimension: 2.5}", "bodies: [{shape: {cube: 1}, mass: 1}]"}),
                         {"options.dimension: expected an integer, got 2.5"}));
  EXPECT_TRUE(fails_with(yaml({"options: {friction_directions: 2}", "bodies: [{shape: {cube: 1}, mass: 1}]"}),
                         {"options.friction_directions: must be at least 3, got 2"}));
  EXPECT_TRUE(fails_with(yaml({"options: {model: magic}", "bodies: [{shape: {cube: 1}, mass: 1}]"}),
                         {"options.model: unknown value 'magic' (expected one of: standard, peg, lnc, corrective)"}));
  EXPECT_TRUE(fails_with(yaml({"options: {formulation: euler}", "bodies: [{shape: {cube: 1}, mass: 1}]"}),
                         {"options.formulation: unknown value 'euler'"}));
  EXPECT_TRUE(fails_with(yaml({"options: {viscous_integration: rk4}", "bodies: [{shape: {cube: 1}, mass: 1}]"}),
                         {"case.yaml:1: options.viscous_integration: unknown value 'rk4' (expected one of: explicit, "
                          "implicit)"}));
  EXPECT_TRUE(fails_with(yaml({"options: {solver_relaxation: 2}", "bodies: [{shape: {cube: 1}, mass: 1}]"}),
                         {"case.yaml:1: options.solver_relaxation: must lie in (0, 2)"}));
  EXPECT_TRUE(fails_with(yaml({"options: {solver: magic}", "bodies: [{shape: {cube: 1}, mass: 1}]"}),
                         {"case.yaml:1: options.solver: unknown solver 'magic' (expected one of:", "lemke"}));
  EXPECT_TRUE(fails_with(yaml({"options:", "  solver_chain: [pgs, magic]", "bodies: [{shape: {cube: 1}, mass: 1}]"}),
                         {"case.yaml:2: options.solver_chain[1]: unknown solver 'magic' (expected one of:"}));
  EXPECT_TRUE(fails_with(yaml({"options: {solver: pgs, solver_chain: [pgs, path]}", "bodies: [{shape: {cube: 1}, mass: 1}]"}),
                         {"options.solver_chain: give solver or solver_chain, not both"}));
  EXPECT_TRUE(fails_with(yaml({"options: {solver_chain: []}", "bodies: [{shape: {cube: 1}, mass: 1}]"}),
                         {"options.solver_chain: needs at least one solver"}));
  EXPECT_TRUE(fails_with(yaml({"options: {max_penetration: -1}", "bodies: [{shape: {cube: 1}, mass: 1}]"}),
                         {"options.max_penetration:"}));
  EXPECT_TRUE(fails_with(yaml({"options: {islands: sometimes}", "bodies: [{shape: {cube: 1}, mass: 1}]"}),
                         {"options.islands: expected true or false"}));
  EXPECT_TRUE(fails_with(yaml({"options: {eps: fast}", "bodies: [{shape: {cube: 1}, mass: 1}]"}),
                         {"options.eps: expected a number, got fast"}));
  EXPECT_TRUE(fails_with(yaml({"options: {eps_theta: 2}", "bodies: [{shape: {cube: 1}, mass: 1}]"}),
                         {"options.eps_theta: must lie in [-1, 1]"}));
  EXPECT_TRUE(fails_with(scene3d({"    static: maybe"}), {"case.yaml:9: bodies[1].static: expected true or false, got maybe"}));
  EXPECT_TRUE(fails_with(scene3d({"    position: [1, 2]"}),
                         {"case.yaml:9: bodies[1].position: expected a list of 3 items, got a list of 2"}));
  EXPECT_TRUE(fails_with(scene3d({"    position: 5"}), {"bodies[1].position: expected a list of 3 items, got 5"}));
  EXPECT_TRUE(fails_with(scene3d({"    name: [a]"}), {"case.yaml:9: bodies[1].name: duplicate key"}));
  EXPECT_TRUE(fails_with(yaml({"bodies:", "  - name: [a]", "    shape: {cube: 1}"}),
                         {"case.yaml:2: bodies[0].name: expected a name, got a list"}));
  EXPECT_TRUE(fails_with(yaml({"bodies: {a: 1}"}), {"case.yaml:1: bodies: expected a list, got a map"}));
  EXPECT_TRUE(fails_with(yaml({"bodies:", "  - {shape: [1, 2], mass: 1}"}),
                         {"case.yaml:2: bodies[0].shape: expected a shape map such as {box: [1, 2, 3]}, got a list"}));
  EXPECT_TRUE(fails_with(yaml({"bodies:", "  - {shape: {cube: 1, box: [1, 1, 1]}, mass: 1}"}),
                         {"bodies[0].shape: a shape map has exactly one key"}));
  EXPECT_TRUE(fails_with(yaml({"bodies:", "  - {shape: {prism: {sides: 2.5, radius: 1, height: 1}}, mass: 1}"}),
                         {"bodies[0].shape.prism.sides: expected an integer, got 2.5"}));
}

TEST(SceneErrors, NonPositiveAndNegativeValues) {
  EXPECT_TRUE(fails_with(scene3d({"    mass: -1"}), {"case.yaml:9: bodies[1].mass: give either mass or density"}));
  EXPECT_TRUE(fails_with(yaml({"bodies:", "  - name: a", "    shape: {cube: 1}", "    mass: -1"}),
                         {"case.yaml:4: bodies[0].mass: must be positive, got -1"}));
  EXPECT_TRUE(fails_with(yaml({"bodies:", "  - name: a", "    shape: {cube: 1}", "    density: 0"}),
                         {"case.yaml:4: bodies[0].density: must be positive, got 0"}));
  EXPECT_TRUE(fails_with(yaml({"options: {h: 0}", "bodies: [{shape: {cube: 1}, mass: 1}]"}),
                         {"case.yaml:1: options.h: must be positive, got 0"}));
  EXPECT_TRUE(fails_with(yaml({"options:", "  duration: -2", "bodies: [{shape: {cube: 1}, mass: 1}]"}),
                         {"case.yaml:2: options.duration: must be positive, got -2"}));
  EXPECT_TRUE(fails_with(yaml({"options: {eps: -0.1}", "bodies: [{shape: {cube: 1}, mass: 1}]"}),
                         {"options.eps: must not be negative, got -0.1"}));
  EXPECT_TRUE(fails_with(yaml({"options:", "  correction_tolerance: 0", "bodies: [{shape: {cube: 1}, mass: 1}]"}),
                         {"case.yaml:2: options.correction_tolerance: must be positive, got 0"}));
  EXPECT_TRUE(fails_with(yaml({"options: {correction_iterations: 0}", "bodies: [{shape: {cube: 1}, mass: 1}]"}),
                         {"options.correction_iterations"}));
  EXPECT_TRUE(fails_with(yaml({"options: {position_correction: maybe}", "bodies: [{shape: {cube: 1}, mass: 1}]"}),
                         {"options.position_correction"}));
  EXPECT_TRUE(fails_with(yaml({"options: {friction: -1}", "bodies: [{shape: {cube: 1}, mass: 1}]"}),
                         {"options.friction: must not be negative, got -1"}));
  EXPECT_TRUE(fails_with(yaml({"materials: [a]", "friction:", "  - {materials: [a, a], mu: -0.5}",
                               "bodies: [{shape: {cube: 1}, mass: 1}]"}),
                         {"case.yaml:3: friction[0].mu: must not be negative, got -0.5"}));
  EXPECT_TRUE(fails_with(yaml({"bodies:", "  - {shape: {box: [1, 0, 1]}, mass: 1}"}),
                         {"case.yaml:2: bodies[0].shape.box[1]: must be positive, got 0"}));
  EXPECT_TRUE(fails_with(yaml({"bodies:", "  - {shape: {cube: 1}, mass: 1, inertia: [1, 1, -1]}"}),
                         {"bodies[0].inertia[2]: must be positive, got -1"}));
}

TEST(SceneErrors, NotFiniteNumbers) {
  EXPECT_TRUE(fails_with(yaml({"options: {h: .nan}", "bodies: [{shape: {cube: 1}, mass: 1}]"}),
                         {"case.yaml:1: options.h: must be a finite number, got .nan"}));
  EXPECT_TRUE(fails_with(scene3d({"    position: [0, .inf, 0]"}),
                         {"case.yaml:9: bodies[1].position[1]: must be a finite number, got .inf"}));
  EXPECT_TRUE(fails_with(yaml({"bodies:", "  - {shape: {cube: 1}, mass: nan}"}),
                         {"bodies[0].mass: must be a finite number, got nan"}));
  EXPECT_TRUE(fails_with(yaml({"bodies:", "  - {shape: {cube: 1}, mass: 1e999}"}),
                         {"bodies[0].mass: must be a finite number, got 1e999"}));
  EXPECT_TRUE(fails_with(yaml({"options: {gravity: [0, 0, -inf]}", "bodies: [{shape: {cube: 1}, mass: 1}]"}),
                         {"options.gravity[2]: must be a finite number, got -inf"}));
  EXPECT_TRUE(fails_with(scene3d({"    velocity: [0, 0, -.INF]"}), {"bodies[1].velocity[2]: must be a finite number"}));
}

TEST(SceneErrors, DegenerateOrNonConvexGeometry) {
  const char* planar = "options: {dimension: 2}";
  EXPECT_TRUE(fails_with(yaml({planar, "bodies:", "  - {shape: {polygon: [[0, 0], [1, 0], [2, 0]]}, mass: 1}"}),
                         {"case.yaml:3: bodies[0].shape.polygon: invalid polygon"}));
  EXPECT_TRUE(fails_with(yaml({planar, "bodies:",
                               "  - {shape: {polygon: [[0, 0], [2, 0], [1, 0.5], [2, 2], [0, 2]]}, mass: 1}"}),
                         {"case.yaml:3: bodies[0].shape.polygon: invalid polygon"}));
  EXPECT_TRUE(fails_with(yaml({planar, "bodies:", "  - {shape: {polygon: [[0, 0], [0, 1], [1, 1], [1, 0]]}, mass: 1}"}),
                         {"case.yaml:3: bodies[0].shape.polygon: invalid polygon"}));
  EXPECT_TRUE(fails_with(yaml({planar, "bodies:", "  - {shape: {hull: [[0, 0], [1, 1], [2, 2]]}, mass: 1}"}),
                         {"case.yaml:3: bodies[0].shape.hull: invalid hull"}));
  EXPECT_TRUE(fails_with(yaml({"shapes:", "  flat: {hull: [[0, 0, 0], [1, 0, 0], [0, 1, 0], [1, 1, 0]]}",
                               "bodies: [{shape: flat, mass: 1}]"}),
                         {"case.yaml:2: shapes.flat.hull: invalid hull"}));
  // a tetrahedron with a face missing: not closed
  EXPECT_TRUE(fails_with(yaml({"shapes:", "  open:", "    polyhedron:",
                               "      vertices: [[0, 0, 0], [1, 0, 0], [0, 1, 0], [0, 0, 1]]",
                               "      faces: [[0, 2, 1], [0, 1, 3], [0, 3, 2]]",
                               "bodies: [{shape: open, mass: 1}]"}),
                         {"case.yaml:4: shapes.open.polyhedron: invalid polyhedron"}));
  // a closed but dented solid: the tetrahedron A B C P with its base replaced by a cone to Q
  // inside it (Q is a reflex vertex)
  EXPECT_TRUE(fails_with(yaml({"shapes:", "  dart:", "    polyhedron:",
                               "      vertices: [[0, 0, 0], [2, 0, 0], [0, 2, 0], [0.5, 0.5, 2], [0.5, 0.5, 1]]",
                               "      faces: [[0, 1, 3], [1, 2, 3], [2, 0, 3], [1, 0, 4], [2, 1, 4], [0, 2, 4]]",
                               "bodies: [{shape: dart, mass: 1}]"}),
                         {"shapes.dart.polyhedron: invalid polyhedron"}));
  EXPECT_TRUE(fails_with(yaml({"shapes:", "  bad:", "    polyhedron:",
                               "      vertices: [[0, 0, 0], [1, 0, 0], [0, 1, 0], [0, 0, 1]]",
                               "      faces: [[0, 2, 7], [0, 1, 3], [0, 3, 2], [1, 2, 3]]",
                               "bodies: [{shape: bad, mass: 1}]"}),
                         {"case.yaml:5: shapes.bad.polyhedron.faces[0][2]: vertex index out of range (0..3), got 7"}));
}

TEST(SceneErrors, DuplicateNames) {
  EXPECT_TRUE(fails_with(scene3d({"  - name: box", "    shape: {cube: 1}", "    mass: 1"}),
                         {"case.yaml:9: bodies[2].name: duplicate body name 'box' (first used at line 6)"}));
  EXPECT_TRUE(fails_with(yaml({"shapes:", "  a: {cube: 1}", "  a: {cube: 2}", "bodies: [{shape: a, mass: 1}]"}),
                         {"case.yaml:3: shapes.a: duplicate shape name 'a' (first given at line 2)"}));
  EXPECT_TRUE(fails_with(yaml({"materials:", "  - steel", "  - {name: steel}", "bodies: [{shape: {cube: 1}, mass: 1}]"}),
                         {"case.yaml:3: materials[1].name: duplicate material name 'steel' (first given at line 2)"}));
  EXPECT_TRUE(fails_with(yaml({"materials: [default]", "bodies: [{shape: {cube: 1}, mass: 1}]"}),
                         {"case.yaml:1: materials[0]: 'default' is the built-in material"}));
  EXPECT_TRUE(fails_with(yaml({"materials: [a, b]", "friction:", "  - {materials: [a, b], mu: 0.1}",
                               "  - {materials: [b, a], mu: 0.2}", "bodies: [{shape: {cube: 1}, mass: 1}]"}),
                         {"case.yaml:4: friction[1].materials: duplicate friction pair (first given at line 3)"}));
}

TEST(SceneErrors, UnknownReferences) {
  EXPECT_TRUE(fails_with(yaml({"bodies:", "  - {shape: peg, mass: 1}"}),
                         {"case.yaml:2: bodies[0].shape: unknown shape 'peg'"}));
  EXPECT_TRUE(fails_with(yaml({"shapes: {hole: {cube: 2}}", "bodies:", "  - {shape: peg, mass: 1}"}),
                         {"case.yaml:3: bodies[0].shape: unknown shape 'peg' (shapes: hole)"}));
  EXPECT_TRUE(fails_with(scene3d({"    material: gold"}),
                         {"case.yaml:9: bodies[1].material: unknown material 'gold' (materials: default)"}));
  EXPECT_TRUE(fails_with(yaml({"materials: [steel]", "friction:", "  - {materials: [steel, gold], mu: 0.1}",
                               "bodies: [{shape: {cube: 1}, mass: 1}]"}),
                         {"case.yaml:3: friction[0].materials[1]: unknown material 'gold' (materials: default, steel)"}));
}

TEST(SceneErrors, WrongDimension) {
  EXPECT_TRUE(fails_with(yaml({"options: {dimension: 2}", "bodies:", "  - {shape: {box: [1, 1, 1]}, mass: 1}"}),
                         {"case.yaml:3: bodies[0].shape.box: 3D shape in a 2D scene"}));
  EXPECT_TRUE(fails_with(yaml({"options: {dimension: 3}", "shapes:", "  s: {rectangle: [1, 1]}",
                               "bodies: [{shape: s, mass: 1}]"}),
                         {"case.yaml:3: shapes.s.rectangle: 2D shape in a 3D scene"}));
  EXPECT_TRUE(fails_with(yaml({"bodies:", "  - {shape: {half_plane: {normal: [0, 1]}}, static: true}"}),
                         {"bodies[0].shape.half_plane: 2D shape in a 3D scene"}));
  EXPECT_TRUE(fails_with(scene3d({"    theta: 0.5"}), {"case.yaml:9: bodies[1].theta: 2D field in a 3D scene"}));
  EXPECT_TRUE(fails_with(yaml({"options: {dimension: 2}", "bodies:", "  - shape: {rectangle: [1, 1]}",
                               "    mass: 1", "    orientation: [1, 0, 0, 0]"}),
                         {"case.yaml:5: bodies[0].orientation: 3D field in a 2D scene"}));
  EXPECT_TRUE(fails_with(yaml({"options: {dimension: 2, gravity: [0, 0, -9.81]}", "bodies: [{shape: {rectangle: [1, 1]}, mass: 1}]"}),
                         {"case.yaml:1: options.gravity: a 2D scene's gravity is [x, y]"}));
  EXPECT_TRUE(fails_with(yaml({"options: {gravity: [0, -9.81]}", "bodies: [{shape: {cube: 1}, mass: 1}]"}),
                         {"options.gravity: expected a list of 3 items, got a list of 2"}));
  EXPECT_TRUE(fails_with(yaml({"options: {dimension: 2}", "bodies:",
                               "  - {shape: {hull: [[0, 0, 0], [1, 0, 0], [0, 1, 0]]}, mass: 1}"}),
                         {"bodies[0].shape.hull[0]: expected a list of 2 items, got a list of 3"}));
  EXPECT_TRUE(fails_with(yaml({"options: {dimension: 2}", "bodies:",
                               "  - {shape: {rectangle: [1, 1]}, mass: 1, angular_velocity: [0, 0, 1]}"}),
                         {"bodies[0].angular_velocity: expected a number, got a list"}));
}

TEST(SceneErrors, HalfSpaceOnDynamicBody) {
  EXPECT_TRUE(fails_with(yaml({"bodies:", "  - name: floor", "    shape: {half_space: {normal: [0, 0, 1]}}"}),
                         {"case.yaml:3: bodies[0].shape: a half-space can only belong to a static body"}));
  EXPECT_TRUE(fails_with(yaml({"bodies:", "  - {shape: {half_space: {normal: [0, 0, 0]}}, static: true}"}),
                         {"bodies[0].shape.half_space.normal: must not be the zero vector"}));
  EXPECT_TRUE(fails_with(yaml({"bodies:", "  - {shape: {half_space: {normal: [0, 0, 1]}}, static: true, mass: 1}"}),
                         {"bodies[0].mass: a half-space has no mass properties"}));
}

TEST(SceneErrors, Orientation) {
  EXPECT_TRUE(fails_with(scene3d({"    orientation: [0, 0, 0, 0]"}),
                         {"case.yaml:9: bodies[1].orientation: a quaternion [w, x, y, z] must not be zero"}));
  EXPECT_TRUE(fails_with(scene3d({"    orientation: [1, 0, 0, 0.1]"}),
                         {"case.yaml:9: bodies[1].orientation: must be a unit quaternion [w, x, y, z] (|q| = 1.004988"}));
  EXPECT_TRUE(fails_with(scene3d({"    orientation: {quaternion: [2, 0, 0, 0]}"}),
                         {"bodies[1].orientation.quaternion: must be a unit quaternion"}));
  EXPECT_TRUE(fails_with(scene3d({"    orientation: {axis_angle: [0, 0, 0, 1]}"}),
                         {"bodies[1].orientation.axis_angle: the rotation axis must not be the zero vector"}));
  EXPECT_TRUE(fails_with(scene3d({"    orientation: 0.5"}), {"bodies[1].orientation: expected [w, x, y, z] or a map"}));
}

TEST(SceneErrors, MassAndMotion) {
  EXPECT_TRUE(fails_with(scene3d({"    mass: 2"}), {"case.yaml:9: bodies[1].mass: give either mass or density, not both"}));
  EXPECT_TRUE(fails_with(scene3d({"    inertia: [1, 1, 1]"}), {"case.yaml:9: bodies[1].inertia: inertia goes with mass"}));
  EXPECT_TRUE(fails_with(yaml({"bodies:", "  - {shape: {cube: 1}, mass: 1, inertia: [[1, 0, 0], [0.5, 1, 0], [0, 0, 1]]}"}),
                         {"bodies[0].inertia: an inertia matrix must be symmetric"}));
  EXPECT_TRUE(fails_with(yaml({"bodies:", "  - {shape: {cube: 1}, mass: 1, inertia: [[1, 2, 0], [2, 1, 0], [0, 0, 1]]}"}),
                         {"bodies[0].inertia: an inertia matrix must be positive definite"}));
  EXPECT_TRUE(fails_with(yaml({"bodies:", "  - name: a", "    shape: {cube: 1}", "    static: true", "    velocity: [1, 0, 0]"}),
                         {"case.yaml:5: bodies[0].velocity: a static body does not move"}));
}

TEST(SceneErrors, KinematicBodies) {
  EXPECT_TRUE(fails_with(yaml({"bodies:", "  - {shape: {half_space: {normal: [0, 0, 1]}}, kinematic: true}"}),
                         {"case.yaml:2: bodies[0].kinematic: a half-space cannot move"}));
  EXPECT_TRUE(fails_with(yaml({"bodies:", "  - {shape: {cube: 1}, kinematic: true, static: false}"}),
                         {"bodies[0].kinematic: a kinematic body is static"}));
  EXPECT_TRUE(fails_with(yaml({"bodies:", "  - {name: belt, shape: {cube: 1}, kinematic: true, velocity: [1, 0, 0]}",
                               "  - {name: box, shape: {cube: 1}, mass: 1, position: [0, 0, 2]}", "joints:",
                               "  - {type: fixed, bodies: [belt, box], anchor: [0, 0, 1]}"}),
                         {"case.yaml:5: joints[0].bodies: a joint to kinematic body 'belt' is not supported yet"}));
  // moving is what a kinematic body is for
  const Scene s = load(yaml({"bodies:", "  - {shape: {cube: 1}, kinematic: true, velocity: [1, 0, 0],"
                                         " angular_velocity: [0, 0, 2]}"}));
  ASSERT_EQ(s.model.bodies.size(), 1u);
  EXPECT_TRUE(s.model.bodies[0].is_static && s.model.bodies[0].is_kinematic);
  EXPECT_EQ(s.state.bodies[0].linear_velocity, Vec3(1, 0, 0));
  EXPECT_EQ(s.state.bodies[0].angular_velocity, Vec3(0, 0, 2));
}

TEST(SceneErrors, FileNamesAndLinesFromFiles) {
  const std::string dir = PEGSIM_TEST_DATA_DIR;
  try {
    load_scene_file(dir + "/bad_mass.yaml");
    FAIL() << "loaded";
  } catch (const SceneError& e) {
    EXPECT_EQ(std::string(e.what()), dir + "/bad_mass.yaml:12: bodies[2].mass: must be positive, got -1");
  }
  try {
    load_scene_file(dir + "/no_such_scene.yaml");
    FAIL() << "loaded";
  } catch (const SceneError& e) {
    EXPECT_NE(std::string(e.what()).find(dir + "/no_such_scene.yaml: cannot open the scene file"), std::string::npos)
        << e.what();
  }
}

// A cheap fuzz: mangled versions of a valid scene either load or throw
// SceneError, never anything else.
TEST(SceneErrors, MangledScenesFailCleanly) {
  std::ifstream in(std::string(PEGSIM_TEST_DATA_DIR) + "/two_boxes.yaml");
  std::stringstream buffer;
  buffer << in.rdbuf();
  const std::string text = buffer.str();
  std::vector<std::string> variants;
  for (std::size_t n = 0; n < text.size(); n += 5) variants.push_back(text.substr(0, n));  // cut short
  std::vector<std::string> lines;
  std::istringstream line_stream(text);
  for (std::string line; std::getline(line_stream, line);) lines.push_back(line);
  const std::regex number(R"(-?[0-9][0-9.e-]*)");
  for (std::size_t i = 0; i < lines.size(); ++i) {
    auto joined = [&](const std::string& replacement) {
      std::string out;
      for (std::size_t j = 0; j < lines.size(); ++j) out += (j == i ? replacement : lines[j]) + "\n";
      return out;
    };
    variants.push_back(joined(""));  // a line dropped
    for (const char* junk : {"x", "-1", "0", ".nan", "[]", "{}", "[1, [2]]", "1e999", "~", "'3'"})
      variants.push_back(joined(std::regex_replace(lines[i], number, junk, std::regex_constants::format_first_only)));
  }
  int rejected = 0;
  for (const std::string& v : variants) {
    try {
      load_scene_string(v, "mangled.yaml");
    } catch (const SceneError& e) {
      ++rejected;
      EXPECT_EQ(std::string(e.what()).rfind("mangled.yaml:", 0), 0u) << e.what();
    } catch (const std::exception& e) {
      ADD_FAILURE() << "not a SceneError: " << e.what() << "\n" << v;
    }
  }
  EXPECT_GT(rejected, 100);
}

}  // namespace
}  // namespace pegsim::test
