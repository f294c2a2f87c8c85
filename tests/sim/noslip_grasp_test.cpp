// The noslip-grasp experiment (reference 002, section VII-A) as checks:
//  - the shipped scene (static finger plates touching two cubes, no squeeze):
//    no-slip holds the cubes 200 steps without drift above 1e-6 m (the
//    paper's bar: at least 100 steps); Coulomb friction cannot (no normal force);
//  - a force-closure grasp (free fingers pushed together by 20 N, carrying
//    the weight): no-slip and Stewart-Trinkle (n_d = 4, mu = 100) both hold;
//    the problem sizes are n against (n_d + 2) n, and the PPM's pivots are few.
#include "sim/normal_lcp_stepper.hpp"
#include "sim/scene_runner.hpp"

#include <gtest/gtest.h>

#include <cstdio>

namespace pegsim {
namespace {

TEST(NoSlipGrasp, ShippedSceneHoldsTheCubes) {
  Scene s = load_scene_file(test::scene_path("noslip-grasp"));
  World w(s.model, s.state);
  const Vec3 a0 = w.state().bodies[1].pose.position, b0 = w.state().bodies[2].pose.position;
  int max_pivots = 0;
  for (int k = 0; k < 200; ++k) {
    const StepReport& r = w.step();
    ASSERT_EQ(r.solver_failures, 0) << k;
    EXPECT_LE(r.slip_residual, 1e-9);
    max_pivots = std::max(max_pivots, r.solver.iterations);
  }
  EXPECT_LE((w.state().bodies[1].pose.position - a0).norm(), 1e-6);
  EXPECT_LE((w.state().bodies[2].pose.position - b0).norm(), 1e-6);
  std::printf("noslip-grasp (static fingers): %d contacts, no-slip LCP %d variables, max %d ppm pivots per step\n",
              static_cast<int>(w.last_report().contacts.size()), w.last_report().problem_size, max_pivots);
  // Coulomb friction with nothing pressing: the cubes fall (0.5 g t^2 = 0.196 m at 0.2 s)
  s.model.options.stepper = "time-stepping";
  World coulomb(s.model, s.state);
  for (int k = 0; k < 200; ++k) coulomb.step();
  EXPECT_GT((coulomb.state().bodies[1].pose.position - a0).norm(), 0.1);
}

// Free fingers (1 kg plates) pushed inward by 20 N each and lifted by
// (1 + 1) g each: the whole grasp is in equilibrium when it holds.
struct Grasp {
  World world;
  explicit Grasp(const std::string& stepper)
      : world([&] {
          Scene s = load_scene_file(test::scene_path("noslip-grasp"));
          s.model.bodies[0].is_static = s.model.bodies[3].is_static = false;
          for (int b : {0, 3}) {
            s.model.bodies[b].mass = 1.0;
            s.model.bodies[b].inertia = Mat3::Identity() * (1.0 / 12.0) * (0.3 * 0.3 + 0.3 * 0.3);
          }
          s.model.options.stepper = stepper;
          s.model.options.solver = stepper == "no-slip" ? "ppm" : "lemke";
          return World(s.model, s.state);
        }()) {}
  const StepReport& step() {
    world.state().bodies[0].force = Vec3(20.0, 0.0, 2.0 * 9.81);
    world.state().bodies[3].force = Vec3(-20.0, 0.0, 2.0 * 9.81);
    return world.step();
  }
};

TEST(NoSlipGrasp, ForceClosureHeldByNoSlipAndByStewartTrinkle) {
  Grasp no_slip("no-slip"), st("time-stepping");
  const Vec3 a0 = no_slip.world.state().bodies[1].pose.position;
  long pivots = 0;
  int max_pivots = 0, steps = 0, n_no_slip = 0, n_st = 0, st_failures = 0;
  for (int k = 0; k < 200; ++k) {
    const StepReport& r = no_slip.step();
    ASSERT_EQ(r.solver_failures, 0) << k;
    EXPECT_LE(r.slip_residual, 1e-9);
    pivots += r.solver.iterations;
    max_pivots = std::max(max_pivots, r.solver.iterations);
    ++steps;
    n_no_slip = r.problem_size;
    const StepReport& q = st.step();
    st_failures += q.solver_failures;
    n_st = q.problem_size;
    // one LCP variable per contact, against n_d + 2 = 6 for Stewart-Trinkle's 4-sided pyramid
    ASSERT_EQ(r.problem_size, static_cast<int>(r.contacts.size()));
    ASSERT_EQ(q.problem_size, 6 * static_cast<int>(q.contacts.size()));
  }
  EXPECT_LE((no_slip.world.state().bodies[1].pose.position - a0).norm(), 1e-6);
  EXPECT_LE((st.world.state().bodies[1].pose.position - a0).norm(), 1e-3);  // Coulomb holds too, mu = 100
  std::printf("noslip-grasp (force closure): no-slip %d variables vs Stewart-Trinkle %d; ppm pivots mean %.2f max %d;"
              " Stewart-Trinkle failures %d\n",
              n_no_slip, n_st, static_cast<double>(pivots) / steps, max_pivots, st_failures);
}

}  // namespace
}  // namespace pegsim

namespace pegsim {
namespace {

// Same input, same output bit for bit, for each Drumwright-Shell stepper.
TEST(DrumwrightShell, RerunsAreBitIdentical) {
  for (const std::string stepper : {"no-slip", "viscous", "viscous-rk4", "convex-impulse"}) {
    std::vector<Vec3> first;
    for (int run = 0; run < 2; ++run) {
      Scene s = load_scene_string(
          "options: {dimension: 3, h: 0.002, eps: auto, model: standard, stepper: " + stepper +
          ", viscous_friction: 0.3, solver: ppm}\n"
          "friction: [{materials: [default, default], mu: 0.6}]\n"
          "bodies:\n"
          "  - {name: ground, shape: {half_space: {normal: [0, 0, 1], offset: 0}}, static: true}\n"
          "  - {name: a, shape: {box: [1, 0.6, 0.4]}, mass: 2, position: [0, 0, 0.9], velocity: [1, 0, -1],"
          " orientation: {axis_angle: [1, 1, 0, 0.5]}}\n"
          "  - {name: b, shape: {box: [0.5, 0.5, 0.5]}, mass: 1, position: [0.2, 0.1, 1.6]}\n");
      World w(s.model, s.state);
      for (int k = 0; k < 300; ++k) w.step();
      for (std::size_t b = 1; b < w.state().bodies.size(); ++b) {
        if (run == 0) first.push_back(w.state().bodies[b].pose.position);
        else EXPECT_EQ(w.state().bodies[b].pose.position, first[b - 1]) << stepper;
      }
    }
  }
}

}  // namespace
}  // namespace pegsim
