// block-on-block and dominos (Mirtich & Canny 6) under the impulse stepper:
// resting contact as micro-collisions, toppling as collision trains.
#include "sim/scene_runner.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>

namespace pegsim {
namespace {

double tilt(const BodyState& s) {  // angle of the body's z axis from the vertical
  return std::acos(std::clamp(s.pose.orientation.toRotationMatrix()(2, 2), -1.0, 1.0));
}

// The dropped block bounces (restitution 0.3), rocks and comes to rest on
// the base within 1 s. Resting contact is micro-collisions: the block hops at
// v_mu = sqrt(2 g eps) = 14 mm/s (eps = 1e-5 m), a hop every 2 v_mu / g =
// 2.9 ms about 10 um high, so its speed at rest is v_mu at the instant of a
// hop by construction. "At rest" is therefore checked at the scale of the
// motion: from 1 s on, the centre's displacement over every 50 ms (17 hops;
// a hop's height, ~eps, is then worth 2e-4 m/s) stays below 2e-3 m/s x 50 ms,
// and its instantaneous speed within the hop's (1.5 v_mu; a hop's rocking
// adds a little). Measured: 0.2-1.05 mm/s, not settling further: the
// method's known corner chatter (one point per collision, so a face contact
// is a sequence of corner impulses whose friction does not cancel; sticking
// at a box corner is mostly unstable), the drift the reading guide's
// weakness table asks to report (docs/experiments.md). (The variant
// block-on-block-impulse-fine, eps = 2e-8 m, keeps even the hop below
// 1e-3 m/s: bench/impulse_compare.cpp, docs/experiments.md.) It rests on its
// largest face on the base (centre 0.5 + 0.15 m up, within a few eps), no
// body overlaps another, and every budget holds.
TEST(BlockOnBlock, DroppedBlockComesToRestOnTheBaseWithinOneSecond) {
  World w = test::load_world("block-on-block-impulse");
  const std::uint32_t dropped = 2;
  const double v_mu = std::sqrt(2.0 * 9.81 * 1e-5);
  double max_window_speed = 0.0, max_speed = 0.0, deepest = 0.0, min_distance = INFINITY;
  long collisions = 0, micro = 0;
  Vec3 window_start = Vec3::Zero();
  int in_window = 0;
  while (w.state().time < 1.5 - 1e-12) {
    const StepReport& r = w.step();
    deepest = std::max(deepest, r.max_penetration);
    min_distance = std::min(min_distance, r.impulse.min_distance);
    collisions += r.impulse.collisions;
    micro += r.impulse.micro_collisions;
    ASSERT_FALSE(r.impulse.collision_budget_exhausted || r.impulse.event_budget_exhausted) << r.step;
    if (w.state().time < 1.0 - 1e-12) continue;
    const BodyState& s = w.state().bodies[dropped];
    max_speed = std::max(max_speed, s.linear_velocity.norm());
    if (in_window == 0) window_start = s.pose.position;
    if (++in_window == 25) {  // 25 steps of 2 ms
      max_window_speed = std::max(max_window_speed, (s.pose.position - window_start).norm() / 0.05);
      in_window = 0;
    }
  }
  EXPECT_LT(max_window_speed, 2e-3);
  EXPECT_LT(max_speed, 1.5 * v_mu);
  const BodyState& s = w.state().bodies[dropped];
  EXPECT_NEAR(s.pose.position.z(), 0.5 + 0.15, 1e-4);  // lying on its largest face, hopping within ~eps
  EXPECT_LT(tilt(s), 1e-3);
  EXPECT_LT(std::abs(s.pose.position.x()), 0.5);
  EXPECT_LT(std::abs(s.pose.position.y()), 0.5);
  EXPECT_GE(min_distance, 0.0);
  EXPECT_LT(deepest, 1e-9);
  RecordProperty("collisions", static_cast<int>(collisions));
  RecordProperty("micro_collisions", static_cast<int>(micro));
  RecordProperty("rest_window_speed", std::to_string(max_window_speed));
  std::printf("block-on-block: %ld collisions (%ld micro), after 1 s: window speed %.2e m/s, speed %.2e m/s\n",
              collisions, micro, max_window_speed, max_speed);
}

// Seven dominos, the lead one bumped: every one topples (tilts past 30
// degrees), each strictly after the one before it, and none overlaps
// another or the ground. The run stops at 0.6 s: the last one tips at about
// 0.42 s (the scene's 1.5 s show the chain lying still; resting dominos cost
// some 7000 micro-collisions a second, so the test keeps to the fall).
TEST(Dominos, AllSevenFallInOrder) {
  World w = test::load_world("dominos");
  std::vector<double> fell(8, INFINITY);  // body 0 is the ground
  double deepest = 0.0;
  while (w.state().time < 0.6 - 1e-12) {
    const StepReport& r = w.step();
    deepest = std::max(deepest, r.max_penetration);
    ASSERT_FALSE(r.impulse.collision_budget_exhausted || r.impulse.event_budget_exhausted) << r.step;
    for (std::size_t i = 1; i < 8; ++i)
      if (!std::isfinite(fell[i]) && tilt(w.state().bodies[i]) > M_PI / 6) fell[i] = w.state().time;
  }
  for (std::size_t i = 1; i < 8; ++i) {
    EXPECT_TRUE(std::isfinite(fell[i])) << "domino " << i << " did not fall";
    if (i > 1) {
      EXPECT_GT(fell[i], fell[i - 1]) << "domino " << i;
    }
    RecordProperty("fell_" + std::to_string(i), std::to_string(fell[i]));
    std::printf("domino %zu tilted past 30 deg at %.3f s\n", i, fell[i]);
  }
  EXPECT_LT(deepest, 1e-9);
}

}  // namespace
}  // namespace pegsim
