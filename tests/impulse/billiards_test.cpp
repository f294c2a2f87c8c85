// billiards-break (scenes/billiards-break.yaml; Mirtich & Canny 6) under the
// impulse stepper: the rack of 15 balls 0.1 mm apart struck by the cue ball.
#include "impulse/ballistic_flight.hpp"
#include "sim/scene_runner.hpp"

#include <gtest/gtest.h>

#include <cmath>

namespace pegsim {
namespace {

Vec3 momentum(const World& w) {
  Vec3 p = Vec3::Zero();
  for (std::size_t i = 0; i < w.model().bodies.size(); ++i)
    p += w.model().bodies[i].mass * w.state().bodies[i].linear_velocity;
  return p;
}

double energy(const World& w) {
  double T = 0.0;
  for (std::size_t i = 0; i < w.model().bodies.size(); ++i) T += kinetic_energy(w.model().bodies[i], w.state().bodies[i]);
  return T;
}

// Frictionless table (gravity balanced and left out, see the scene): every
// impulse acts on a pair equally and oppositely, so the total linear momentum
// is invariant up to the round-off of summing 16 products (a few ulps of
// |p| = 1.7 N s per collision: 1e-12 relative is ample over ~100 collisions).
// Restitution 0.93 and Coulomb friction only dissipate in sphere-sphere
// collisions (K_tz = 0: the slip never reverses), so the kinetic energy never
// rises; the only energy a collision can add is the micro-collision floor's,
// below 1/2 m (1e-6 m/s)^2 = 1e-13 J, and the tolerance (1e-12 of 8.5 J)
// covers that and round-off. No ball overlaps another at any event or step end.
TEST(Billiards, BreakConservesMomentumNeverGainsEnergyAndNeverOverlaps) {
  World w = test::load_world("billiards-break");
  ASSERT_EQ(w.model().options.stepper, "impulse");
  ASSERT_EQ(w.model().bodies.size(), 16u);
  const Vec3 p0 = momentum(w);
  double T = energy(w);
  const double T0 = T;
  long collisions = 0;
  double min_distance = INFINITY, deepest = 0.0;
  while (w.state().time < 0.2 - 1e-12) {
    const StepReport& r = w.step();
    collisions += r.impulse.collisions;
    min_distance = std::min(min_distance, r.impulse.min_distance);
    deepest = std::max(deepest, r.max_penetration);
    EXPECT_FALSE(r.impulse.collision_budget_exhausted || r.impulse.event_budget_exhausted) << r.step;
    EXPECT_EQ(r.impulse.jams, 0);
    const double T1 = energy(w);
    ASSERT_LE(T1, T + 1e-12 * T0) << "energy rose at step " << r.step;
    T = T1;
    ASSERT_LT((momentum(w) - p0).norm(), 1e-12 * p0.norm()) << "step " << r.step;
  }
  EXPECT_GE(min_distance, 0.0);
  EXPECT_EQ(deepest, 0.0);
  EXPECT_GT(collisions, 15);  // the break: every ball hit at least once
  EXPECT_LT(T, 0.95 * T0);    // restitution 0.93 dissipates
  // every object ball was hit: it moves (the slowest, inner balls of the
  // rack keep a few cm/s of the cue ball's 10 m/s)
  for (std::size_t i = 1; i < 16; ++i) EXPECT_GT(w.state().bodies[i].linear_velocity.norm(), 0.01) << i;
  RecordProperty("collisions", static_cast<int>(collisions));
  RecordProperty("energy_ratio", std::to_string(T / T0));
}

// Bit-identical reruns, and a run restarted from a saved state continues
// exactly as the original (the stepper carries nothing between steps).
TEST(Billiards, RerunsAndRestartsAreBitIdentical) {
  World a = test::load_world("billiards-break"), b = test::load_world("billiards-break");
  for (int i = 0; i < 60; ++i) {
    a.step();
    b.step();
  }
  World c(a.model(), a.state());
  for (int i = 0; i < 40; ++i) {
    a.step();
    b.step();
    c.step();
  }
  for (std::size_t i = 0; i < a.state().bodies.size(); ++i) {
    EXPECT_EQ(a.state().bodies[i].pose.position, b.state().bodies[i].pose.position);
    EXPECT_EQ(a.state().bodies[i].linear_velocity, b.state().bodies[i].linear_velocity);
    EXPECT_EQ(a.state().bodies[i].pose.position, c.state().bodies[i].pose.position);
    EXPECT_EQ(a.state().bodies[i].angular_velocity, c.state().bodies[i].angular_velocity);
  }
}

}  // namespace
}  // namespace pegsim
