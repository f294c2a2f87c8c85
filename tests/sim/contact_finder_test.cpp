// The contact finder (sim/contact_finder.hpp) and the penetration meter
// (sim/penetration_meter.hpp) on their own: a box resting on the ground and
// one falling far above it; eq. 5.1's distance against its closed form; the
// SAT depth of two boxes overlapping by a known amount.
#include "sim/contact_finder.hpp"
#include "sim/penetration_meter.hpp"

#include <gtest/gtest.h>

#include <cmath>

namespace pegsim {
namespace {

// ground (static half-space z <= 0) and unit cubes at the given heights of their centres
struct Scene {
  Model model;
  State state;
};
Scene ground_and_cubes(std::initializer_list<double> heights, double eps) {
  Scene s;
  s.model.options.eps = eps;
  BodyModel ground;
  ground.name = "ground";
  ground.is_static = true;
  ground.shape = HalfSpace{Vec3::UnitZ(), 0.0};
  s.model.add_body(ground);
  s.state.bodies.emplace_back();
  for (double z : heights) {
    BodyModel cube;
    cube.name = "cube";
    cube.shape = make_box(Vec3(1, 1, 1));
    cube.mass = 1.0;
    cube.inertia = Mat3::Identity() / 6.0;
    s.model.add_body(cube);
    BodyState b;
    b.pose.position = Vec3(0, 0, z);
    s.state.bodies.push_back(b);
  }
  return s;
}

std::vector<Vec6> at_rest(const State& state) { return std::vector<Vec6>(state.bodies.size(), Vec6::Zero()); }

TEST(ContactFinder, FindsTheRestingCubesCornersAndNothingFarAway) {
  const Scene s = ground_and_cubes({0.5 + 0.001, 10.0}, 0.01);  // one cube 1 mm above the ground, one 9.5 m up
  ContactFinder finder;
  StepProfile profile;
  finder.find(s.model, s.state, at_rest(s.state), profile);
  // a half-space's box is unbounded, so both cubes pair with the ground; the
  // cubes' boxes (grown by eps/2 each) do not meet
  ASSERT_EQ(finder.pairs().size(), 2u);
  EXPECT_EQ(finder.pairs()[0], (BodyPair{0, 1}));
  EXPECT_EQ(finder.pairs()[1], (BodyPair{0, 2}));
  // the near cube's bottom corners against the plane; the far one's are 9.5 m beyond eps
  ASSERT_EQ(finder.contacts().size(), 4u);
  for (const Contact& c : finder.contacts()) {
    EXPECT_EQ(c.body_b, 1u);
    EXPECT_EQ(c.kind, FeatureKind::VertexPlane);
    EXPECT_NEAR(c.gap, 0.001, 1e-12);
    EXPECT_NEAR(c.normal.z(), 1.0, 1e-15);
  }
  EXPECT_GT(profile[Stage::Narrowphase] + profile[Stage::Broadphase], 0.0);
  // the same pairs again at the same poses: the same contacts
  const std::vector<Contact> first = finder.contacts();
  finder.refind(s.model, s.state);
  ASSERT_EQ(finder.contacts().size(), first.size());
  for (std::size_t k = 0; k < first.size(); ++k) EXPECT_EQ(finder.contacts()[k].gap, first[k].gap);
}

// eps: auto, thesis eq. 5.1 in its dimensionally consistent form:
// eps_i = h (|v| + |w| r) + h^2/2 (|a| + |alpha| r); here w = 0, a = g.
TEST(ContactFinder, AutomaticContactDistanceIsTheStepsTravel) {
  Scene s = ground_and_cubes({5.0}, 0.01);
  s.model.options.eps_auto = true;
  s.state.bodies[1].linear_velocity = Vec3(3, 0, -4);  // |v| = 5 m/s
  const double h = s.model.options.h;
  EXPECT_NEAR(contact_distance(s.model, s.state, 1), h * 5.0 + 0.5 * h * h * 9.81, 1e-15);
  EXPECT_EQ(contact_distance(s.model, s.state, 0), 0.0);  // a static body travels nowhere
  s.model.options.eps_auto = false;
  EXPECT_EQ(contact_distance(s.model, s.state, 1), 0.005);  // half the scene's eps per body
}

TEST(PenetrationMeter, DeepestSatOverlapOverThePairs) {
  Scene s = ground_and_cubes({0.5 - 0.003, 1.5 - 0.003 - 0.02}, 0.01);  // 3 mm into the ground, 2 cm into each other
  const std::vector<BodyPair> pairs = {{0, 1}, {0, 2}, {1, 2}};
  EXPECT_NEAR(deepest_penetration(s.model, s.state, pairs), 0.02, 1e-12);
  EXPECT_NEAR(deepest_penetration(s.model, s.state, {{0, 1}}), 0.003, 1e-12);
  EXPECT_EQ(deepest_penetration(s.model, s.state, {}), 0.0);
  s.state.bodies[2].pose.position.z() = 3.0;  // apart: no overlap, not a negative one
  EXPECT_EQ(deepest_penetration(s.model, s.state, {{1, 2}}), 0.0);
}

}  // namespace
}  // namespace pegsim
