// The pendulum of thesis 2.4.2 and the hanging rod of thesis 6.2
// (scenes/pendulum.yaml, scenes/hanging-rod.yaml): joint error with and
// without Algorithm 1 and the stabilization term, period and energy.
#include "common/test_paths.hpp"

#include "io/scene.hpp"
#include "sim/world.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <cmath>
#include <numbers>

namespace pegsim {
namespace {

Scene load(const std::string& name) { return load_scene_file(std::string(PEGSIM_SCENES_DIR) + "/" + name + ".yaml"); }

// The rod turned about the joint's anchor (0, 0, 0.25) to `angle` about y,
// at rest: the joint frames stay coincident.
void release_at(Scene& s, double angle) {
  BodyState& rod = s.state.bodies[1];
  const Quat turn(Eigen::AngleAxisd(angle, Vec3::UnitY()));
  rod.pose.orientation = turn;
  rod.pose.position = Vec3(0, 0, 0.25) + turn * Vec3(0, 0, -0.25);
}

struct ErrorTrace {
  std::vector<double> position, velocity, position_before;
};

ErrorTrace run(World& world, int steps) {
  ErrorTrace t;
  for (int k = 0; k < steps; ++k) {
    const StepReport& r = world.step();
    EXPECT_EQ(r.solver_failures, 0) << "step " << k;
    t.position.push_back(r.joint_position_error);
    t.velocity.push_back(r.joint_velocity_error);
    t.position_before.push_back(r.joint_position_error_before);
  }
  return t;
}

double max_of(const std::vector<double>& v, std::size_t from, std::size_t to) {
  return *std::max_element(v.begin() + static_cast<long>(from), v.begin() + static_cast<long>(to));
}

// Thesis 2.4.2: with Algorithm 1 (eps_p = eps_v = 1e-5) the position and
// velocity errors stay within 1e-5 over 4000 steps; the revolute pendulum and
// the spherical hanging rod at the pendulum's h = 0.01.
TEST(Pendulum, AlgorithmOneKeepsBothErrorsWithinEpsilonFor4000Steps) {
  for (const char* name : {"pendulum", "hanging-rod"}) {
    Scene s = load(name);
    s.model.options.h = 0.01;
    s.model.options.joints.correction = true;
    World world(s.model, s.state);
    const ErrorTrace t = run(world, 4000);
    EXPECT_LE(max_of(t.position, 0, 4000), 1e-5) << name;
    EXPECT_LE(max_of(t.velocity, 0, 4000), 1e-5) << name;
    // and it had work to do: the step alone leaves O(omega^2 d h^2) = 1e-4
    EXPECT_GT(max_of(t.position_before, 0, 4000), 1e-5) << name;
    std::printf("figure: %s, h = 0.01, 4000 steps, Algorithm 1: largest error before %.3e, after %.3e (velocity %.3e)\n",
                name, max_of(t.position_before, 0, 4000), max_of(t.position, 0, 4000), max_of(t.velocity, 0, 4000));
  }
}

// Thesis 2.4.2 / l.723: velocity-level rows (psi_b / h dropped) and no
// correction: the position error drifts secularly (guide 3.1 check (a)).
TEST(Pendulum, VelocityLevelRowsAloneLetTheErrorGrow) {
  for (const char* name : {"pendulum", "hanging-rod"}) {
    Scene s = load(name);
    s.model.options.h = 0.01;
    s.model.options.joints.correction = false;
    s.model.options.joints.stabilization = false;
    World world(s.model, s.state);
    const ErrorTrace t = run(world, 4000);
    EXPECT_GE(max_of(t.position, 3000, 4000), 2.0 * max_of(t.position, 0, 1000)) << name;
    std::printf("figure: %s, h = 0.01, velocity-level rows: largest error, first 1000 steps %.3e, last 1000 %.3e\n",
                name, max_of(t.position, 0, 1000), max_of(t.position, 3000, 4000));
  }
}

// Thesis 6.2, Fig. 6.4: the Stewart-Trinkle stabilization term alone keeps the
// hanging rod's joint error below 7e-5 over 5 s (at h = 0.005, the scene's),
// and bounded: the last second's largest error is no larger than the first's
// (5% for the slow loss of swing amplitude and round-off). The motion stays in
// the x-z plane: the prism's I_xx = I_yy and the release is symmetric.
TEST(HangingRod, StabilizationAloneKeepsTheErrorBelowTheThesisBound) {
  Scene s = load("hanging-rod");
  World world(s.model, s.state);
  const int steps = static_cast<int>(std::lround(5.0 / s.model.options.h));
  const ErrorTrace t = run(world, steps);
  EXPECT_LT(max_of(t.position, 0, steps), 7e-5);
  std::printf("figure: hanging rod, h = %g, 5 s, stabilization only: largest joint error %.3e\n", s.model.options.h,
              max_of(t.position, 0, steps));
  const int second = steps / 5;
  EXPECT_LE(max_of(t.position, steps - second, steps), 1.05 * max_of(t.position, 0, second));
  const BodyState& rod = world.state().bodies[1];
  EXPECT_LT(std::abs(rod.pose.position.y()), 1e-9);
  EXPECT_LT(std::abs(rod.angular_velocity.x()), 1e-9);
  EXPECT_LT(std::abs(rod.angular_velocity.z()), 1e-9);
}

// Downward zero crossings of the rod's centre x (the swing through the
// lowest point in one direction), linearly interpolated.
std::vector<double> crossings(World& world, int steps) {
  std::vector<double> out;
  double prev = world.state().bodies[1].pose.position.x(), t_prev = world.state().time;
  for (int k = 0; k < steps; ++k) {
    world.step();
    const double q = world.state().bodies[1].pose.position.x(), t = world.state().time;
    if (prev > 0.0 && q <= 0.0) out.push_back(t_prev + (t - t_prev) * prev / (prev - q));
    prev = q;
    t_prev = t;
  }
  return out;
}

// The small-angle period of the compound pendulum, 2 pi sqrt(L / g) with the
// equivalent length L = I_pivot / (m d), within 0.5% at h = 1e-3 (the brief's
// bar; the finite 0.05 rad amplitude lengthens it by theta^2 / 16 = 1.6e-4).
// Energy of the undamped pendulum: bounded above by its initial value plus
// symplectic Euler's O(omega h) oscillation, and its loss over 6 s (the
// first-order damping of the velocity projection) small.
TEST(Pendulum, SmallAnglePeriodAndBoundedEnergy) {
  Scene s = load("pendulum");
  s.model.options.h = 1e-3;
  s.model.options.joints.correction = false;
  release_at(s, 0.05);
  const BodyModel& rod = s.model.bodies[1];
  const double d = 0.25, g = 9.81;
  const double inertia = rod.inertia(1, 1) + rod.mass * d * d;  // about the pivot (y is a principal axis)
  const double length = inertia / (rod.mass * d);
  const double expected = 2.0 * std::numbers::pi * std::sqrt(length / g);
  World world(s.model, s.state);
  const double e0 = mechanical_energy(world.model(), world.state());
  const std::vector<double> down = crossings(world, 7000);
  ASSERT_GE(down.size(), 6u);
  const double period = (down.back() - down.front()) / static_cast<double>(down.size() - 1);
  EXPECT_NEAR(period / expected, 1.0, 5e-3) << "period " << period << " expected " << expected;
  std::printf("figure: small-angle period %.6f s, 2 pi sqrt(L/g) %.6f s, relative error %.2e (h = 1e-3)\n", period,
              expected, period / expected - 1.0);

  Scene big = load("pendulum");
  big.model.options.h = 1e-3;
  big.model.options.joints.correction = false;
  World swing(big.model, big.state);
  const double e_start = mechanical_energy(swing.model(), swing.state());
  const double swing_energy = rod.mass * g * d * (1.0 - std::cos(std::numbers::pi / 5));  // above the rest position
  const double omega = std::sqrt(g / length);
  double highest = -1e300;
  for (int k = 0; k < 6000; ++k) {
    swing.step();
    highest = std::max(highest, mechanical_energy(swing.model(), swing.state()));
  }
  EXPECT_LE(highest, e_start + omega * big.model.options.h * swing_energy);
  std::printf("figure: pi/5 swing over 6 s at h = 1e-3: largest energy rise %.3e J, loss %.3e J of %.4f J\n",
              highest - e_start, e_start - mechanical_energy(swing.model(), swing.state()), swing_energy);
  EXPECT_GT(mechanical_energy(swing.model(), swing.state()), e_start - 0.05 * swing_energy);
  (void)e0;
}

}  // namespace
}  // namespace pegsim
