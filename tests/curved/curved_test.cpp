// Curved shapes in the time-stepping LCP stepper (issue 15): rolling without
// slip at the closed-form accelerations, resting without penetration, energy
// of an inelastic frictionless bounce, bit-identical reruns, and every
// contact model on a scene that mixes polytopes and curved shapes.
//
// Why the tolerances are tight: on a flat incline a ball's (a cylinder's)
// contact normal is the incline's normal and its contact point lies straight
// below the centre (on the rims, for the cylinder), so the step's linearised
// contact (the contact plane and point taken at the step's start,
// docs/contact-models.md "Curved contacts") is exact, and with sticking
// friction the LCP's no-slip condition D^T v = 0 holds at the step's end.
// The discrete motion then has exactly the constant acceleration of the
// closed form; only round-off remains (the 0.5% of issue 15 is a bound far
// above it). Resting contacts have gap psi -> 0 by the psi/h term of
// Stewart-Trinkle (eq. 2.34), which the step solves to round-off.
#include "io/scene.hpp"
#include "sim/scene_runner.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <numbers>

namespace pegsim {
namespace {

constexpr double kG = 9.81;
const double kSlope = 20.0 * std::numbers::pi / 180.0;

World world_with(const std::string& name, ContactModelKind model) {
  Scene s = load_scene_file(test::scene_path(name));
  s.model.options.model = model;
  return test::measuring_world(std::move(s.model), std::move(s.state));
}

// Runs the scene for 1 s; the acceleration along the slope (downhill
// velocity over time: the discrete velocity grows by a h per step), the
// largest penetration, and the largest slip speed at the lowest point.
struct Rolling {
  double acceleration = 0.0, penetration = 0.0, slip = 0.0;
  int failures = 0, contacts = 0;
};

Rolling roll(World& w, double radius) {
  Rolling r;
  const Vec3 downhill(std::cos(kSlope), 0.0, -std::sin(kSlope));
  const Vec3 n(std::sin(kSlope), 0.0, std::cos(kSlope));
  while (w.state().time < 1.0 - 1e-12) {
    const StepReport& report = w.step();
    r.failures += report.solver_failures;
    r.penetration = std::max(r.penetration, report.max_penetration);
    r.contacts = std::max(r.contacts, static_cast<int>(report.contacts.size()));
    const BodyState& b = w.state().bodies[1];
    r.slip = std::max(r.slip, (b.linear_velocity + b.angular_velocity.cross(-radius * n)).norm());
  }
  r.acceleration = w.state().bodies[1].linear_velocity.dot(downhill) / w.state().time;
  return r;
}

TEST(CurvedRolling, BallAcceleratesAtFiveSeventhsGSinA) {
  const double exact = 5.0 / 7.0 * kG * std::sin(kSlope);
  for (ContactModelKind model : {ContactModelKind::Peg, ContactModelKind::Standard, ContactModelKind::Lnc}) {
    World w = world_with("ball-on-incline", model);
    const Rolling r = roll(w, 0.1);
    std::printf("ball (%s): a = %.9f m/s^2, (5/7) g sin a = %.9f, ratio - 1 = %.2e, slip %.1e m/s, penetration %.1e m\n",
                std::string(to_string(model)).c_str(), r.acceleration, exact, r.acceleration / exact - 1.0, r.slip,
                r.penetration);
    EXPECT_EQ(r.failures, 0);
    EXPECT_EQ(r.contacts, 1);  // one point contact per feature pair
    EXPECT_NEAR(r.acceleration / exact, 1.0, 0.005);
    EXPECT_LT(r.slip, 1e-9);
    EXPECT_LT(r.penetration, 1e-9);
  }
}

TEST(CurvedRolling, CylinderAcceleratesAtTwoThirdsGSinA) {
  const double exact = 2.0 / 3.0 * kG * std::sin(kSlope);
  World w = world_with("cylinder-roll", ContactModelKind::Peg);
  const Rolling r = roll(w, 0.1);
  std::printf("cylinder: a = %.9f m/s^2, (2/3) g sin a = %.9f, ratio - 1 = %.2e, slip %.1e m/s, penetration %.1e m\n",
              r.acceleration, exact, r.acceleration / exact - 1.0, r.slip, r.penetration);
  EXPECT_EQ(r.failures, 0);
  EXPECT_EQ(r.contacts, 2);  // the two rims' lowest points
  EXPECT_NEAR(r.acceleration / exact, 1.0, 0.005);
  EXPECT_LT(r.slip, 1e-9);
  EXPECT_LT(r.penetration, 1e-9);
  // it rolls straight: no drift across the slope, the axis stays across it
  EXPECT_LT(std::abs(w.state().bodies[1].pose.position.y()), 1e-9);
}

// A ball in a V-groove and a ball on a box's face settle; the deepest
// penetration (measured on the geometry after each step) in the last half
// second stays below 1e-9 m, under PEG and the standard model.
TEST(CurvedResting, BallsInAGrooveAndOnABoxDoNotSink) {
  for (ContactModelKind model : {ContactModelKind::Peg, ContactModelKind::Standard}) {
    World w = world_with("ball-in-groove", model);
    double settled = 0.0;
    int failures = 0;
    while (w.state().time < 1.5 - 1e-12) {
      const StepReport& r = w.step();
      failures += r.solver_failures;
      if (w.state().time > 1.0) settled = std::max(settled, r.max_penetration);
    }
    std::printf("resting (%s): penetration after settling %.2e m, speeds %.1e %.1e m/s\n",
                std::string(to_string(model)).c_str(), settled, w.state().bodies[2].linear_velocity.norm(),
                w.state().bodies[4].linear_velocity.norm());
    EXPECT_EQ(failures, 0);
    EXPECT_LT(settled, 1e-9);
    EXPECT_LT(w.state().bodies[2].linear_velocity.norm(), 1e-6);
    EXPECT_LT(w.state().bodies[4].linear_velocity.norm(), 1e-6);
    EXPECT_NEAR(w.state().bodies[2].pose.position.y(), 0.0, 1e-9);  // in the groove's bottom
    EXPECT_NEAR(w.state().bodies[2].pose.position.z(), 0.05 / std::cos(std::numbers::pi / 6.0), 1e-9);
    EXPECT_NEAR(w.state().bodies[4].pose.position.z(), 0.4 + 0.05 + 0.05, 1e-9);  // on the box's top face
  }
}

// Flat on flat with a curved shape (collision/narrowphase_rim.cpp): a can
// standing on a box table, a can lying on it across its edge (its centre of
// mass over the table), a box on a round table and a cone on its base, all set
// down touching, stay exactly where they are for 2 s under PEG: each rests on
// a support polygon (rim points, the box's corners, the line of contact
// clipped at the edge). With one GJK point per pair (before) the standing can
// and the box rocked and fell. Tolerances: the solver's 1e-9 scale, as for
// the resting balls above.
TEST(CurvedResting, CansStandAndLieOnATableAndABoxOnARoundTable) {
  const std::string yaml = R"(
options: {name: flat, dimension: 3, h: 0.005, duration: 2, model: peg, friction: 0.5}
bodies:
  - {name: table, shape: {box: [1, 1, 0.1]}, static: true, position: [0, 0, -0.05]}
  - {name: can, shape: {cylinder: {radius: 0.03, height: 0.12}}, density: 500, position: [0.2, 0.2, 0.06]}
  - {name: rod, shape: {cylinder: {radius: 0.02, height: 0.3}}, density: 500, position: [0.4, -0.2, 0.02],
     orientation: {axis_angle: [0, 1, 0, 1.5707963267948966]}}
  - {name: round, shape: {cylinder: {radius: 0.4, height: 0.1}}, static: true, position: [2, 0, -0.05]}
  - {name: box, shape: {cube: 0.1}, density: 500, position: [2.1, 0.1, 0.05]}
  - {name: cone, shape: {cone: {radius: 0.04, height: 0.1}}, density: 500, position: [-0.2, -0.2, 0]}
)";
  Scene s = load_scene_string(yaml);
  const State start = s.state;
  World w = test::measuring_world(std::move(s.model), std::move(s.state));
  const test::RunStats run = test::run_until(w, 2.0);
  EXPECT_EQ(run.failures, 0);
  EXPECT_LT(run.max_penetration, 1e-9);
  for (std::uint32_t i : {1u, 2u, 4u, 5u}) {
    const BodyState& now = w.state().bodies[i];
    EXPECT_LT((now.pose.position - start.bodies[i].pose.position).norm(), 1e-9) << w.model().bodies[i].name;
    EXPECT_LT(now.pose.orientation.angularDistance(start.bodies[i].pose.orientation), 1e-9) << w.model().bodies[i].name;
  }
}

// A frictionless ball thrown at the ground and a tilted wall: each impact is
// perfectly inelastic in the normal direction (the time-stepping LCP has no
// restitution), so the mechanical energy never rises. In flight the
// semi-implicit Euler step itself loses m g^2 h^2 / 2 per step.
TEST(CurvedEnergy, FrictionlessBallNeverGainsEnergy) {
  const std::string yaml = R"(
options: {name: bounce, dimension: 3, h: 0.001, duration: 2, eps: auto, model: peg, solver: lemke}
materials: [{name: ice}]
friction: [{materials: [ice, ice], mu: 0}]
bodies:
  - {name: ground, shape: {half_space: {normal: [0, 0, 1]}}, static: true, material: ice}
  - {name: wall, shape: {half_space: {normal: [-1, 0, 0.3], offset: -1}}, static: true, material: ice}
  - {name: ball, shape: {sphere: {radius: 0.1}}, density: 500, position: [0, 0, 0.6], velocity: [2.5, 0.7, 1.0],
     angular_velocity: [3, -2, 5], material: ice}
)";
  Scene s = load_scene_string(yaml);
  World w(std::move(s.model), std::move(s.state));
  double energy = mechanical_energy(w.model(), w.state()), drop = 0.0;
  int impacts = 0;
  while (w.state().time < 2.0 - 1e-12) {
    const StepReport& r = w.step();
    ASSERT_EQ(r.solver_failures, 0);
    const double e = mechanical_energy(w.model(), w.state());
    ASSERT_LE(e, energy + 1e-12 * std::abs(energy)) << "t = " << w.state().time;
    if (energy - e > 1e-3) ++impacts;
    drop = std::max(drop, energy - e);
    energy = e;
  }
  EXPECT_GE(impacts, 2);  // the ground and the wall
}

// The same scene twice, state compared bit for bit.
TEST(CurvedDeterminism, RerunsAreBitIdentical) {
  for (const char* name : {"cylinder-roll", "ball-in-groove"}) {
    World a = test::load_world(name), b = test::load_world(name);
    for (int i = 0; i < 500; ++i) a.step(), b.step();
    for (std::size_t k = 0; k < a.state().bodies.size(); ++k) {
      const BodyState &x = a.state().bodies[k], &y = b.state().bodies[k];
      EXPECT_EQ(std::memcmp(x.pose.position.data(), y.pose.position.data(), 3 * sizeof(double)), 0) << name;
      EXPECT_EQ(std::memcmp(x.pose.orientation.coeffs().data(), y.pose.orientation.coeffs().data(), 4 * sizeof(double)), 0);
      EXPECT_EQ(std::memcmp(x.angular_velocity.data(), y.angular_velocity.data(), 3 * sizeof(double)), 0) << name;
    }
  }
}

// Every contact model takes a scene mixing polytopes and curved shapes: the
// corrective model (which looks at the geometry itself) included.
TEST(CurvedModels, EveryModelRunsAMixedScene) {
  for (ContactModelKind model : {ContactModelKind::Peg, ContactModelKind::Standard, ContactModelKind::Lnc,
                                 ContactModelKind::Corrective}) {
    World w = world_with("ball-in-groove", model);
    const test::RunStats r = test::run_until(w, 1.0);
    EXPECT_EQ(r.failures, 0) << to_string(model);
    // the corrective model reacts only once a body has sunk: its overlap
    // grows with h (thesis 5.2.3), a few g h^2 here
    EXPECT_LT(r.max_penetration, model == ContactModelKind::Corrective ? 1e-3 : 1e-6) << to_string(model);
    EXPECT_LT(w.state().bodies[4].linear_velocity.norm(), 0.05) << to_string(model);
  }
}

// 2D: a disc rolling down a half-plane incline at (2/3) g sin a.
TEST(CurvedRolling, DiscRollsInTwoDimensions) {
  const double s = std::sin(kSlope), c = std::cos(kSlope);
  const std::string yaml =
      "options: {name: disc, dimension: 2, h: 0.001, duration: 1, eps: 0.002, model: peg, solver: lemke}\n"
      "materials: [{name: m}]\nfriction: [{materials: [m, m], mu: 0.8}]\nbodies:\n"
      "  - {name: incline, shape: {half_plane: {normal: [" + std::to_string(s) + ", " + std::to_string(c) +
      "]}}, static: true, material: m}\n"
      "  - {name: disc, shape: {disc: {radius: 0.1}}, density: 10, position: [" + std::to_string(0.1 * s) + ", " +
      std::to_string(0.1 * c) + "], material: m}\n";
  Scene sc = load_scene_string(yaml);
  World w(std::move(sc.model), std::move(sc.state));
  const Vec2 n = Vec2(s, c).normalized();  // the scene's normal, as the loader normalises it
  while (w.state().time < 1.0 - 1e-12) ASSERT_EQ(w.step().solver_failures, 0);
  const Vec3 downhill(n.y(), -n.x(), 0.0);
  const double a = w.state().bodies[1].linear_velocity.dot(downhill) / w.state().time;
  const double exact = 2.0 / 3.0 * kG * n.x();
  std::printf("disc (2D): a = %.9f m/s^2, (2/3) g sin a = %.9f, ratio - 1 = %.2e\n", a, exact, a / exact - 1.0);
  EXPECT_NEAR(a / exact, 1.0, 0.005);
}

}  // namespace
}  // namespace pegsim
