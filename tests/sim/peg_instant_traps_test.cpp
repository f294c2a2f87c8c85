// Thesis 5.1, instantaneous cases in 2D: a block sliding along a static
// block's top towards its corner.
//   Fig. 5.1: the slider's lower-right vertex v_a is 5 cm short of the
//     corner v_b, inside eps: its contact against the static block's right
//     edge has psi = -5 cm ("a region of deep penetration" of that edge's
//     half-plane). The standard model corrects it with a huge sideways impulse.
//   Fig. 5.2: v_a is at the corner; the dual standard-model trap (v_b against
//     the slider's right edge) halts the slider.
// PEG admits the physical motion in both: the slider keeps sliding, and
// passes the corner without interpenetration.
#include "io/scene.hpp"
#include "sim/world.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <limits>
#include <string>
#include <vector>

namespace pegsim {
namespace {

// static block: x in [-1, 1], y in [-0.5, 0.5] (corner v_b at (1, 0.5));
// slider: 1 x 0.5, resting on it, sliding right at 1 m/s; frictionless.
std::string scene(double v_a_x) {
  const double cx = v_a_x - 0.5;  // the slider's centre
  return "options: {dimension: 2, h: 0.01, eps: 0.1, solver: lemke, gravity: [0, -9.81]}\n"
         "bodies:\n"
         "  - {name: block, shape: {rectangle: [2, 1]}, static: true}\n"
         "  - {name: slider, shape: {rectangle: [1, 0.5]}, mass: 1, position: [" +
         std::to_string(cx) + ", 0.75], velocity: [1, 0]}\n";
}

World make_world(double v_a_x, ContactModelKind kind) {
  Scene s = load_scene_string(scene(v_a_x), "instant-trap");
  s.model.options.model = kind;
  return World(std::move(s.model), std::move(s.state));
}

// Penetration depth of two convex polygons (separating axis theorem), > 0 when they overlap.
double overlap(const World& w) {
  std::vector<std::vector<Vec2>> pts(2);
  for (int b = 0; b < 2; ++b)
    for (const Vec2& v : std::get<Polygon>(w.model().bodies[b].shape).vertices)
      pts[b].push_back(w.state().bodies[b].pose.to_world_2d(v));
  double depth = std::numeric_limits<double>::infinity();
  for (int b = 0; b < 2; ++b)
    for (std::size_t i = 0; i < pts[b].size(); ++i) {
      const Vec2 n = perp_cw(pts[b][(i + 1) % pts[b].size()] - pts[b][i]).normalized();
      double lo[2] = {1e300, 1e300}, hi[2] = {-1e300, -1e300};
      for (int k = 0; k < 2; ++k)
        for (const Vec2& p : pts[k]) lo[k] = std::min(lo[k], n.dot(p)), hi[k] = std::max(hi[k], n.dot(p));
      depth = std::min(depth, std::min(hi[0] - lo[1], hi[1] - lo[0]));
    }
  return depth;
}

TEST(PegInstantTraps, Fig51_NoSidewaysImpulseFromTheDeepHalfPlane) {
  World peg = make_world(0.95, ContactModelKind::Peg);
  peg.step();
  const auto counts = peg.last_constraints().counts();
  EXPECT_EQ(counts.i, 2);  // v_a and v_b each against two edges (eq. 4.17)
  EXPECT_EQ(counts.x, 2);
  EXPECT_EQ(peg.last_report().solver_failures, 0);
  const BodyState& s = peg.state().bodies[1];
  EXPECT_NEAR(s.linear_velocity.x(), 1.0, 1e-9);  // frictionless: nothing pushes sideways
  EXPECT_NEAR(s.linear_velocity.y(), 0.0, 1e-9);  // held up by the block
  EXPECT_NEAR(s.angular_velocity.z(), 0.0, 1e-9);

  // The standard model enforces psi >= 0 against the block's right edge too:
  // the vertex must leave that half-plane, 5 cm, in one step.
  World standard = make_world(0.95, ContactModelKind::Standard);
  standard.step();
  const double kick = standard.state().bodies[1].linear_velocity.x() - 1.0;
  EXPECT_GT(kick, 3.0) << "standard model: sideways velocity change " << kick << " m/s";
}

TEST(PegInstantTraps, Fig52_SlidesPastTheCornerInsteadOfSticking) {
  World peg = make_world(1.0, ContactModelKind::Peg);
  World standard = make_world(1.0, ContactModelKind::Standard);
  peg.step();
  standard.step();
  EXPECT_NEAR(peg.state().bodies[1].linear_velocity.x(), 1.0, 1e-9);
  EXPECT_LT(standard.state().bodies[1].linear_velocity.x(), 0.25) << "the dual trap all but halts the slider";

  // 0.3 s on: PEG's slider has slid 0.3 m past the corner (its centre of mass
  // still over the block), resting on the block without overlapping it.
  for (int i = 1; i < 30; ++i) {
    peg.step();
    standard.step();
    EXPECT_EQ(peg.last_report().solver_failures, 0) << "step " << i;
    EXPECT_LT(overlap(peg), 1e-6) << "step " << i;
  }
  const BodyState& s = peg.state().bodies[1];
  EXPECT_NEAR(s.pose.position.x(), 0.5 + 0.3, 1e-6);
  EXPECT_NEAR(s.pose.position.y(), 0.75, 1e-6);
  EXPECT_NEAR(planar_angle(s.pose), 0.0, 1e-9);
  EXPECT_LT(standard.state().bodies[1].pose.position.x(), 0.5 + 0.01) << "standard model: stuck at the corner";
}

}  // namespace
}  // namespace pegsim
