// The convex-optimization impulse model (reference 000, section 3;
// dynamics/convex_impulse.hpp, sim/convex_impulse_stepper.hpp): the paper's
// claims (guide A.7) as checks.
// Tolerances: phase 1 is one SVD solve on O(1) matrices (round-off ~1e-15,
// checked at 1e-9 m/s); the barrier stops at a duality-gap bound of
// 1e-12 (1 + |b|^2) on the squared tangential velocity (Boyd & Vandenberghe
// eq. 11.13), so its ||u_T||^2 is within that of the optimum.
#include "dynamics/convex_impulse.hpp"
#include "sim/convex_impulse_stepper.hpp"
#include "sim/scene_runner.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <random>

namespace pegsim {
namespace {

const ConvexImpulseStepper& convex(const World& w) { return dynamic_cast<const ConvexImpulseStepper&>(w.stepper()); }

// After every impulse: u_N = N v+ >= 0 (indeed = -e nu_N) at every contact in
// the set, cones respected, the tangential velocity not increased, certified.
void expect_certificates(const World& w, const StepReport& r, double e, bool allow_failures = false) {
  const ConvexImpulseStepper& s = convex(w);
  for (std::size_t i = 0; i < s.spaces().size(); ++i) {
    const VecX u_N = s.spaces()[i].N * s.post_velocities()[i];
    const VecX nu_N = s.spaces()[i].N * s.pre_velocities()[i];
    EXPECT_GE(u_N.minCoeff(), -1e-9) << "step " << r.step;
    EXPECT_LE((u_N + e * nu_N).cwiseAbs().maxCoeff(), 1e-9) << "step " << r.step;
    EXPECT_LE(s.results()[i].tangential, s.results()[i].tangential_start + 1e-9) << "step " << r.step;
    EXPECT_LE(s.results()[i].normal_norm_excess, 1e-9) << "step " << r.step;
  }
  EXPECT_LE(r.cone_violation, 1e-12) << "step " << r.step;
  if (!allow_failures) {
    EXPECT_EQ(r.solver_failures, 0) << "step " << r.step << ": " << r.solver.message;
  }
}

std::string scene(const std::string& extra, double mu, const std::string& bodies) {
  return "options: {dimension: 3, h: 0.001, eps: auto, model: standard, stepper: convex-impulse" + extra + "}\n" +
         "friction: [{materials: [default, default], mu: " + std::to_string(mu) + "}]\n" + "bodies:\n" + bodies;
}

const std::string kGround = "  - {name: ground, shape: {half_space: {normal: [0, 0, 1], offset: 0}}, static: true}\n";

TEST(ConvexImpulse, RestingBoxDoesNotDrift) {
  const Scene s = load_scene_string(
      scene("", 0.5, kGround + "  - {name: box, shape: {box: [1, 1, 1]}, mass: 1, position: [0, 0, 0.5]}\n"));
  World w(s.model, s.state);
  const Vec3 p0 = w.state().bodies[1].pose.position;
  for (int k = 0; k < 500; ++k) expect_certificates(w, w.step(), 0.0);
  EXPECT_EQ(w.last_report().problem_size, 12);  // 4 corners, 3 impulse components each
  EXPECT_LE((w.state().bodies[1].pose.position - p0).norm(), 1e-9);
}

// Newton's law (000 eq. (1), l.72): a box landing flat at 1 m/s leaves at e * 1 m/s.
TEST(ConvexImpulse, RestitutionReversesTheNormalVelocity) {
  for (double e : {0.0, 0.5, 1.0}) {
    const Scene s = load_scene_string(scene(", restitution: " + std::to_string(e), 0.5,
                                            kGround + "  - {name: box, shape: {box: [1, 1, 1]}, mass: 1, "
                                                      "position: [0, 0, 0.5], velocity: [0, 0, -1]}\n"));
    World w(s.model, s.state);
    const StepReport& r = w.step();
    expect_certificates(w, r, e);
    const ConvexImpulseStepper& c = convex(w);
    ASSERT_EQ(c.post_velocities().size(), 1u);
    EXPECT_NEAR(c.post_velocities()[0](2), e * 1.0, 1e-12) << e;      // v+ of the box, z
    // explicit Euler: v_{k+1} = v+ - g h, q_{k+1} = q_k + h v+
    EXPECT_NEAR(w.state().bodies[1].linear_velocity.z(), e - 9.81 * 0.001, 1e-12);
    EXPECT_NEAR(w.state().bodies[1].pose.position.z(), 0.5 + 0.001 * e, 1e-12);
  }
}

// Stable contact, no sticking/sliding threshold (guide A.7-6), on a 20 degree
// incline. With the paper's bound ||x_N|| <= ||w_s|| (kappa = 1) and the
// four corners' symmetric minimum-norm w_s, no redistribution of the normal
// impulses is allowed (dynamics/convex_impulse.hpp), so friction cannot
// balance its own moment about the centre of mass and the box slides as if
// frictionless, g sin 20 = 3.355 m/s^2, whatever mu: a property of the
// literal model this test records. With kappa = 2 (normal_impulse_bound),
// mu = 0.5 > tan 20 sticks (zero tangential velocity after every impulse,
// hence no motion) and mu = 0.2 slides with the Coulomb acceleration
// g (sin 20 - mu cos 20) = 1.512 m/s^2, the friction on the cone's edge.
double slide_after(double mu, double kappa, int steps) {
  const std::string box =
      "  - {name: incline, shape: {half_space: {normal: [0.3420201433256687, 0, 0.9396926207859084], offset: 0}},"
      " static: true}\n"
      "  - {name: box, shape: {box: [1, 1, 0.2]}, mass: 1, position: [0.03420201433256687, 0, 0.09396926207859085],"
      " orientation: {axis_angle: [0, 1, 0, 0.3490658503988659]}}\n";
  const Scene s = load_scene_string(scene(", normal_impulse_bound: " + std::to_string(kappa), mu, box));
  World w(s.model, s.state);
  const Vec3 p0 = w.state().bodies[1].pose.position;
  for (int k = 0; k < steps; ++k) expect_certificates(w, w.step(), 0.0);
  return (w.state().bodies[1].pose.position - p0).norm();
}

TEST(ConvexImpulse, InclineSticksOrSlidesByTheCone) {
  const double angle = 0.3490658503988659, g = 9.81, t = 0.5;
  // explicit Euler: x_k = a h^2 k (k - 1) / 2, within h / t = 0.2 % of a t^2 / 2
  const double frictionless = 0.5 * g * std::sin(angle) * t * t;
  EXPECT_NEAR(slide_after(0.5, 1.0, 500), frictionless, 0.01 * frictionless);  // the paper's g
  EXPECT_LE(slide_after(0.5, 2.0, 500), 1e-9);
  const double coulomb = 0.5 * g * (std::sin(angle) - 0.2 * std::cos(angle)) * t * t;
  EXPECT_NEAR(slide_after(0.2, 2.0, 500), coulomb, 0.01 * coulomb);
}

// A tumbling box: every impulse's velocities certified; the pyramid cone too.
// The barrier's own certificate (its gap bound) is counted, and the guide's
// bar (A.7-5) is no miss (with a cap of 50 Newton steps per centering, one
// impact of this run missed; the cap is 100).
TEST(ConvexImpulse, TumblingBoxEveryImpulseCertified) {
  for (const std::string cone : {"circular", "pyramid"}) {
    const Scene s = load_scene_string(scene(", friction_cone: " + cone, 0.6,
                                            kGround + "  - {name: box, shape: {box: [1, 0.6, 0.4]}, mass: 2, "
                                                      "position: [0, 0, 0.9], velocity: [1, 0, -1],"
                                                      " orientation: {axis_angle: [1, 1, 0, 0.5]}}\n"));
    World w(s.model, s.state);
    w.set_measure_penetration(true);
    int impulses = 0, failures = 0;
    for (int k = 0; k < 1500; ++k) {
      const StepReport& r = w.step();
      expect_certificates(w, r, 0.0, true);
      impulses += r.solver_calls;
      failures += r.solver_failures;
      EXPECT_LE(r.max_penetration, 5e-3) << cone << " " << k;  // explicit Euler, no position correction: O(h v)
    }
    EXPECT_GT(impulses, 100) << cone;
    EXPECT_EQ(failures, 0) << cone;
    std::printf("tumbling box, %s cone: %d impulses, %d barrier misses\n", cone.c_str(), impulses, failures);
  }
}

// Phase 2 against a brute force (guide A.7-4): on random small problems
// (n = 1, 2 contacts of a body with random inverse inertia), the barrier's
// post-impulse tangential velocity is not above that of any feasible impulse
// a grid search over the tangential impulses finds (the normal ones follow
// from C x = C w), and its impulse is feasible.
double brute_force_tangential(const ConvexImpulseInput& in, const VecX& w_s) {
  const int n = static_cast<int>(in.mu.size());
  const MatX A_N = in.A.topLeftCorner(n, n), B = in.A.topRightCorner(n, 2 * n);
  const MatX D = in.A.bottomRows(2 * n);
  const MatX AinvB = A_N.ldlt().solve(B);
  const double bound = w_s.norm() * in.mu.maxCoeff();
  double best = (D.leftCols(n) * w_s + in.b.tail(2 * n)).squaredNorm();  // x_T = 0 is feasible
  VecX centre = VecX::Zero(2 * n);
  double half = bound;
  const int steps = n == 1 ? 200 : 14;  // per dimension and side
  for (int level = 0; level < 4; ++level) {
    VecX best_xt = centre;
    const int dims = 2 * n;
    const long total = static_cast<long>(std::pow(2 * steps + 1, dims));
    VecX x(3 * n), xt(dims);
    for (long idx = 0; idx < total; ++idx) {
      long rest = idx;
      for (int d = 0; d < dims; ++d) {
        xt(d) = centre(d) + half * (static_cast<double>(rest % (2 * steps + 1)) - steps) / steps;
        rest /= 2 * steps + 1;
      }
      x.head(n) = w_s - AinvB * xt;
      x.tail(dims) = xt;
      if (x.head(n).norm() > w_s.norm()) continue;
      bool in_cone = true;
      for (int i = 0; i < n; ++i) in_cone &= std::hypot(xt(2 * i), xt(2 * i + 1)) <= in.mu(i) * x(i);
      if (!in_cone) continue;
      const double f = (D * x + in.b.tail(dims)).squaredNorm();
      if (f < best) {
        best = f;
        best_xt = xt;
      }
    }
    centre = best_xt;
    half /= 8.0;
  }
  return best;
}

TEST(ConvexImpulse, PhaseTwoIsNoWorseThanABruteForceSearch) {
  std::mt19937 rng(2009);
  std::normal_distribution<double> normal(0.0, 1.0);
  int checked = 0;
  for (int trial = 0; checked < 16 && trial < 2000; ++trial) {
    const int n = checked < 10 ? 1 : 2;
    const int m = 6;
    MatX G(3 * n, m), L(m, m);
    for (int r = 0; r < G.rows(); ++r)
      for (int c = 0; c < m; ++c) G(r, c) = normal(rng);
    for (int r = 0; r < m; ++r)
      for (int c = 0; c < m; ++c) L(r, c) = normal(rng);
    const MatX Minv = L * L.transpose() + 0.1 * MatX::Identity(m, m);
    VecX v(m);
    for (int c = 0; c < m; ++c) v(c) = normal(rng);
    ConvexImpulseInput in;
    in.A = G * Minv * G.transpose();
    in.A = 0.5 * (in.A + in.A.transpose());
    in.b = G * v;
    if (in.b.head(n).maxCoeff() > 0.0) continue;  // every contact approaching (000 l.76)
    in.mu = VecX::Constant(n, std::array<double, 4>{0.1, 0.5, 1.0, 2.0}[trial % 4]);
    ConvexImpulseResult r;
    solve_convex_impulse(in, r);
    if (r.negative_normals > 0) continue;  // the pseudo-inverse's adhesive cases get no friction (guide A.9-2)
    ASSERT_TRUE(r.converged) << trial;
    // feasible: normal velocities of phase 1 kept, cones, ||x_N|| <= ||w_s||
    EXPECT_LE(r.restitution_residual, 1e-9 * (1.0 + in.b.norm())) << trial;
    EXPECT_LE(r.cone_violation, 1e-12) << trial;
    EXPECT_LE(r.normal_norm_excess, 1e-12) << trial;
    const double brute = brute_force_tangential(in, r.w_s);
    EXPECT_LE(r.tangential * r.tangential, brute + 1e-10 * (1.0 + in.b.squaredNorm())) << trial << " n = " << n;
    ++checked;
  }
  EXPECT_EQ(checked, 16);
}

}  // namespace
}  // namespace pegsim
