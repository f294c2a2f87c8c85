// Valid scenes: mass properties, placement of shapes, options, materials.
#include "common/test_paths.hpp"

#include "scene_test_util.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace pegsim::test {
namespace {

constexpr double kTol = 1e-9;

void expect_near(const Vec3& a, const Vec3& b, double tol = kTol) {
  EXPECT_LT((a - b).norm(), tol) << a.transpose() << " vs " << b.transpose();
}

void expect_near(const Quat& a, const Quat& b, double tol = kTol) {
  EXPECT_LT(std::min((a.coeffs() - b.coeffs()).norm(), (a.coeffs() + b.coeffs()).norm()), tol)
      << a.coeffs().transpose() << " vs " << b.coeffs().transpose();
}

TEST(SceneLoad, BoxWithDensityHasAnalyticMassProperties) {
  const Scene s = load(
      "bodies:\n"
      "  - {name: brick, shape: {box: [0.2, 0.4, 0.6]}, density: 1000, position: [1, 2, 3]}\n");
  ASSERT_EQ(s.model.bodies.size(), 1u);
  const BodyModel& b = s.model.bodies[0];
  const double m = 1000 * 0.2 * 0.4 * 0.6;
  EXPECT_NEAR(b.mass, m, kTol * m);
  const Mat3 expected = Vec3(m / 12 * (0.16 + 0.36), m / 12 * (0.04 + 0.36), m / 12 * (0.04 + 0.16)).asDiagonal();
  EXPECT_LT((b.inertia - expected).norm(), kTol * m);
  expect_near(s.state.bodies[0].pose.position, Vec3(1, 2, 3));
  EXPECT_FALSE(b.is_static);
  EXPECT_EQ(b.name, "brick");
}

TEST(SceneLoad, MassWithoutInertiaScalesTheUnitDensityInertia) {
  const Scene s = load("bodies: [{shape: {box: [1, 2, 3]}, mass: 6}]\n");
  const BodyModel& b = s.model.bodies[0];
  EXPECT_DOUBLE_EQ(b.mass, 6.0);
  const Mat3 expected = Vec3(0.5 * 13, 0.5 * 10, 0.5 * 5).asDiagonal();
  EXPECT_LT((b.inertia - expected).norm(), 1e-9);
}

TEST(SceneLoad, GivenInertiaIsUsed) {
  const Scene diag = load("bodies: [{shape: {cube: 1}, mass: 2, inertia: [1, 2, 3]}]\n");
  EXPECT_LT((diag.model.bodies[0].inertia - Mat3(Vec3(1, 2, 3).asDiagonal())).norm(), 1e-15);
  const Scene full = load("bodies: [{shape: {cube: 1}, mass: 2, inertia: [[2, 0.1, 0], [0.1, 2, 0], [0, 0, 1]]}]\n");
  Mat3 expected;
  expected << 2, 0.1, 0, 0.1, 2, 0, 0, 0, 1;
  EXPECT_LT((full.model.bodies[0].inertia - expected).norm(), 1e-15);
}

TEST(SceneLoad, ShapeOffsetFromItsCentroidIsPlacedWhereTheSceneSays) {
  // a 2 x 1 x 0.5 box given by corners in [0, 2] x [0, 1] x [0, 0.5]: centroid (1, 0.5, 0.25)
  const Scene s = load(
      "shapes:\n"
      "  corner_box: {hull: [[0, 0, 0], [2, 0, 0], [0, 1, 0], [2, 1, 0],\n"
      "                      [0, 0, 0.5], [2, 0, 0.5], [0, 1, 0.5], [2, 1, 0.5]]}\n"
      "bodies:\n"
      "  - shape: corner_box\n"
      "    density: 2\n"
      "    position: [1, -1, 2]\n"
      "    orientation: {axis_angle: [1, 2, 3, 0.7]}\n");
  const BodyModel& b = s.model.bodies[0];
  const BodyState& st = s.state.bodies[0];
  const Quat r(Eigen::AngleAxisd(0.7, Vec3(1, 2, 3).normalized()));
  EXPECT_NEAR(b.mass, 2.0, 1e-12);
  expect_near(st.pose.position, Vec3(1, -1, 2) + r * Vec3(1, 0.5, 0.25));
  expect_near(st.pose.orientation, r);
  // every vertex of the body, moved to the world, is a corner the scene placed
  const auto& poly = std::get<Polyhedron>(b.shape);
  ASSERT_EQ(poly.vertices.size(), 8u);
  for (const Vec3& v : poly.vertices) {
    const Vec3 local = r.conjugate() * (st.pose.to_world(v) - Vec3(1, -1, 2));  // back in the shape frame
    for (int i = 0; i < 3; ++i) {
      const double corner = i == 0 ? 2.0 : (i == 1 ? 1.0 : 0.5);
      EXPECT_TRUE(std::abs(local[i]) < 1e-9 || std::abs(local[i] - corner) < 1e-9) << local.transpose();
    }
  }
  // the body frame's origin is the centre of mass
  Vec3 mean = Vec3::Zero();
  for (const Vec3& v : poly.vertices) mean += v / 8.0;
  expect_near(mean, Vec3::Zero());
}

TEST(SceneLoad, PlanarTriangleWithMassAndInertia) {
  // thesis 5.2.1's dynamic triangle: side 2.45 m, 1 kg, 0.6495 kg m^2, given from a corner
  const double side = 2.45, height = side * std::sqrt(3.0) / 2;
  std::ostringstream yaml;
  yaml.precision(17);
  yaml << "options: {dimension: 2}\n"
       << "bodies:\n"
       << "  - shape: {polygon: [[0, 0], [" << side << ", 0], [" << side / 2 << ", " << height << "]]}\n"
       << "    mass: 1\n    inertia: 0.6495\n    position: [3, 4]\n    theta: 0.3\n"
       << "    velocity: [1, -2]\n    angular_velocity: 0.5\n";
  const Scene s = load(yaml.str());
  const BodyModel& b = s.model.bodies[0];
  const BodyState& st = s.state.bodies[0];
  EXPECT_EQ(s.model.options.dimension, Dimension::Planar);
  expect_near(s.model.options.gravity, Vec3(0, -9.81, 0));
  EXPECT_DOUBLE_EQ(b.mass, 1.0);
  EXPECT_DOUBLE_EQ(b.inertia(2, 2), 0.6495);
  const Vec3 centroid(side / 2, height / 3, 0);
  const Quat r(Eigen::AngleAxisd(0.3, Vec3::UnitZ()));
  expect_near(st.pose.position, Vec3(3, 4, 0) + r * centroid);
  expect_near(st.pose.orientation, r);
  EXPECT_NEAR(planar_angle(st.pose), 0.3, 1e-15);
  expect_near(st.linear_velocity, Vec3(1, -2, 0));
  expect_near(st.angular_velocity, Vec3(0, 0, 0.5));
  const auto& polygon = std::get<Polygon>(b.shape);
  Vec2 mean = Vec2::Zero();
  for (const Vec2& v : polygon.vertices) mean += v / 3.0;
  EXPECT_LT(mean.norm(), 1e-12);
}

TEST(SceneLoad, PlanarRectangleWithArealDensity) {
  const Scene s = load("options: {dimension: 2}\nbodies: [{shape: {rectangle: [2, 1]}, density: 3}]\n");
  EXPECT_NEAR(s.model.bodies[0].mass, 6.0, 1e-12);
  EXPECT_NEAR(s.model.bodies[0].inertia(2, 2), 6.0 * (4 + 1) / 12, 1e-12);
}

TEST(SceneLoad, Options) {
  const Scene s = load(
      "options:\n"
      "  name: demo\n  dimension: 3\n  h: 0.002\n  duration: 2.5\n  eps: 0.03\n"
      "  eps_theta: -0.05\n  friction_directions: 8\n  model: peg\n  formulation: anitescu-potra\n"
      "  solver: pgs\n  gravity: [0, 0, -1.62]\n  solver_tolerance: 1e-8\n  solver_max_iterations: 500\n"
      "  solver_relaxation: 1.4\n"
      "bodies: [{shape: {cube: 1}, mass: 1}]\n");
  const SimOptions& o = s.model.options;
  EXPECT_EQ(s.name, "demo");
  EXPECT_EQ(o.dimension, Dimension::Spatial);
  EXPECT_DOUBLE_EQ(o.h, 0.002);
  EXPECT_DOUBLE_EQ(o.duration, 2.5);
  EXPECT_FALSE(o.eps_auto);
  EXPECT_DOUBLE_EQ(o.eps, 0.03);
  EXPECT_DOUBLE_EQ(o.eps_theta, -0.05);
  EXPECT_EQ(o.friction_directions, 8);
  EXPECT_EQ(o.model, ContactModelKind::Peg);
  EXPECT_EQ(o.formulation, FormulationKind::AnitescuPotra);
  EXPECT_EQ(o.solver, "pgs");
  expect_near(o.gravity, Vec3(0, 0, -1.62));
  EXPECT_DOUBLE_EQ(o.solver_tolerance, 1e-8);
  EXPECT_EQ(o.solver_max_iterations, 500);
  EXPECT_DOUBLE_EQ(o.solver_relaxation, 1.4);

  const Scene d = load("options: {eps: auto}\nbodies: [{shape: {cube: 1}, mass: 1}]\n");
  EXPECT_TRUE(d.model.options.eps_auto);
  EXPECT_FALSE(d.model.options.eps_theta_auto);
  const Scene t = load("options: {eps_theta: auto}\nbodies: [{shape: {cube: 1}, mass: 1}]\n");
  EXPECT_TRUE(t.model.options.eps_theta_auto);
  EXPECT_DOUBLE_EQ(t.model.options.eps_theta, -0.1);
  expect_near(d.model.options.gravity, Vec3(0, 0, -9.81));
  EXPECT_EQ(d.name, "case");  // no options.name: the source's stem
  EXPECT_TRUE(d.model.options.solver_chain.empty());  // default: just `solver`
  EXPECT_TRUE(d.model.options.islands);
}

TEST(SceneLoad, SolverChainAndCertificationTolerances) {
  const Scene s = load(
      "options:\n  solver_chain: [pgs, path, lemke]\n  max_cone_violation: 1e-7\n  max_penetration: 0.001\n"
      "  islands: false\n"
      "bodies: [{shape: {cube: 1}, mass: 1}]\n");
  const SimOptions& o = s.model.options;
  EXPECT_EQ(o.solver_chain, (std::vector<std::string>{"pgs", "path", "lemke"}));
  EXPECT_EQ(o.solver, "pgs");  // the chain's first
  EXPECT_DOUBLE_EQ(o.max_cone_violation, 1e-7);
  EXPECT_DOUBLE_EQ(o.max_penetration, 0.001);
  EXPECT_FALSE(o.islands);
}

TEST(SceneLoad, NumbersInEveryYamlSpelling) {
  const Scene s = load("options: {h: +1e-3, duration: .5, eps: 0}\nbodies: [{shape: {cube: 1}, mass: 2}]\n");
  EXPECT_DOUBLE_EQ(s.model.options.h, 1e-3);
  EXPECT_DOUBLE_EQ(s.model.options.duration, 0.5);
  EXPECT_DOUBLE_EQ(s.model.options.eps, 0.0);
}

TEST(SceneLoad, MaterialsAndFriction) {
  const Scene s = load(
      "options: {friction: 0.2}\n"
      "materials: [steel, {name: rubber}]\n"
      "friction:\n  - {materials: [steel, rubber], mu: 0.7}\n  - {materials: [rubber, rubber], mu: 1.1}\n"
      "bodies:\n"
      "  - {shape: {cube: 1}, mass: 1, material: rubber}\n"
      "  - {shape: {cube: 1}, mass: 1}\n");
  const Model& m = s.model;
  ASSERT_EQ(m.materials.size(), 3u);
  EXPECT_EQ(m.materials[0].name, "default");
  EXPECT_EQ(m.materials[1].name, "steel");
  EXPECT_EQ(m.materials[2].name, "rubber");
  const MaterialId def{0}, steel{1}, rubber{2};
  EXPECT_DOUBLE_EQ(m.mu(steel, rubber), 0.7);
  EXPECT_DOUBLE_EQ(m.mu(rubber, steel), 0.7);
  EXPECT_DOUBLE_EQ(m.mu(rubber, rubber), 1.1);
  EXPECT_DOUBLE_EQ(m.mu(steel, steel), 0.2);
  EXPECT_DOUBLE_EQ(m.mu(def, rubber), 0.2);
  EXPECT_EQ(m.bodies[0].material, rubber);
  EXPECT_EQ(m.bodies[1].material, def);
}

TEST(SceneLoad, OrientationForms) {
  auto orientation = [](const std::string& o) {
    return load("bodies: [{shape: {cube: 1}, mass: 1, orientation: " + o + "}]\n").state.bodies[0].pose.orientation;
  };
  const double a = 0.8;
  const Quat expected(Eigen::AngleAxisd(a, Vec3::UnitZ()));
  const std::string c = std::to_string(std::cos(a / 2)), sn = std::to_string(std::sin(a / 2));
  expect_near(orientation("[" + c + ", 0, 0, " + sn + "]"), expected, 1e-6);
  expect_near(orientation("{quaternion: [" + c + ", 0, 0, " + sn + "]}"), expected, 1e-6);
  expect_near(orientation("{axis_angle: [0, 0, 2, 0.8]}"), expected);
  expect_near(orientation("{rpy: [0, 0, 0.8]}"), expected);
  // roll, pitch, yaw: R = Rz(yaw) Ry(pitch) Rx(roll)
  const Quat rpy(Eigen::AngleAxisd(0.3, Vec3::UnitZ()) * Eigen::AngleAxisd(0.2, Vec3::UnitY()) *
                 Eigen::AngleAxisd(0.1, Vec3::UnitX()));
  expect_near(orientation("{rpy: [0.1, 0.2, 0.3]}"), rpy);
  // a unit quaternion within 1e-6 is accepted and normalised exactly
  const Quat q = orientation("[0.7071068, 0, 0.7071068, 0]");
  EXPECT_NEAR(q.norm(), 1.0, 1e-15);
}

TEST(SceneLoad, StaticBodiesAndHalfSpaces) {
  const Scene s = load(
      "bodies:\n"
      "  - {name: ramp, shape: {half_space: {normal: [0, 0.1, 1], offset: 0.5}}, static: true, position: [0, 0, 1]}\n"
      "  - {name: table, shape: {box: [2, 2, 1]}, static: true, position: [0, 0, 3]}\n"
      "  - {name: plate, shape: {box: [2, 2, 1]}, static: true, density: 10}\n");
  const auto& hs = std::get<HalfSpace>(s.model.bodies[0].shape);
  expect_near(hs.normal, Vec3(0, 0.1, 1).normalized());
  EXPECT_DOUBLE_EQ(hs.offset, 0.5);
  EXPECT_TRUE(s.model.bodies[0].is_static);
  expect_near(s.state.bodies[0].pose.position, Vec3(0, 0, 1));
  EXPECT_TRUE(s.model.bodies[1].is_static);
  EXPECT_EQ(s.model.bodies[1].mass, 0.0);  // static, no mass given
  expect_near(s.state.bodies[1].pose.position, Vec3(0, 0, 3));
  EXPECT_NEAR(s.model.bodies[2].mass, 40.0, 1e-9);
}

TEST(SceneLoad, NamedShapesAreReusedAndBodiesGetDefaultNames) {
  const Scene s = load(
      "shapes:\n  peg: {prism: {sides: 12, radius: 0.1, height: 1}}\n"
      "bodies:\n  - {shape: peg, mass: 1, velocity: [1, 2, 3], angular_velocity: [0, 0, 4]}\n"
      "  - {shape: peg, mass: 2, position: [1, 0, 0]}\n");
  ASSERT_EQ(s.model.bodies.size(), 2u);
  EXPECT_EQ(s.model.bodies[0].name, "body0");
  EXPECT_EQ(s.model.bodies[1].name, "body1");
  EXPECT_EQ(std::get<Polyhedron>(s.model.bodies[0].shape).vertices.size(), 24u);
  EXPECT_NEAR(s.model.bodies[1].inertia(2, 2), 2 * s.model.bodies[0].inertia(2, 2), 1e-12);
  expect_near(s.state.bodies[0].linear_velocity, Vec3(1, 2, 3));
  expect_near(s.state.bodies[0].angular_velocity, Vec3(0, 0, 4));
}

TEST(SceneLoad, FromFileKeepsSourceTextAndStem) {
  const std::string path = std::string(PEGSIM_TEST_DATA_DIR) + "/two_boxes.yaml";
  const Scene s = load_scene_file(path);
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  EXPECT_EQ(s.text, text.str());
  EXPECT_EQ(s.source, path);
  EXPECT_EQ(s.name, "two_boxes");
  EXPECT_EQ(s.model.bodies.size(), 3u);
}

TEST(SceneLoad, EveryShippedSceneLoads) {
  int count = 0;
  for (const auto& entry : std::filesystem::directory_iterator(PEGSIM_SCENES_DIR)) {
    if (entry.path().extension() != ".yaml") continue;
    ++count;
    EXPECT_NO_THROW(load_scene_file(entry.path().string())) << entry.path();
  }
  EXPECT_GT(count, 0);
}

// every ```yaml block of docs/scene-format.md is a scene that loads
TEST(SceneLoad, DocumentationExamplesLoad) {
  const std::string path = std::string(PEGSIM_TEST_DATA_DIR) + "/../../docs/scene-format.md";
  std::ifstream in(path);
  ASSERT_TRUE(in) << path;
  std::string line, block;
  bool inside = false;
  int blocks = 0;
  while (std::getline(in, line)) {
    if (!inside && line == "```yaml") {
      inside = true;
      block.clear();
    } else if (inside && line == "```") {
      inside = false;
      ++blocks;
      try {
        load_scene_string(block, "scene-format.md block " + std::to_string(blocks));
      } catch (const SceneError& e) {
        ADD_FAILURE() << e.what();
      }
    } else if (inside) {
      block += line + "\n";
    }
  }
  EXPECT_GE(blocks, 2);
}

}  // namespace
}  // namespace pegsim::test
