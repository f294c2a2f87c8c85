// Thesis 5.2.1, triangle-drop (scenes/triangle-drop.yaml): a triangle dropped
// so that its lower-left vertex meets the apex of a static triangle, eps = 10 h.
// The thesis: PEG's trajectories at every h overlap the PEG reference at
// h = 1e-4 s; the standard model traps the vertex at the apex and diverges.
//
// The bar: every h up to 0.016 s within 1% of the triangle's side
// (2.45 m) of the reference at every recorded time. Compared at equal times,
// no integrator meets it: symplectic Euler (thesis eq. 2.36, v first, then
// x += h v) puts the position at t_n where the exact motion is at t_n + h/2,
// to first order (free fall: y_n = y0 - g t (t + h) / 2), and the triangle
// slides down a 60-degree edge, so x lags too. Measured against the reference
// at the same t (docs/experiments.md): |dx| up to 1.85% and |dy| up to 3.96% of
// the side at h = 0.016, rotation equal to 4e-15 rad, with any contact model.
// The check here removes that half step: the run's state at t is compared
// with the reference's at t + (h - h_ref) / 2 (linear interpolation between
// its steps); measured 0.54% (x) and 0.30% (y) at h = 0.016, 0.03% / 0.02% at
// h = 0.001. x and y are each checked within 1% of the side, the rotation
// within 1e-6 rad (the contact normal passes through the centroid: no spin).
#include "common/test_paths.hpp"

#include "io/scene.hpp"
#include "sim/world.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

namespace pegsim {
namespace {

constexpr double kSide = 2.45;  // the dropped triangle's side (m)
constexpr double kDuration = 1.5;
constexpr double kReferenceH = 1e-4;  // as the thesis

struct Sample {
  double t, x, y, theta;
};

struct Trajectory {
  std::vector<Sample> samples;  // the initial state, then every step
  int solver_failures = 0;
  int steps_with_i = 0;
};

Trajectory simulate(ContactModelKind kind, double h) {
  Scene s = load_scene_file(std::string(PEGSIM_SCENES_DIR) + "/triangle-drop.yaml");
  s.model.options.model = kind;
  s.model.options.h = h;
  s.model.options.eps = 10.0 * h;  // as in the thesis
  World world(std::move(s.model), std::move(s.state));
  const long steps = std::lround(kDuration / h);
  Trajectory run;
  auto sample = [&] {
    const BodyState& b = world.state().bodies[1];
    run.samples.push_back({world.state().time, b.pose.position.x(), b.pose.position.y(), planar_angle(b.pose)});
  };
  sample();
  for (long i = 1; i <= steps; ++i) {
    const StepReport& r = world.step();
    run.solver_failures += r.solver_failures;
    run.steps_with_i += world.last_constraints().counts().i > 0;
    sample();
  }
  return run;
}

// The reference's state at time t, linear between its steps (h_ref = 1e-4 s:
// the interpolation error is below 1e-7 m at these speeds).
Sample reference_at(const Trajectory& reference, double t) {
  const std::vector<Sample>& s = reference.samples;
  const double k = std::clamp(t / kReferenceH, 0.0, static_cast<double>(s.size() - 1));
  const std::size_t i = std::min(static_cast<std::size_t>(k), s.size() - 2);
  const double w = k - static_cast<double>(i);
  return {t, (1 - w) * s[i].x + w * s[i + 1].x, (1 - w) * s[i].y + w * s[i + 1].y,
          (1 - w) * s[i].theta + w * s[i + 1].theta};
}

struct Deviation {
  double x = 0.0, y = 0.0, theta = 0.0;  // largest |run - reference| (m, m, rad)
};

// Every recorded time t of `run` against the reference at t + shift.
Deviation deviation(const Trajectory& run, const Trajectory& reference, double shift) {
  Deviation d;
  for (const Sample& a : run.samples) {
    if (a.t + shift > kDuration) continue;  // the reference ends at kDuration
    const Sample b = reference_at(reference, a.t + shift);
    d.x = std::max(d.x, std::abs(a.x - b.x));
    d.y = std::max(d.y, std::abs(a.y - b.y));
    d.theta = std::max(d.theta, std::abs(a.theta - b.theta));
  }
  return d;
}

TEST(TriangleDrop, PegFollowsTheReferenceAndTheStandardModelIsTrapped) {
  const Trajectory reference = simulate(ContactModelKind::Peg, kReferenceH);
  EXPECT_EQ(reference.solver_failures, 0);
  for (double h : {0.001, 0.004, 0.016}) {
    SCOPED_TRACE("h = " + std::to_string(h));
    const Trajectory peg = simulate(ContactModelKind::Peg, h);
    const Trajectory standard = simulate(ContactModelKind::Standard, h);
    EXPECT_EQ(peg.solver_failures, 0);
    EXPECT_GT(peg.steps_with_i, 0);  // the vertex met the apex: I-constraints were built

    const Deviation p = deviation(peg, reference, (h - kReferenceH) / 2.0);
    EXPECT_LT(p.x, 0.01 * kSide);
    EXPECT_LT(p.y, 0.01 * kSide);
    EXPECT_LT(p.theta, 1e-6);
    const Deviation same_time = deviation(peg, reference, 0.0);  // reported, not checked
    EXPECT_LT(same_time.theta, 1e-6);

    // The standard model: the vertex is held at the apex (Fig. 5.5), far from
    // the reference that slid down and off the static triangle.
    const Deviation s = deviation(standard, reference, (h - kReferenceH) / 2.0);
    EXPECT_GT(std::hypot(s.x, s.y), 1.0 * kSide);
    EXPECT_GT(standard.samples.back().y, 4.2435 - 0.5);  // still up at the apex (y_apex = 4.24 m)
    EXPECT_LT(peg.samples.back().y, 0.0);                 // PEG: fell past the static triangle
    std::printf("h = %.3f: PEG |dx| %.4f m, |dy| %.4f m (at t + h/2; at t: %.4f, %.4f), |dtheta| %.1e; "
                "standard |dx| %.2f m, |dy| %.2f m\n",
                h, p.x, p.y, same_time.x, same_time.y, p.theta, s.x, s.y);
  }
}

}  // namespace
}  // namespace pegsim
