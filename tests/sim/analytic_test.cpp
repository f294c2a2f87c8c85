// Scenes with closed-form answers: free fall, a box sliding to rest, a block
// resting on the ground, a chain of inelastic impacts.
#include "geometry/penetration.hpp"
#include "scene_runner.hpp"

#include <gtest/gtest.h>

#include <cmath>

namespace pegsim {
namespace {

TEST(FreeFall, MatchesSemiImplicitEulerAndConvergesToParabola) {
  World world = test::load_world("free-fall");
  const double h = world.model().options.h;
  const double g = 9.81;
  const double z0 = world.state().bodies[0].pose.position.z();
  for (int n = 1; n <= 1000; ++n) {
    const StepReport& r = world.step();
    ASSERT_TRUE(r.contacts.empty());
    const double z = world.state().bodies[0].pose.position.z();
    // the discrete solution of v_{n} = v_{n-1} - g h, z_n = z_{n-1} + h v_n
    const double discrete = z0 - g * h * h * n * (n + 1) / 2.0;
    ASSERT_NEAR(z, discrete, 1e-9 * z0) << "step " << n;
    // which differs from the parabola by g h t / 2: first order in h
    const double t = n * h;
    ASSERT_NEAR(z, z0 - 0.5 * g * t * t, 0.5 * g * h * t + 1e-9) << "step " << n;
  }
  // no force in x, y: the centre of mass moves only vertically
  EXPECT_EQ(world.state().bodies[0].pose.position.x(), 0.0);
  EXPECT_EQ(world.state().bodies[0].pose.position.y(), 0.0);
}

TEST(SlidingBox, StopsWhereCoulombFrictionSays) {
  World world = test::load_world("sliding-box");
  const double h = world.model().options.h;
  const double mu = 0.3, g = 9.81, v0 = 2.0;
  const double t_stop = v0 / (mu * g), x_stop = v0 * v0 / (2 * mu * g);
  double stopped_at = -1.0;
  const auto& box = world.state().bodies[1];
  while (world.state().time < 1.5) {
    const StepReport& r = world.step();
    ASSERT_EQ(r.solver_failures, 0) << "t = " << r.time;
    const double t = world.state().time;
    if (t < t_stop - 2 * h) {
      // while sliding, v(t) = v0 - mu g t: the Euler step is exact for constant
      // deceleration, up to the step at which it stops
      ASSERT_NEAR(box.linear_velocity.x(), v0 - mu * g * t, 1e-6) << "t = " << t;
    }
    if (stopped_at < 0 && box.linear_velocity.x() < 1e-9) stopped_at = t;
  }
  EXPECT_NEAR(stopped_at, t_stop, 2 * h);
  // the discrete stopping distance differs from v0^2/(2 mu g) by at most v0 h
  EXPECT_NEAR(box.pose.position.x(), x_stop, v0 * h);
  EXPECT_NEAR(box.pose.position.y(), 0.0, 1e-9);  // a friction direction opposes the slide exactly
  EXPECT_NEAR(box.pose.position.z(), 0.1, 1e-9);  // neither sinks nor lifts
  EXPECT_LT(box.linear_velocity.norm(), 1e-9);    // and stays stopped (static friction)
}

TEST(RestingBlock, PenetrationStaysBelowOneNanometreForTenSeconds) {
  World world = test::load_world("resting-block");
  const Shape& ground = world.model().bodies[0].shape;
  const Shape& block = world.model().bodies[1].shape;
  while (world.state().time < 10.0 - 1e-9) {
    const StepReport& r = world.step();
    ASSERT_EQ(r.solver_failures, 0);
    const double depth = penetration_depth(ground, world.state().bodies[0].pose, block,
                                                 world.state().bodies[1].pose);
    ASSERT_LT(depth, 1e-9) << "t = " << world.state().time;
    ASSERT_LT(world.state().bodies[1].linear_velocity.norm(), 1e-9);
  }
}

TEST(MomentumChain, TotalMomentumIsConservedThroughEveryImpact) {
  World world = test::load_world("momentum-chain");
  const Vec3 p0 = linear_momentum(world.model(), world.state());
  ASSERT_NEAR(p0.x(), 3.0, 1e-12);
  int impacts = 0;
  while (world.state().time < 3.0 - 1e-9) {
    const StepReport& r = world.step();
    ASSERT_EQ(r.solver_failures, 0);
    for (const ContactImpulse& i : r.impulses) impacts += i.normal > 0.0;
    const Vec3 p = linear_momentum(world.model(), world.state());
    // internal impulses act in equal and opposite pairs: only round-off remains
    ASSERT_LT((p - p0).norm(), 1e-9 * p0.norm()) << "t = " << world.state().time;
  }
  EXPECT_GT(impacts, 4);  // the chain did collide
  // inelastic: after the impacts everything moves together at p / m_total
  const double v_common = 3.0 / (1.5 + 1.0 + 0.25 + 0.12 + 0.8);
  for (const BodyState& b : world.state().bodies) EXPECT_NEAR(b.linear_velocity.x(), v_common, 1e-6);
}

}  // namespace
}  // namespace pegsim

namespace pegsim {
namespace {

TEST(BadInput, NonFiniteForceStopsTheRunNamingTheBody) {
  World world = test::load_world("free-fall");
  world.step();
  world.state().bodies[0].force = Vec3(std::nan(""), 0.0, 0.0);
  try {
    world.step();
    FAIL() << "a NaN force was integrated silently";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("body 'box'"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("non-finite"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace pegsim
