// The Drumwright-Shell steppers on PEG's contacts, each I- and X-constraint
// reduced to its active piece (contact/active_piece.hpp).
//
// box-stack-3d-offset (ten frictionless unit cubes dropped with horizontal
// offsets of up to 0.1 m): vertices of each cube come within eps of the side
// faces of the one below with negative gaps, the standard model's trap in 3D.
// Measured on the standard model's contacts over these 2 s: viscous-rk4 fails
// 1620 of 1837 solves and sinks the stack 0.80 m, viscous 325 of 362 (1.3 cm),
// no-slip 339 of 362 (0.29 m). On the active
// pieces the stack lands and stands exactly, as under time stepping with PEG:
// the cubes land flat face on flat face, so every impulse is vertical (no
// friction, no sideways push from a falsely extended side face) and each cube
// keeps its x and y; each ends resting on the one below, its centre at 0.5 +
// k m. Tolerances: the solves' 1e-9 residuals over a few hundred steps move a
// pose by far less than 1e-9 m (the run measures 1e-13).
#include "contact/active_piece.hpp"
#include "sim/scene_runner.hpp"

#include <gtest/gtest.h>

#include <string>

namespace pegsim {
namespace {

TEST(ActivePiece, OffsetStackStandsUnderTheNormalLcpSteppers) {
  for (const std::string stepper : {"no-slip", "viscous", "viscous-rk4"}) {
    SCOPED_TRACE(stepper);
    Scene s = load_scene_file(test::scene_path("box-stack-3d-offset"));
    ASSERT_EQ(s.model.options.model, ContactModelKind::Peg);
    s.model.options.stepper = stepper;
    s.model.options.solver_chain = {"ppm"};
    std::vector<Vec3> start;
    for (const BodyState& b : s.state.bodies) start.push_back(b.pose.position);
    World w(s.model, s.state);
    w.set_measure_penetration(true);
    int failures = 0;
    double deepest = 0.0;
    for (int k = 0; k < 400; ++k) {
      const StepReport& r = w.step();
      failures += r.solver_failures;
      deepest = std::max(deepest, r.max_penetration);
      EXPECT_EQ(r.constraints.i + r.constraints.x, 0) << "the steppers read U-constraints only";
    }
    EXPECT_EQ(failures, 0);
    EXPECT_LT(deepest, 1e-9);
    int k = 0;
    for (std::size_t b = 0; b < s.model.bodies.size(); ++b) {
      if (s.model.bodies[b].is_static) continue;
      const Vec3 p = w.state().bodies[b].pose.position;
      EXPECT_NEAR(p.x(), start[b].x(), 1e-9) << s.model.bodies[b].name;
      EXPECT_NEAR(p.y(), start[b].y(), 1e-9) << s.model.bodies[b].name;
      EXPECT_NEAR(p.z(), 0.5 + k, 1e-9) << s.model.bodies[b].name;
      ++k;
    }
    EXPECT_EQ(k, 10);
  }
}

}  // namespace
}  // namespace pegsim
