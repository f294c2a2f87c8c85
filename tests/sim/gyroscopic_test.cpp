// The gyroscopic term of the free velocity (dynamics/mass.hpp): the implicit
// midpoint rule (the default) against Euler's equations' own invariants, and
// the explicit term of thesis eq. 2.30 (`gyroscopic: explicit`) beside it.
//
// Tolerances: the midpoint rule keeps the kinetic energy w.J w and |J w|
// exactly, so what is left is round-off of a few 3x3 products and Newton's
// stopping point (|F| <= 1e-14 |J w| (1 + |w| h)) per step: 1e-12 relative
// per step, 1e-9 after 10^4 steps of random-walk accumulation is loose by
// orders of magnitude. Against the explicit term, the two differ at O(h^2):
// halving h must divide the gap by 4 (3 to 5 allowed: the next order).
#include "dynamics/mass.hpp"
#include "io/scene.hpp"
#include "sim/world.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <string>

namespace pegsim {
namespace {

// A box of sides 0.1 x 0.2 x 0.4 m, 1 kg: principal moments in ratio 20:17:5.
Mat3 box_inertia() {
  const double m = 1.0, a = 0.1, b = 0.2, c = 0.4;
  return Vec3(m * (b * b + c * c) / 12, m * (a * a + c * c) / 12, m * (a * a + b * b) / 12).asDiagonal();
}

// a turned frame, so that J is full and no axis is special
Mat3 turned(const Mat3& J_body) {
  const Mat3 R = (Eigen::AngleAxisd(0.7, Vec3(1, 2, 3).normalized()) * Eigen::AngleAxisd(-1.1, Vec3::UnitX()))
                     .toRotationMatrix();
  return R * J_body * R.transpose();
}

TEST(Gyroscopic, MidpointStepKeepsEnergyAndAngularMomentum) {
  const Mat3 J = turned(box_inertia());
  const Vec3 w0 = Vec3(3.0, -1.0, 2.0);
  // |w| h from 0.004 to 25: slow spins to a body launched far past the
  // explicit term's limit (about 2.4 rad a step blew up, docs/reliability.md)
  for (double h : {0.001, 0.01, 0.1, 0.5, 1.6, 6.5}) {
    Vec3 w = w0;
    const double energy = w.dot(J * w), momentum = (J * w).norm();
    for (int k = 0; k < 1000; ++k) {
      w += J.inverse() * gyroscopic_impulse(J, w, h);
      ASSERT_TRUE(w.allFinite()) << "h " << h << " step " << k;
      ASSERT_LE(w.dot(J * w), energy * (1.0 + 1e-12)) << "h " << h << " step " << k;
    }
    EXPECT_NEAR(w.dot(J * w), energy, 1e-10 * energy) << "h " << h;
    EXPECT_NEAR((J * w).norm(), momentum, 1e-10 * momentum) << "h " << h;
    EXPECT_GT((w - w0).norm(), 1e-3) << "the spin precesses; h " << h;
  }
}

TEST(Gyroscopic, MidpointAgreesWithTheExplicitTermToSecondOrder) {
  const Mat3 J = turned(box_inertia());
  const Vec3 w(3.0, -1.0, 2.0);
  auto gap = [&](double h) { return (gyroscopic_impulse(J, w, h) + h * w.cross(J * w)).norm(); };
  for (double h : {0.004, 0.002, 0.001}) {
    const double ratio = gap(h) / gap(h / 2);
    EXPECT_GT(ratio, 3.0) << "h " << h;
    EXPECT_LT(ratio, 5.0) << "h " << h;
  }
  // isotropic inertia: no gyroscopic torque at all
  EXPECT_EQ(gyroscopic_impulse(Mat3::Identity() * 0.2, w, 0.01), Vec3::Zero());
}

std::string spinning_box(const std::string& gyroscopic, const Vec3& w) {
  char text[512];
  std::snprintf(text, sizeof text,
                "options: {dimension: 3, h: 0.005, gravity: [0, 0, 0], gyroscopic: %s}\n"
                "bodies:\n"
                "  - {name: box, shape: {box: [0.1, 0.2, 0.4]}, mass: 1, angular_velocity: [%.17g, %.17g, %.17g]}\n",
                gyroscopic.c_str(), w.x(), w.y(), w.z());
  return text;
}

double kinetic_energy(const World& world) {
  const BodyState& s = world.state().bodies[0];
  return s.angular_velocity.dot(world_inertia(world.model().bodies[0], s, Dimension::Spatial) * s.angular_velocity);
}

// The launched body of the standard-model pour (docs/reliability.md): a box
// spinning at |w| h = 2.4 rad a step. The default step keeps its energy and
// the size of its angular momentum: the midpoint rule keeps w.J w and |J w| at
// the step's start frame, and the pose then turns about w' itself, which
// changes neither (R' J R'^T w' = R' J w' when R' w' = w'). The direction of
// L is not kept at this h (the pose turns 2.4 rad a step: no accuracy is left,
// only boundedness). The explicit term of eq. 2.30 pumps energy in until the
// state is no longer finite.
TEST(Gyroscopic, FastSpinStaysBoundedUnderTheDefaultAndBlowsUpExplicitly) {
  const Vec3 w0 = Vec3(300.0, 300.0, 200.0);  // |w| = 469 rad/s, h = 0.005
  {
    const Scene s = load_scene_string(spinning_box("implicit", w0));
    World world(s.model, s.state);
    const double energy = kinetic_energy(world);
    const Mat3 J0 = world_inertia(s.model.bodies[0], s.state.bodies[0], Dimension::Spatial);
    const Vec3 L0 = J0 * w0;
    for (int k = 0; k < 10000; ++k) {
      world.step();
      ASSERT_LE(kinetic_energy(world), energy * (1.0 + 1e-12)) << "step " << k;
    }
    const BodyState& b = world.state().bodies[0];
    const Vec3 L = world_inertia(s.model.bodies[0], b, Dimension::Spatial) * b.angular_velocity;
    EXPECT_NEAR(kinetic_energy(world), energy, 1e-9 * energy);
    EXPECT_NEAR(L.norm(), L0.norm(), 1e-9 * L0.norm());
  }
  {
    const Scene s = load_scene_string(spinning_box("explicit", w0));
    World world(s.model, s.state);
    const double energy = kinetic_energy(world);
    int k = 0;
    while (k < 10000 && std::isfinite(kinetic_energy(world)) && kinetic_energy(world) < 100.0 * energy) {
      world.step();
      ++k;
    }
    EXPECT_LT(k, 10000) << "eq. 2.30's explicit term should be unstable at |w| h = 2.4";
  }
}

// The intermediate-axis theorem (Dzhanibekov's wing nut): a spin about the
// middle principal axis flips over and back, one about the largest or the
// smallest stays put. The flip needs the term: without it w would be constant.
TEST(Gyroscopic, IntermediateAxisFlipsAndTheOthersAreStable) {
  auto body_spin = [](const World& world) {
    const BodyState& s = world.state().bodies[0];
    return Vec3(s.pose.orientation.conjugate() * s.angular_velocity);
  };
  for (int axis = 0; axis < 3; ++axis) {
    Vec3 w = Vec3::Constant(0.01);
    w[axis] = 10.0;  // |w| h = 0.05
    const Scene s = load_scene_string(spinning_box("implicit", w));
    World world(s.model, s.state);
    double lowest = 1.0;  // smallest w_axis / |w| seen in 5 s
    for (int k = 0; k < 1000; ++k) {
      world.step();
      const Vec3 wb = body_spin(world);
      lowest = std::min(lowest, wb[axis] / wb.norm());
    }
    if (axis == 1)
      EXPECT_LT(lowest, -0.9) << "the intermediate axis (y, 17 of 20:17:5) turns over";
    else
      EXPECT_GT(lowest, 0.99) << "axis " << axis << " is stable";
  }
}

}  // namespace
}  // namespace pegsim

namespace pegsim {
namespace {
// Where the step is accurate (|w| h small), the world-frame angular momentum,
// which no torque changes, drifts only by the step's error: first order in h
// (the pose and the spin are updated one after the other), so halving h halves
// the drift over the same time (ratio 1.6 to 2.6 allowed: the next order).
TEST(Gyroscopic, AngularMomentumDriftConvergesWithTheStep) {
  auto drift = [](double h) {
    char text[512];
    std::snprintf(text, sizeof text,
                  "options: {dimension: 3, h: %.17g, gravity: [0, 0, 0]}\n"
                  "bodies:\n  - {name: box, shape: {box: [0.1, 0.2, 0.4]}, mass: 1, angular_velocity: [2, 3, 1]}\n",
                  h);
    const Scene s = load_scene_string(text);
    World world(s.model, s.state);
    auto momentum = [&] {
      const BodyState& b = world.state().bodies[0];
      return Vec3(world_inertia(s.model.bodies[0], b, Dimension::Spatial) * b.angular_velocity);
    };
    const Vec3 L0 = momentum();
    const int steps = static_cast<int>(std::lround(2.0 / h));
    for (int k = 0; k < steps; ++k) world.step();
    return (momentum() - L0).norm() / L0.norm();
  };
  const double d1 = drift(0.004), d2 = drift(0.002), d3 = drift(0.001);
  EXPECT_GT(d1 / d2, 1.6);
  EXPECT_LT(d1 / d2, 2.6);
  EXPECT_GT(d2 / d3, 1.6);
  EXPECT_LT(d2 / d3, 2.6);
}
}  // namespace
}  // namespace pegsim
