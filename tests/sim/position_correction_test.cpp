// The position correction after the step (SimOptions::position_correction,
// sim/position_correction.cpp): it removes the overlap the semi-implicit step
// leaves, moves poses only, and changes nothing where nothing overlaps.
#include "analysis/overlap.hpp"
#include "io/scene.hpp"
#include "scene_runner.hpp"

#include <gtest/gtest.h>

#include <cmath>

namespace pegsim {
namespace {

World rotation_overlap(double h, bool corrected) {
  Scene s = load_scene_file(test::scene_path("rotation-overlap"));
  s.model.options.h = h;
  s.model.options.position_correction = corrected;
  return test::measuring_world(std::move(s.model), std::move(s.state));
}

// Thesis 5.3: two rectangles spinning at 1 rad/s overlap by 0.5 (1 - cos h)
// m^2 after one step (tests/analysis/rotation_overlap_test.cpp). The
// correction projects the bar out along the constraint normals: the overlap
// left is below the tolerance's depth (1e-6 m) times the 1 m contact, and the
// velocities are exactly the uncorrected step's (a projection of positions
// adds no impulse, so momentum is untouched).
TEST(PositionCorrection, RemovesTheRotationOverlapAndLeavesVelocitiesAlone) {
  for (double h : {0.01, 0.1, 0.5}) {
    SCOPED_TRACE("h = " + std::to_string(h));
    World plain = rotation_overlap(h, false);
    World corrected = rotation_overlap(h, true);
    plain.step();
    const StepReport& r = corrected.step();
    const double before = total_overlap(plain.model(), plain.state());
    EXPECT_NEAR(before, 0.5 * (1.0 - std::cos(h)), 1e-3 * before);
    EXPECT_GT(r.position_corrections, 0);
    EXPECT_EQ(r.correction_failures, 0);
    EXPECT_NEAR(r.penetration_before_correction, plain.last_report().max_penetration, 1e-15);
    EXPECT_LE(r.max_penetration, corrected.model().options.correction_tolerance);
    EXPECT_LT(total_overlap(corrected.model(), corrected.state()), 1e-6 * 1.0);
    for (std::size_t b = 0; b < plain.state().bodies.size(); ++b) {
      EXPECT_EQ(plain.state().bodies[b].linear_velocity, corrected.state().bodies[b].linear_velocity);
      EXPECT_EQ(plain.state().bodies[b].angular_velocity, corrected.state().bodies[b].angular_velocity);
    }
    // the bar was pushed up out of the block, not sideways
    const Vec3 shift = corrected.state().bodies[1].pose.position - plain.state().bodies[1].pose.position;
    EXPECT_GT(shift.y(), 0.0);
  }
}

// Where no step leaves an overlap above the tolerance the correction never
// runs, and the run is the uncorrected one bit for bit.
TEST(PositionCorrection, IsANoOpWithoutOverlap) {
  for (const char* name : {"resting-block", "sliding-box", "box-stack-3d"}) {
    SCOPED_TRACE(name);
    Scene a = load_scene_file(test::scene_path(name));
    Scene b = a;
    b.model.options.position_correction = true;
    World plain = test::measuring_world(std::move(a.model), std::move(a.state));
    World corrected = test::measuring_world(std::move(b.model), std::move(b.state));
    for (int i = 0; i < 200; ++i) {
      const StepReport& rp = plain.step();
      ASSERT_LE(rp.max_penetration, corrected.model().options.correction_tolerance) << "step " << i;
      EXPECT_EQ(corrected.step().position_corrections, 0);
    }
    for (std::size_t k = 0; k < plain.state().bodies.size(); ++k) {
      EXPECT_EQ(plain.state().bodies[k].pose.position, corrected.state().bodies[k].pose.position);
      EXPECT_EQ(plain.state().bodies[k].pose.orientation.coeffs(), corrected.state().bodies[k].pose.orientation.coeffs());
    }
  }
}

// Two identical corrected runs agree bit for bit (the correction's
// constraint set and solve are as deterministic as the step's).
TEST(PositionCorrection, CorrectedRunsRepeatBitForBit) {
  World a = rotation_overlap(0.2, true), b = rotation_overlap(0.2, true);
  for (int i = 0; i < 5; ++i) {
    a.step();
    b.step();
  }
  for (std::size_t k = 0; k < a.state().bodies.size(); ++k) {
    EXPECT_EQ(a.state().bodies[k].pose.position, b.state().bodies[k].pose.position);
    EXPECT_EQ(a.state().bodies[k].pose.orientation.coeffs(), b.state().bodies[k].pose.orientation.coeffs());
  }
}

}  // namespace
}  // namespace pegsim
