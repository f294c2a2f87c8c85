// Hostile scenes (issue 17): each class of input gets a "FILE:LINE: field:"
// error naming the limit of io/scene_limits.hpp, before any step, or loads
// within its limit. Big inputs are generated here, never committed.
#include "scene_test_util.hpp"

#include "io/scene_limits.hpp"
#include "sim/statistics.hpp"
#include "sim/world.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <string>

namespace pegsim::test {
namespace {

// `text` with its first `from` replaced by `to`
std::string with(const std::string& text, const std::string& from, const std::string& to) {
  const std::size_t at = text.find(from);
  std::string out = text.substr(0, at);  // appended piecewise: GCC 12's -Wrestrict misfires on replace and + chains
  out += to;
  out += text.substr(at + from.size());
  return out;
}

// one dynamic box under `options:`, line 3 its body
std::string box_scene(const std::string& options, const std::string& body_fields = "") {
  std::string out = "options: {dimension: 3";
  out += options;
  out += "}\nbodies:\n  - {name: box, shape: {box: [1, 1, 1]}, mass: 1";  // lines 1-3
  out += body_fields;
  out += "}\n";
  return out;
}

// YAML "billion laughs": each anchor lists the one before ten times. yaml-cpp
// shares an alias's node (nothing is copied), and the loader meets the first
// anchor as an unknown key or a wrong shape before walking any of it.
TEST(SceneLimits, AliasBombIsRejectedWhereItStands) {
  std::string bomb = "a0: &a0 [x, x, x, x, x, x, x, x, x, x]\n";
  for (int i = 1; i < 12; ++i) {  // 10^12 leaves if expanded
    std::string name = "a", last = "a";
    name += std::to_string(i);
    last += std::to_string(i - 1);
    bomb += name;
    bomb += ": &";
    bomb += name;
    bomb += " [";
    for (int k = 0; k < 10; ++k) {
      bomb += k ? ", *" : "*";
      bomb += last;
    }
    bomb += "]\n";
  }
  EXPECT_TRUE(fails_with(bomb + "bodies: []\n", {"case.yaml:1: a0: unknown key"}));
  // the same anchors inside shapes: the first is not a shape map
  std::string shapes = "options: {dimension: 3}\nshapes:\n  ";
  for (char c : bomb) shapes += c == '\n' ? std::string("\n  ") : std::string(1, c);
  EXPECT_TRUE(fails_with(shapes + "bodies:\n  - {shape: a11, mass: 1}\n",
                         {"case.yaml:3: shapes.a0: expected a shape map"}));
  // aliases where a position's numbers go: reported at the anchor's line (5), where the list is written
  EXPECT_TRUE(fails_with("options: {dimension: 3}\nshapes:\n  s: {box: [1, 1, 1]}\n"
                         "bodies:\n  - {shape: s, mass: 1, position: &p [0, 0, 0]}\n"
                         "  - {shape: s, mass: 1, position: [*p, *p, *p]}\n",
                         {"case.yaml:5: bodies[1].position[0]: expected a number, got a list"}));
}

TEST(SceneLimits, DeepNestingIsAnErrorNotAStackOverflow) {
  const int depth = 10000;
  std::string lists = "bodies: ";
  lists.append(depth, '[');
  lists.append(depth, ']');
  lists += "\n";
  EXPECT_TRUE(fails_with(lists, {"case.yaml:1:", "YAML nesting too deep"}));
  std::string maps = "bodies: ";
  for (int i = 0; i < depth; ++i) maps += "{a: ";
  maps += "1";
  maps.append(depth, '}');
  maps += "\n";
  EXPECT_TRUE(fails_with(maps, {"case.yaml:1:", "YAML nesting too deep"}));
  std::string block = "bodies:\n";  // block sequences nested on one line: "- - - x"
  for (int i = 0; i < depth; ++i) block += "- ";
  block += "x\n";
  EXPECT_TRUE(fails_with(block, {"case.yaml:", "YAML nesting too deep"}));
}

TEST(SceneLimits, TextOverFourMegabytes) {
  const std::string text = box_scene("") + "#" + std::string(scene_limits::kMaxSceneBytes, ' ') + "\n";
  EXPECT_TRUE(fails_with(text, {"case.yaml: the scene text is larger than 4 MB"}));
}

TEST(SceneLimits, TimeStepDurationAndStepCount) {
  EXPECT_TRUE(fails_with(box_scene(", h: 1e-300"), {"case.yaml:1: options.h: must lie in [1e-09, 1] seconds"}));
  EXPECT_TRUE(fails_with(box_scene(", h: 2"), {"case.yaml:1: options.h: must lie in [1e-09, 1] seconds, got 2"}));
  // the step count overflowed a long and ran no step at all (exit 0)
  EXPECT_TRUE(fails_with(box_scene(", duration: 1e300"),
                         {"case.yaml:1: options.duration: duration / h", "more than the limit of 1e+09"}));
  EXPECT_TRUE(fails_with(box_scene(", h: 1e-9, duration: 2"), {"case.yaml:1: options.duration: duration / h", "2e+09 steps"}));
  EXPECT_TRUE(fails_with(box_scene(", duration: 1e-300"),
                         {"case.yaml:1: options.duration: duration 1e-300 s is shorter than half a step"}));
  // at the limit: h 1e-9 over a second is 1e9 steps, allowed
  EXPECT_EQ(scene_error(box_scene(", h: 1e-9, duration: 1")), "(loaded)");
}

// n_d * contacts overflowed an int at 1e9; 1e5 asked for a 1.28 TB dense A
TEST(SceneLimits, FrictionDirections) {
  for (const char* nd : {"1000000000", "100000", "65"})
    EXPECT_TRUE(fails_with(box_scene(std::string(", friction_directions: ") + nd),
                           {"case.yaml:1: options.friction_directions: must be at most 64"}))
        << nd;
  EXPECT_TRUE(fails_with(box_scene(", friction_directions: 10000000000"),
                         {"case.yaml:1: options.friction_directions: integer out of range"}));
  EXPECT_EQ(load(box_scene(", friction_directions: 64")).model.options.friction_directions, 64);
}

// sides 1e9 allocated 2 GB before bad_alloc
TEST(SceneLimits, PolygonAndPrismSides) {
  EXPECT_TRUE(fails_with("options: {dimension: 3}\nbodies:\n"
                         "  - {shape: {prism: {sides: 1000000000, radius: 1, height: 1}}, mass: 1}\n",
                         {"case.yaml:3: bodies[0].shape.prism.sides: must be at most 256"}));
  EXPECT_TRUE(fails_with("options: {dimension: 2}\nbodies:\n"
                         "  - {shape: {regular_polygon: {sides: 257, radius: 1}}, mass: 1}\n",
                         {"case.yaml:3: bodies[0].shape.regular_polygon.sides: must be at most 256"}));
  // at the limit it loads, with the polygon's area that of a regular n-gon of
  // circumradius 1, n sin(2 pi / n) / 2, within 1e-4 of the circle's pi
  const Scene s = load("options: {dimension: 2}\nbodies:\n"
                       "  - {shape: {regular_polygon: {sides: 256, radius: 1}}, density: 1}\n");
  EXPECT_NEAR(s.model.bodies[0].mass, 128.0 * std::sin(2.0 * M_PI / 256.0), 1e-12);
  EXPECT_NEAR(s.model.bodies[0].mass, M_PI, 4e-4);
}

// a 1e6-point hull took 25 s and 2.1 GB; the YAML values are counted before any
// node tree is built, the point list is refused by its length
TEST(SceneLimits, HullPointsAndYamlValues) {
  std::string many = "options: {dimension: 3}\nbodies:\n  - {shape: {hull: [";
  for (std::size_t i = 0; i < scene_limits::kMaxYamlValues / 4 + 1; ++i) many += i ? ", [0, 0, 0]" : "[0, 0, 0]";
  many += "]}, mass: 1}\n";
  EXPECT_TRUE(fails_with(many, {"case.yaml:3: the scene holds more than 500000 YAML values"}));
  std::string hull = "[";  // aliases of the first point keep the text (and the parse) small
  for (std::size_t i = 0; i <= scene_limits::kMaxShapePoints; ++i) hull += i ? ", *p" : "&p [0, 0, 0]";
  hull += "]";
  EXPECT_TRUE(fails_with("options: {dimension: 3}\nshapes:\n  h: {hull: " + hull + "}\nbodies:\n  - {shape: h, mass: 1}\n",
                         {"case.yaml:3: shapes.h.hull: 100001 points, more than the limit of 100000"}));
  EXPECT_TRUE(fails_with("options: {dimension: 3}\nbodies:\n"
                         "  - {shape: {hull: [[0, 0, 0], [1, 0, 0], [0, 1, 0], [0, 0, 1e300]]}, mass: 1}\n",
                         {"case.yaml:3: bodies[0].shape.hull[3]: must be at most 1e+06 m"}));
}

TEST(SceneLimits, LengthsMassesAndInertias) {
  EXPECT_TRUE(fails_with("options: {dimension: 3}\nbodies:\n  - {shape: {box: [1e300, 1, 1]}, mass: 1}\n",
                         {"case.yaml:3: bodies[0].shape.box[0]: must be at most 1e+06 m"}));
  // mass 1e308 and 1e-320 passed the loader and failed at step 0 without file or field
  EXPECT_TRUE(fails_with(with(box_scene(""), "mass: 1", "mass: 1e308"),
                         {"case.yaml:3: bodies[0].mass: the mass must lie in [1e-09, 1e+09] kg"}));
  EXPECT_TRUE(fails_with(with(box_scene(""), "mass: 1", "mass: 1e-320"),
                         {"case.yaml:3: bodies[0].mass: the mass must lie in [1e-09, 1e+09] kg", "got 9.99989e-321"}));
  EXPECT_TRUE(fails_with("options: {dimension: 3}\nbodies:\n  - {shape: {box: [1, 1, 1]}, density: 1e308}\n",
                         {"case.yaml:3: bodies[0].density: the mass must lie in"}));
  EXPECT_TRUE(fails_with(box_scene("", ", inertia: [1e-320, 1, 1]"),
                         {"case.yaml:3: bodies[0].inertia: the principal moments of inertia must lie in"}));
}

// positions, velocities or gravity near 1e300 printed inf/nan summaries with "failures 0"
TEST(SceneLimits, StateAndGravityMagnitudes) {
  EXPECT_TRUE(fails_with(box_scene("", ", position: [1e300, 0, 0]"),
                         {"case.yaml:3: bodies[0].position: must be at most 1e+06 m"}));
  EXPECT_TRUE(fails_with(box_scene("", ", velocity: [1e300, 0, 0]"),
                         {"case.yaml:3: bodies[0].velocity: must be at most 1e+06 m/s"}));
  EXPECT_TRUE(fails_with(box_scene("", ", angular_velocity: [0, 0, 1e300]"),
                         {"case.yaml:3: bodies[0].angular_velocity: must be at most 1e+06 rad/s"}));
  EXPECT_TRUE(fails_with(box_scene("") + "joints:\n  - {type: spherical, bodies: [box, world], anchor: [1e300, 0, 0]}\n",
                         {"case.yaml:5: joints[0].anchor: must be at most 1e+06 m in size", "got one of size 1e+300"}));
  EXPECT_TRUE(fails_with(box_scene(", gravity: [0, 0, -1e300]"),
                         {"case.yaml:1: options.gravity: |gravity| must be at most 1e+06 m/s^2"}));
}

// subnormal numbers are numbers: a subnormal offset loads and steps finite; a
// subnormal length is a degenerate shape, reported at its field
TEST(SceneLimits, Denormals) {
  Scene s = load(box_scene(", h: 0.005, duration: 0.05", ", position: [4.9e-324, 0, 0], velocity: [1e-310, 0, 0]"));
  World world(std::move(s.model), std::move(s.state));
  for (int i = 0; i < 10; ++i) world.step();
  const BodyState& b = world.state().bodies[0];
  EXPECT_TRUE(b.pose.position.allFinite() && b.linear_velocity.allFinite());
  // free fall: z = -g t^2 / 2 after 10 semi-implicit steps is -g h^2 (1 + ... + 10) = -g h^2 55
  EXPECT_NEAR(b.pose.position.z(), -9.81 * 0.005 * 0.005 * 55.0, 1e-12);
  EXPECT_TRUE(fails_with("options: {dimension: 3}\nbodies:\n  - {shape: {box: [1e-320, 1, 1]}, mass: 1}\n",
                         {"case.yaml:3: bodies[0].shape.box: invalid box"}));
}

TEST(SceneLimits, UnicodeNamesLoadControlCharactersDoNot) {
  const Scene s = load("options: {dimension: 3}\nmaterials: [\"bois\xc3\xa9\", \"\xe6\x9c\xa8\"]\n"
                       "bodies:\n  - {name: \"\xe7\xae\xb1\xf0\x9f\x93\xa6\", shape: {box: [1, 1, 1]}, mass: 1, "
                       "material: \"\xe6\x9c\xa8\"}\n");
  EXPECT_EQ(s.model.bodies[0].name, "\xe7\xae\xb1\xf0\x9f\x93\xa6");
  EXPECT_EQ(s.model.materials[s.model.bodies[0].material.index].name, "\xe6\x9c\xa8");
  EXPECT_TRUE(fails_with(with(box_scene(""), "name: box", "name: \"b\\0x\""),
                         {"case.yaml:3: bodies[0].name: a name must not hold control characters (byte 0x00 at 1)"}));
  EXPECT_TRUE(fails_with(with(box_scene(""), "name: box", "name: \"b\\tx\""),
                         {"case.yaml:3: bodies[0].name: a name must not hold control characters (byte 0x09"}));
  EXPECT_TRUE(fails_with(with(box_scene(""), "name: box", "name: b\xff"),
                         {"case.yaml:3: bodies[0].name: a name must be UTF-8 text"}));
}

// 1000 materials took 7 s (the friction table copied on every add); now one copy
TEST(SceneLimits, ManyMaterials) {
  std::string text = "options: {dimension: 3, friction: 0.25}\nmaterials:\n";
  for (int i = 0; i < 1000; ++i) text += "  - m" + std::to_string(i) + "\n";
  text += "friction:\n  - {materials: [m3, m998], mu: 0.75}\n";
  text += "bodies:\n  - {shape: {box: [1, 1, 1]}, mass: 1, material: m999}\n";
  const Scene s = load(text);
  ASSERT_EQ(s.model.materials.size(), 1001u);  // with default
  const auto id = [&](int i) { return MaterialId{static_cast<std::uint32_t>(i + 1)}; };
  EXPECT_EQ(s.model.mu(id(3), id(998)), 0.75);
  EXPECT_EQ(s.model.mu(id(998), id(3)), 0.75);
  EXPECT_EQ(s.model.mu(id(3), id(997)), 0.25);
  EXPECT_EQ(s.model.mu(MaterialId{0}, id(999)), 0.25);
  std::string over = "options: {dimension: 3}\nmaterials:\n";
  for (std::size_t i = 0; i < scene_limits::kMaxMaterials; ++i) over += "  - m" + std::to_string(i) + "\n";
  EXPECT_TRUE(fails_with(over + "bodies:\n  - {shape: {box: [1, 1, 1]}, mass: 1}\n",
                         {"case.yaml:3: materials: 1024 materials, more than the limit of 1023"}));
}

TEST(SceneLimits, BodyCount) {
  std::string text = "options: {dimension: 3}\nshapes:\n  c: {box: [1, 1, 1]}\nbodies:\n";
  for (std::size_t i = 0; i <= scene_limits::kMaxBodies; ++i) text += "  - {shape: c, mass: 1}\n";
  EXPECT_TRUE(fails_with(text, {"case.yaml:5: bodies: 10001 bodies, more than the limit of 10000"}));
}

// A figure of the run that overflows (here a finite speed whose kinetic
// energy is inf) is a counted failure that the summary states, never a
// summary of inf and nan with "failures 0".
TEST(SceneLimits, NonFiniteFiguresAreCountedFailures) {
  Scene s = load(box_scene(", h: 0.005"));
  State initial = s.state;
  RunStatistics stats(s.model, initial);
  State later = initial;
  later.bodies[0].linear_velocity = Vec3(1e200, 0.0, 0.0);  // finite state, m v^2 / 2 = inf
  StepReport report;
  report.reset(0);
  report.max_penetration = 0.0;  // measured by the step (NaN when not asked for)
  stats.on_step(s.model, later, report);
  later.bodies[0].linear_velocity = Vec3(1.0, 0.0, 0.0);
  report.reset(1);
  report.max_penetration = 0.0;
  stats.on_step(s.model, later, report);
  EXPECT_EQ(stats.non_finite_steps, 1);
  EXPECT_EQ(stats.first_non_finite_step, 0);
  EXPECT_EQ(stats.first_non_finite_what, "energy");
  EXPECT_NE(stats.summary(0.0).find("non-finite            1 steps with a non-finite energy"), std::string::npos)
      << stats.summary(0.0);
  RunStatistics clean(s.model, initial);
  report.reset(0);
  report.max_penetration = 0.0;  // measured by the step (NaN when not asked for)
  clean.on_step(s.model, initial, report);
  EXPECT_EQ(clean.non_finite_steps, 0);
  EXPECT_EQ(clean.summary(0.0).find("non-finite"), std::string::npos);
}

}  // namespace
}  // namespace pegsim::test
