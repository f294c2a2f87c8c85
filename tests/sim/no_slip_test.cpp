// The no-slip stepper (reference 002, section VI; sim/normal_lcp_stepper.hpp):
// its claims as physics checks. Tolerances: the solver tolerance is 1e-9
// (SimOptions::solver_tolerance, a velocity residual in m/s scaled by
// 1 + |b|), so a velocity error of ~1e-9 m/s over a few hundred steps of
// h = 0.005 moves a body by ~1e-9 m at most; round-off of the P_X products on
// O(1) matrices is ~1e-15.
#include "io/random_pour.hpp"
#include "sim/normal_lcp_stepper.hpp"
#include "sim/scene_runner.hpp"

#include <Eigen/Eigenvalues>
#include <gtest/gtest.h>

#include <cmath>

namespace pegsim {
namespace {

const std::string kGround =
    "  - {name: ground, shape: {half_space: {normal: [0, 0, 1], offset: 0}}, static: true}\n";

std::string options(const std::string& solver) {
  return "options: {dimension: 3, h: 0.005, eps: auto, model: standard, stepper: no-slip, solver: " + solver +
         "}\n";
}

const NormalLcpStepper& no_slip(const World& w) { return dynamic_cast<const NormalLcpStepper&>(w.stepper()); }

// Velocity-level non-penetration after each step: w = N v+ + psi/h >= -tol at
// every contact of every island, and no slip at the touching ones.
void expect_certificates(const World& w, const StepReport& r) {
  const NormalLcpStepper& s = no_slip(w);
  for (std::size_t i = 0; i < s.spaces().size(); ++i) {
    const VecX wn = s.spaces()[i].N * s.post_velocities()[i] + s.spaces()[i].gap / w.model().options.h;
    EXPECT_GE(wn.minCoeff(), -1e-8) << "step " << r.step << " island " << i;
  }
  EXPECT_LE(r.slip_residual, 1e-9) << "step " << r.step;
  EXPECT_EQ(r.solver_failures, 0) << "step " << r.step << ": " << r.solver.message;
}

TEST(NoSlip, BoxRestingOnTheGroundDoesNotDrift) {
  const Scene s = load_scene_string(options("ppm") + "bodies:\n" + kGround +
                                    "  - {name: box, shape: {box: [1, 1, 1]}, mass: 1, position: [0, 0, 0.5]}\n");
  World w(s.model, s.state);
  const Vec3 p0 = w.state().bodies[1].pose.position;
  for (int k = 0; k < 400; ++k) expect_certificates(w, w.step());
  // four corner contacts, one LCP variable each (Stewart-Trinkle: 4 (n_d + 2))
  EXPECT_EQ(w.last_report().problem_size, 4);
  EXPECT_LE((w.state().bodies[1].pose.position - p0).norm(), 1e-9);
}

// Steeper than any friction angle (tan 60 deg = 1.73, the material's mu = 0):
// Coulomb friction slides, no-slip holds (the model's claim, 002 section VI).
TEST(NoSlip, BoxOnASteepInclineDoesNotSlide) {
  Scene s = load_scene_file(test::scene_path("no-slip-incline"));
  World w(s.model, s.state);
  const Vec3 p0 = w.state().bodies[1].pose.position;
  for (int k = 0; k < 400; ++k) expect_certificates(w, w.step());
  EXPECT_LE((w.state().bodies[1].pose.position - p0).norm(), 1e-9);
  // the same scene under the time-stepping stepper with Coulomb friction slides
  s.model.options.stepper = "time-stepping";
  World coulomb(s.model, s.state);
  for (int k = 0; k < 100; ++k) coulomb.step();
  EXPECT_GT((coulomb.state().bodies[1].pose.position - p0).norm(), 0.1);  // ~ 1/2 g sin 60 t^2 = 1.06 m at 0.5 s
}

// A box squeezed between two free fingers (boxes pushed inward by 10 N each,
// their own weight and half the held box's carried by an upward force: the
// system is in equilibrium) is held: no slip at the side faces, and the
// whole grasp does not move.
TEST(NoSlip, BoxBetweenTwoPushingFingersIsHeld) {
  const Scene s = load_scene_string(
      options("ppm") +
      "bodies:\n"
      "  - {name: left, shape: {box: [0.2, 0.5, 0.5]}, mass: 1, position: [-0.35, 0, 1]}\n"
      "  - {name: held, shape: {box: [0.5, 0.5, 0.5]}, mass: 1, position: [0, 0, 1]}\n"
      "  - {name: right, shape: {box: [0.2, 0.5, 0.5]}, mass: 1, position: [0.35, 0, 1]}\n");
  World w(s.model, s.state);
  const Vec3 p0 = w.state().bodies[1].pose.position;
  const double g = 9.81;
  for (int k = 0; k < 200; ++k) {
    w.state().bodies[0].force = Vec3(10.0, 0.0, 1.5 * g);
    w.state().bodies[2].force = Vec3(-10.0, 0.0, 1.5 * g);
    const StepReport& r = w.step();
    expect_certificates(w, r);
    EXPECT_EQ(r.problem_size, static_cast<int>(r.contacts.size())) << k;  // one variable per contact
  }
  EXPECT_LE((w.state().bodies[1].pose.position - p0).norm(), 1e-9);
}

// A tilted box dropped on the ground: every step's velocities are
// non-penetrating at the velocity level and slip-free where touching.
TEST(NoSlip, DroppedBoxNeverPenetratesAtTheVelocityLevel) {
  const Scene s = load_scene_string(
      options("ppm") + "bodies:\n" + kGround +
      "  - {name: box, shape: {box: [1, 0.6, 0.4]}, mass: 2, position: [0, 0, 0.9], velocity: [1, 0, -1],\n"
      "     orientation: {axis_angle: [1, 1, 0, 0.5]}}\n");
  World w(s.model, s.state);
  w.set_measure_penetration(true);
  for (int k = 0; k < 300; ++k) {
    const StepReport& r = w.step();
    expect_certificates(w, r);
    EXPECT_LE(r.max_penetration, 1e-3) << k;  // velocity-level stepping: O(h v) overlap at impact
  }
}

// PPM (Algorithm 1) and the active-set QP solve the same LCPs: the velocities
// N P_X N' z they give agree (z itself is not unique for a PSD matrix).
TEST(NoSlip, PpmAndActiveSetQpAgree) {
  const std::string bodies =
      "bodies:\n" + kGround +
      "  - {name: a, shape: {box: [1, 0.6, 0.4]}, mass: 2, position: [0, 0, 0.9], velocity: [1, 0, -1],\n"
      "     orientation: {axis_angle: [1, 1, 0, 0.5]}}\n"
      "  - {name: b, shape: {box: [1, 1, 1]}, mass: 1, position: [3, 0, 0.5]}\n"
      "  - {name: c, shape: {box: [0.5, 0.5, 0.5]}, mass: 1, position: [3.1, 0.1, 1.3]}\n";
  World ppm(load_scene_string(options("ppm") + bodies).model, load_scene_string(options("ppm") + bodies).state);
  const Scene q = load_scene_string(options("qp-active-set") + bodies);
  World qp(q.model, q.state);
  int compared = 0;
  for (int k = 0; k < 300; ++k) {
    const StepReport& a = ppm.step();
    const StepReport& b = qp.step();
    ASSERT_EQ(a.solver_failures, 0);
    ASSERT_EQ(b.solver_failures, 0);
    const NormalLcpStepper& sa = no_slip(ppm);
    const NormalLcpStepper& sb = no_slip(qp);
    ASSERT_EQ(sa.problems().size(), sb.problems().size());
    for (std::size_t i = 0; i < sa.problems().size(); ++i) {
      // the same problem (the trajectories are the same to the solve's tolerance) ...
      const LcpProblem& pa = sa.problems()[i].lcp;
      const LcpProblem& pb = sb.problems()[i].lcp;
      ASSERT_EQ(pa.size(), pb.size());
      // ... solved to velocities that agree to the solver tolerance
      const VecX wa = pa.A * sa.normal_impulses()[i] + pa.b;
      const VecX wb = pa.A * sb.normal_impulses()[i] + pa.b;
      EXPECT_LE((wa - wb).cwiseAbs().maxCoeff(), 1e-6 * (1.0 + pa.b.cwiseAbs().maxCoeff())) << k;
      EXPECT_LE((sa.post_velocities()[i] - sb.post_velocities()[i]).cwiseAbs().maxCoeff(), 1e-6) << k;
      ++compared;
      (void)pb;
    }
  }
  EXPECT_GT(compared, 300);
  for (std::size_t b = 0; b < ppm.state().bodies.size(); ++b)
    EXPECT_LE((ppm.state().bodies[b].pose.position - qp.state().bodies[b].pose.position).norm(), 1e-6);
}

// N P_X N' (dynamics/normal_lcp.cpp, in Gram form): on the quadruped's trot
// (14 joint-space coordinates, light shins under a heavy torso; up to 12
// contacts and 8 kept no-slip rows a step) every island's A is symmetric
// positive semidefinite to rounding, and P_X N' moves no kept row: X P_X N' = 0.
// Written out as M^-1 - M^-1 X' Y^-1 X M^-1 the same matrices were off by up
// to 5e-4 of |A|, with eigenvalues down to -2e-6 of the largest.
TEST(NoSlip, ContactMatrixOfATrotIsPositiveSemidefiniteToRounding) {
  Scene s = load_scene_file(test::scene_path("quadruped-trot"));
  s.model.options.model = ContactModelKind::Standard;
  s.model.options.stepper = "no-slip";
  s.model.options.solver_chain = {"ppm", "lemke"};
  World w(s.model, s.state);
  int checked = 0;
  for (int k = 0; k < 2000; ++k) {
    ASSERT_EQ(w.step().solver_failures, 0) << "step " << k;
    const NormalLcpStepper& st = no_slip(w);
    for (const NormalLcp& p : st.problems()) {
      if (p.equality.kept.empty()) continue;
      const MatX& A = p.lcp.A;
      const Eigen::SelfAdjointEigenSolver<MatX> eig(A);
      const double top = std::max(eig.eigenvalues().maxCoeff(), 1e-300);
      EXPECT_GE(eig.eigenvalues().minCoeff(), -1e-12 * top) << "step " << k;  // rounding: 1e-16 x n
      const double scale = p.raw_inverse_mass_nt.cwiseAbs().maxCoeff() * p.equality.X.cwiseAbs().maxCoeff();
      EXPECT_LE((p.equality.X * p.inverse_mass_nt).cwiseAbs().maxCoeff(), 1e-12 * scale) << "step " << k;
      ++checked;
    }
  }
  EXPECT_GT(checked, 1000);  // most steps have a touching foot
}

TEST(NoSlip, RefusesWhatItDoesNotModel) {
  Scene s = load_scene_string(options("ppm") + "bodies:\n" + kGround);
  s.model.options.position_correction = true;
  try {
    World w(s.model, s.state);
    FAIL() << "position correction accepted";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("position_correction: false"), std::string::npos) << e.what();
  }
}

// An island of more contacts than max_problem_size is not solved, as in the
// time-stepping stepper: a no-slip pour of hulls (random pour seed 1, the
// standard model's traps) asked for islands of 6305 and 8565 contacts, each
// step 26-45 s. With a budget of 10 the landing's islands are skipped, counted
// and reported; the step returns and nothing goes non-finite.
TEST(NoSlip, IslandOverTheBudgetIsACountedFailure) {
  RandomPourOptions pour;
  Scene scene = random_pour_scene(pour, 1);
  scene.model.options.stepper = "no-slip";
  scene.model.options.model = ContactModelKind::Standard;
  scene.model.options.max_problem_size = 10;
  World w(std::move(scene.model), std::move(scene.state));
  int over = 0, largest = 0;
  for (int k = 0; k < 100; ++k) {
    const StepReport& r = w.step();
    over += r.over_budget;
    EXPECT_GE(r.solver_failures, r.over_budget);
    for (const IslandReport& island : r.islands)
      if (!island.over_budget) largest = std::max(largest, island.problem_size);
  }
  EXPECT_GT(over, 0);
  EXPECT_LE(largest, 10);
  for (const BodyState& b : w.state().bodies) EXPECT_TRUE(b.pose.position.allFinite() && b.linear_velocity.allFinite());
}

}  // namespace
}  // namespace pegsim
