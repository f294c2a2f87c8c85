// Thesis 4.1, Fig. 4.4 (the discussion after eq. 4.5): LNC's hole. Two
// corners cross: each vertex stays outside the other body (each vertex keeps
// one of its edge constraints satisfied, which is all LNC's I-constraints,
// eqs. 4.2-4.4, ask), yet the bodies overlap. PEG's X-constraints (eq. 4.6,
// max(psi_1, psi_4) >= 0 and max(psi_2, psi_3) >= 0) forbid it.
//
// One step, no gravity, no friction, and B's inertia 1e6 kg m^2 so that it
// translates (with the shape's own inertia PEG's impulse at v_b spins B, and
// the rotation error of the semi-implicit step, thesis 5.3, leaves 3.7e-5 m^2
// of overlap: not the contact model's doing). A is a static unit square with its corner v_b at the origin
// (x, y <= 0); B is a triangle whose corner v_a (edges along -60 and -30
// degrees, an acute wedge opening down-right) starts 1 cm left of and 3 cm
// above v_b, moving left at 9 m/s. Its free motion (9 cm in the step) keeps
// v_a 3 cm above A's top edge and v_b outside B's steeper edge at the start
// and outside its shallower edge at the end: every vertex outside the other
// body, and B's wedge slices A's corner, 5.3e-3 m^2 of overlap.
#include "analysis/overlap.hpp"
#include "io/scene.hpp"
#include "sim/scene_runner.hpp"
#include "sim/world.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <string>

namespace pegsim {
namespace {

const char* kScene =
    "options: {dimension: 2, h: 0.01, eps: 0.1, solver: lemke, gravity: [0, 0], friction: 0}\n"
    "bodies:\n"
    "  - {name: A, shape: {rectangle: [1, 1]}, static: true, position: [-0.5, -0.5]}\n"
    // the wedge's tip at the shape frame's origin: cos/sin of -60 and -30 degrees
    "  - {name: B, mass: 1, inertia: 1e6, position: [-0.01, 0.03], velocity: [-9, 0],\n"
    "     shape: {polygon: [[0, 0], [0.5, -0.8660254037844386], [0.8660254037844386, -0.5]]}}\n";

World make_world(ContactModelKind kind) {
  Scene s = load_scene_string(kScene, "lnc-hole");
  s.model.options.model = kind;
  return test::measuring_world(std::move(s.model), std::move(s.state));
}

// v_a, B's wedge tip, in the world frame
Vec2 tip(const World& w) {
  const Polygon& b = std::get<Polygon>(w.model().bodies[1].shape);
  Vec2 best = w.state().bodies[1].pose.to_world_2d(b.vertices[0]);
  for (const Vec2& v : b.vertices) {  // the tip is the leftmost vertex
    const Vec2 p = w.state().bodies[1].pose.to_world_2d(v);
    if (p.x() < best.x()) best = p;
  }
  return best;
}

// Is the world point p strictly inside body `body` (a convex polygon)?
bool inside(const World& w, std::uint32_t body, const Vec2& p) {
  const Polygon& poly = std::get<Polygon>(w.model().bodies[body].shape);
  const Pose& pose = w.state().bodies[body].pose;
  const std::size_t n = poly.vertices.size();
  double sign = 0.0;
  for (std::size_t i = 0; i < n; ++i) {
    const Vec2 a = pose.to_world_2d(poly.vertices[i]);
    const Vec2 b = pose.to_world_2d(poly.vertices[(i + 1) % n]);
    const double cross = (b - a).x() * (p - a).y() - (b - a).y() * (p - a).x();
    if (sign == 0.0) sign = cross;
    if (cross * sign <= 0.0) return false;
  }
  return true;
}

TEST(LncHole, CornersCrossUnderLncButNotUnderPeg) {
  World lnc = make_world(ContactModelKind::Lnc);
  World peg = make_world(ContactModelKind::Peg);
  ASSERT_NEAR(tip(lnc).x(), -0.01, 1e-12);  // the scene is as described
  ASSERT_NEAR(tip(lnc).y(), 0.03, 1e-12);
  ASSERT_EQ(total_overlap(lnc.model(), lnc.state()), 0.0);  // apart at the start

  lnc.step();
  peg.step();
  EXPECT_EQ(lnc.last_report().solver_failures, 0);
  EXPECT_EQ(peg.last_report().solver_failures, 0);
  EXPECT_GT(lnc.last_constraints().counts().i, 0);  // both models saw the corners: I-constraints
  EXPECT_GT(peg.last_constraints().counts().x, 0);  // PEG adds its X-constraints

  // LNC: the free motion is admissible, so B moves on unhindered and the
  // corners cross: neither vertex inside the other body, the bodies overlapping
  EXPECT_NEAR(lnc.state().bodies[1].linear_velocity.x(), -9.0, 1e-9);
  EXPECT_FALSE(inside(lnc, 0, tip(lnc)));         // v_a outside A
  EXPECT_FALSE(inside(lnc, 1, Vec2(0.0, 0.0)));   // v_b outside B
  const double lnc_overlap = total_overlap(lnc.model(), lnc.state());
  EXPECT_GT(lnc_overlap, 1e-3);  // 5.3e-3 m^2 (the wedge's slice of A's corner)
  EXPECT_GT(lnc.last_report().max_penetration, 1e-2);  // SAT depth, m

  // PEG: the X-constraints stop the crossing (round-off overlap at most)
  EXPECT_LT(total_overlap(peg.model(), peg.state()), 1e-12);
  EXPECT_LT(peg.last_report().max_penetration, 1e-6);  // 1.9e-9 m: B's leftover rotation
  EXPECT_GT(peg.state().bodies[1].linear_velocity.x(), -9.0 + 1.0);  // B was slowed
}

}  // namespace
}  // namespace pegsim
