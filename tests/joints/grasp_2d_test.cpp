// grasp-2d (thesis 5.2.5; src/io/grasp_2d.hpp): the five-link gripper closes
// on a random polygon. Checks of the reading guide (shared/notes/
// joints-and-grasp.md 3.5): the scene generator is deterministic and keeps
// its promises; PEG holds the polygon and converges to a small-h reference
// as h shrinks; the standard model's grasp ends elsewhere (its fingertips
// catch on the polygon's vertices, thesis Fig. 5.19).
#include "common/test_paths.hpp"

#include "io/grasp_2d.hpp"
#include "sim/world.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

namespace pegsim {
namespace {

using B = Grasp2dBodies;

struct GraspRun {
  std::vector<Vec2> object;  // the object's position after every step, [0] the initial one
  double max_penetration = 0.0;
  long failures = 0;
  bool fingertips_touch = false;  // both fingertip links (f3, f4) touch the object in the last step
};

GraspRun grasp(std::uint64_t seed, ContactModelKind model, double h) {
  Grasp2dOptions o;
  o.h = h;
  Scene s = grasp_2d_scene(o, seed);
  s.model.options.model = model;
  World world(s.model, s.state);
  world.set_measure_penetration(true);
  GraspRun run;
  auto sample = [&] {
    const Vec3& p = world.state().bodies[B::object].pose.position;
    run.object.emplace_back(p.x(), p.y());
  };
  sample();
  const long steps = std::lround(o.duration / h);
  for (long k = 0; k < steps; ++k) {
    const StepReport& r = world.step();
    sample();
    run.max_penetration = std::max(run.max_penetration, r.max_penetration);
    run.failures += r.solver_failures;
    bool f3 = false, f4 = false;
    for (const Contact& c : r.contacts) {
      const std::uint32_t other = c.body_a == B::object ? c.body_b : c.body_b == B::object ? c.body_a : 999;
      f3 = f3 || other == B::f3;
      f4 = f4 || other == B::f4;
    }
    run.fingertips_touch = f3 && f4;
  }
  return run;
}

// the largest distance between two runs at their common times (h_fine divides h_coarse)
double largest_deviation(const GraspRun& coarse, const GraspRun& fine, long ratio) {
  double d = 0.0;
  for (std::size_t k = 0; k < coarse.object.size() && k * ratio < fine.object.size(); ++k)
    d = std::max(d, (coarse.object[k] - fine.object[k * ratio]).norm());
  return d;
}

TEST(Grasp2dScene, SameSeedSameSceneAndThePolygonClearOfGroundAndGripper) {
  const Grasp2dOptions o;
  EXPECT_EQ(grasp_2d_yaml(o, 7), grasp_2d_yaml(o, 7));
  EXPECT_NE(grasp_2d_yaml(o, 7), grasp_2d_yaml(o, 8));
  for (std::uint64_t seed = 1; seed <= 10; ++seed) {
    const Scene s = grasp_2d_scene(o, seed);
    ASSERT_EQ(s.model.bodies.size(), 7u);
    ASSERT_EQ(s.model.joints.size(), 4u);
    ASSERT_EQ(s.model.controllers.size(), 4u);
    // the area centroid at (0, 0.2) (the loader puts the body frame there)
    const Vec3& c = s.state.bodies[B::object].pose.position;
    EXPECT_NEAR(c.x(), 0.0, 1e-12) << "seed " << seed;
    EXPECT_NEAR(c.y(), 0.2, 1e-12) << "seed " << seed;
    // 2 mm above the ground's top (0.155) and below the gripper (0.245)
    const Polygon& p = std::get<Polygon>(s.model.bodies[B::object].shape);
    for (const Vec2& v : p.vertices) {
      EXPECT_GT(c.y() + v.y(), 0.157 - 1e-12) << "seed " << seed;
      EXPECT_LT(c.y() + v.y(), 0.243 + 1e-12) << "seed " << seed;
    }
  }
}

// scenes/grasp-2d.yaml is polygon 1 as the generator writes it (regenerate
// it with `pegsim experiment grasp-2d --quick`: scene_polygon1.yaml)
TEST(Grasp2dScene, TheShippedSceneIsPolygonOne) {
  std::ifstream in(std::string(PEGSIM_SCENES_DIR) + "/grasp-2d.yaml");
  const std::string shipped((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  EXPECT_EQ(shipped, grasp_2d_yaml(Grasp2dOptions{}, 1));
}

// PEG at h = 0.005 and 0.001 against PEG at h = 2.5e-4: the thesis's claim
// that PEG's deviations are temporary and converge to the reference. While
// the fingers strike the polygon the runs differ by when within a step each
// impact falls, a deviation that shrinks with h (checked: the h = 0.001 run
// stays closer than the h = 0.005 one) and stays below 3 mm, a tenth of the
// ~3.5 cm polygon; the final grasp agrees within 0.1 mm (the guide's bar (b)
// is 1 mm, about 2% of the polygon). The reference overlaps nothing beyond
// 1e-6 m (guide (a): exact contact at a small step, eps auto; what remains is
// the rotation's O(w^2 r h^2) per step).
TEST(Grasp2d, PegHoldsThePolygonAndConvergesToTheSmallStepReference) {
  const GraspRun fine = grasp(1, ContactModelKind::Peg, 2.5e-4);
  EXPECT_EQ(fine.failures, 0);
  EXPECT_LT(fine.max_penetration, 1e-6);
  EXPECT_TRUE(fine.fingertips_touch);
  double previous = 0.0;
  for (const double h : {0.005, 0.001}) {
    const GraspRun run = grasp(1, ContactModelKind::Peg, h);
    EXPECT_EQ(run.failures, 0) << "h = " << h;
    EXPECT_TRUE(run.fingertips_touch) << "h = " << h;
    const double deviation = largest_deviation(run, fine, std::lround(h / 2.5e-4));
    const double final_error = (run.object.back() - fine.object.back()).norm();
    std::printf("grasp-2d polygon 1, PEG h = %g vs 2.5e-4: largest deviation %.3g m, final %.3g m, deepest overlap "
                "%.3g m (reference %.3g m)\n", h, deviation, final_error, run.max_penetration, fine.max_penetration);
    EXPECT_LT(deviation, 3e-3) << "h = " << h;
    EXPECT_LT(final_error, 1e-4) << "h = " << h;
    if (previous > 0.0) {
      EXPECT_LT(deviation, previous) << "h = " << h;
    }
    previous = deviation;
  }
}

// The standard model under the same gripper ends its grasp elsewhere (thesis
// Figs. 5.18-5.19: fingertip vertices caught on the polygon's); compared with
// PEG's h = 0.005 run against the same reference, it is at least ten times
// farther from it at the end.
TEST(Grasp2d, TheStandardModelsGraspEndsFartherFromTheReferenceThanPegs) {
  const GraspRun fine = grasp(1, ContactModelKind::Peg, 2.5e-4);
  const GraspRun peg = grasp(1, ContactModelKind::Peg, 0.005);
  const GraspRun standard = grasp(1, ContactModelKind::Standard, 0.005);
  const double peg_error = (peg.object.back() - fine.object.back()).norm();
  const double standard_error = (standard.object.back() - fine.object.back()).norm();
  std::printf("grasp-2d polygon 1, h = 0.005, final distance to the reference: PEG %.3g m, standard %.3g m\n",
              peg_error, standard_error);
  EXPECT_GT(standard_error, 10.0 * peg_error);
}

}  // namespace
}  // namespace pegsim
