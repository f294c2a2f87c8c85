// grasp-2d scenes (grasp_2d.hpp): YAML text written from a seed.
#include "io/grasp_2d.hpp"

#include "geometry/mass_properties.hpp"
#include "geometry/polygon.hpp"
#include "io/seeded_text.hpp"

#include <cmath>
#include <cstdio>
#include <numbers>
#include <random>
#include <stdexcept>
#include <vector>

namespace pegsim {
namespace {

using seeded::Uniform;
const auto num = seeded::number;

constexpr double kGroundTop = 0.155;    // the ground's top face
constexpr double kGripperBottom = 0.245;  // the palm's and the flat fingers' lower faces
constexpr double kClearance = 0.002;    // a drawn polygon must keep this far from both
constexpr double kScale = 0.25 * 0.28;  // RPIsim: generateBodySets' 0.25 times the driver's 0.28
const Vec2 kObjectCentre(0.0, 0.2);

// One draw: the hull's vertices (counter-clockwise) about its area centroid, turned.
std::vector<Vec2> draw_polygon(Uniform& uniform) {
  std::vector<Vec2> points(10);
  Vec2 mean = Vec2::Zero();
  for (Vec2& p : points) {
    const double x = uniform(), y = uniform();
    p = Vec2(x, y);
    mean += p;
  }
  mean /= static_cast<double>(points.size());
  for (Vec2& p : points) p = (p - mean) * kScale;
  const double angle = 2.0 * std::numbers::pi * uniform();
  const double c = std::cos(angle), s = std::sin(angle);
  for (Vec2& p : points) p = Vec2(c * p.x() - s * p.y(), s * p.x() + c * p.y());
  Polygon hull = polygon_hull(points);  // throws GeometryError on collinear points
  const Vec3 centroid = mass_properties(hull, 1.0).centre_of_mass;
  hull.translate(Vec2(centroid.x(), centroid.y()));
  return hull.vertices;
}

bool clear_of_ground_and_gripper(const std::vector<Vec2>& vertices) {
  for (const Vec2& v : vertices) {
    const double y = kObjectCentre.y() + v.y();
    if (y < kGroundTop + kClearance || y > kGripperBottom - kClearance) return false;
  }
  return true;
}

std::string polygon_yaml(const std::vector<Vec2>& vertices) {
  std::string s = "[";
  for (std::size_t i = 0; i < vertices.size(); ++i) {
    char point[96];
    std::snprintf(point, sizeof point, "%s[%.17g, %.17g]", i ? ", " : "", vertices[i].x(), vertices[i].y());
    s += point;
  }
  s += ']';
  return s;
}

}  // namespace

std::string grasp_2d_yaml(const Grasp2dOptions& o, std::uint64_t seed, int* redraws) {
  if (!(o.h > 0) || !(o.duration > 0) || !(o.friction >= 0))
    throw std::invalid_argument("grasp-2d: needs h > 0, duration > 0 and friction >= 0");
  Uniform uniform(seed);
  std::vector<Vec2> object = draw_polygon(uniform);
  int rejected = 0;
  for (; !clear_of_ground_and_gripper(object); ++rejected) {
    if (rejected == 1000) throw std::runtime_error("grasp-2d: no polygon clear of the gripper in 1000 draws");
    object = draw_polygon(uniform);
  }
  if (redraws) *redraws = rejected;

  const std::string s = std::to_string(seed);
  std::string y;
  y += "# grasp-2d, polygon seed " + s + " (thesis 5.2.5-5.2.6; src/io/grasp_2d.hpp has every number's source)\n";
  if (rejected) y += "# " + std::to_string(rejected) + " earlier draw(s) of this seed came within 2 mm of the ground or gripper\n";
  y += "options:\n  name: grasp-2d-seed-" + s + "\n  dimension: 2\n";
  y += "  h: " + num(o.h) + "\n  duration: " + num(o.duration) + "\n";
  y += "  eps: auto\n  model: " + o.model + "\n  friction: " + num(o.friction) + "\n";
  y += "  solver_chain: [path, lemke]\n  gravity: [0, -9.8]\n";
  y += "bodies:\n";
  y += "  - {name: ground, static: true, shape: {rectangle: [0.3, 0.03]}, position: [0, 0.14]}\n";
  y += "  - {name: palm, static: true, shape: {rectangle: [0.05, 0.01]}, position: [0, 0.25]}\n";
  // (appended piecewise: GCC 12's -Wrestrict misfires on chains of operator+ here)
  const struct {
    const char* name;
    const char* x;
  } links[] = {{"f1", "0.05"}, {"f2", "-0.05"}, {"f3", "0.10"}, {"f4", "-0.10"}};
  for (const auto& l : links) {
    y += "  - {name: ";
    y += l.name;
    y += ", shape: {rectangle: [0.05, 0.01]}, mass: 0.2, inertia: 0.005, position: [";
    y += l.x;
    y += ", 0.25]}\n";
  }
  y += "  - {name: object, mass: 0.1, inertia: 1e-4, position: [";
  y += num(kObjectCentre.x());
  y += ", ";
  y += num(kObjectCentre.y());
  y += "], shape: {polygon: ";
  y += polygon_yaml(object);
  y += "}}\n";
  y += "joints:\n";
  y += "  - {name: j1, type: revolute, bodies: [palm, f1], anchor: [0.025, 0.25]}\n";
  y += "  - {name: j2, type: revolute, bodies: [palm, f2], anchor: [-0.025, 0.25]}\n";
  y += "  - {name: j3, type: revolute, bodies: [f1, f3], anchor: [0.075, 0.25]}\n";
  y += "  - {name: j4, type: revolute, bodies: [f2, f4], anchor: [-0.075, 0.25]}\n";
  // robotArm2D: 1 rad/s ramps saturating at pi/2, the right finger (j1, j3) clockwise
  y += "controllers:\n";
  for (const char* joint : {"j1", "j2", "j3", "j4"}) {
    const bool right = joint[1] == '1' || joint[1] == '3';
    y += "  - {joint: ";
    y += joint;
    y += ", kp: 5, kd: 0.09, derivative: error, target: {expression: ";
    y += right ? "'max(-t, -pi / 2)'" : "'min(t, pi / 2)'";
    y += "}}\n";
  }
  return y;
}

Scene grasp_2d_scene(const Grasp2dOptions& options, std::uint64_t seed) {
  return load_scene_string(grasp_2d_yaml(options, seed), "<grasp-2d seed " + std::to_string(seed) + ">");
}

}  // namespace pegsim
