// Thesis 5.2.3-5.2.4 and 5.3, box-of-polygons and box-of-polyhedra under PEG,
// shrunk for CI: the experiment's own generated scenes and release schedule
// (apps/experiment_pour_scene.cpp, compiled in), eps = 10 h as the experiment,
// one seed, 1.5 s (2D: 6 polygons) or 2 s (3D: 4 polyhedra). Overlap is
// measured after every step by src/analysis (clipping, independent of the
// contact code), pair by pair.
//
// The bar, "overlap below 1e-6 m^2 (m^3) at every step for every h",
// separates into two parts, measured (docs/experiments.md, "box-of-polygons"):
// - Bodies that translate only (inertia x 1e6): nothing but the contact model
//   and the solver stand between them, and PEG's overlap is round-off (below
//   1e-13 m^2 at every h up to 0.01 s; 3D at most 4e-8 m^3 over 3 seeds) while the corrective
//   method's grows with h. Checked at 1e-6 as the issue states.
// - Free rotation: the semi-implicit step fixes contact points, normals and
//   applicability at the start of the step (thesis 5.3, Figs. 5.24-5.25); a
//   body spinning at w swings its corners by about w h L in a step, so the
//   overlap grows like h^2-h^3 (2D PEG: 1.6e-6 m^2 at h = 0.001 to 7e-4 at
//   0.01). Checked: PEG stays far below the corrective method at every h,
//   3D below 1e-6 m^3 at every h (eps_theta: auto), 2D up to h = 0.005 s.
// - Whole 5 s pours: PEG alone (a 3D hole in piles, fixed in P5), and PEG
//   with the position correction (sim/position_correction.cpp), which meets
//   the bar with free rotation at every h in 2D and 3D.
#include "analysis/overlap.hpp"
#include "experiment_pour.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <string>

namespace pegsim {
namespace {
using cli::experiment::make_pour_scene;
using cli::experiment::pour_setup;
using cli::experiment::PourScene;
using cli::experiment::PourSchedule;
using cli::experiment::PourSetup;

struct PourRun {
  double max_pair_overlap = 0.0;  // largest overlap of one body pair after any step (m^2 or m^3)
  long steps = 0;
  long solver_failures = 0;
  int released = 0;
};

// What a pour changes from the experiment's run.
struct PourVariant {
  bool fixed_eps_theta = false;  // the thesis's fixed -0.1 (the experiment's scenes set eps_theta: auto)
  bool corrected = false;        // the position correction after each step (SimOptions::position_correction)
  std::uint64_t seed = 1;
};

// One pour as `pegsim experiment` runs it (experiment_pour.cpp: eps = 10 h),
// with every dynamic body's inertia scaled by `inertia_scale`.
PourRun pour(const std::string& name, ContactModelKind kind, double h, double duration, double inertia_scale,
             const PourVariant& variant = {}) {
  const auto [fixed_eps_theta, corrected, seed] = variant;
  PourSetup setup = pour_setup(name);
  setup.duration = duration;
  const PourScene scene = make_pour_scene(setup, seed, setup.count());
  Model model = scene.scene.model;
  model.options.model = kind;
  model.options.h = h;
  model.options.eps = 10.0 * h;
  model.options.eps_auto = false;
  if (fixed_eps_theta) model.options.eps_theta_auto = false;
  model.options.position_correction = corrected;
  for (BodyModel& b : model.bodies) b.inertia *= inertia_scale;
  World world(std::move(model), scene.scene.state);
  PourSchedule schedule(setup, scene, h);
  PourRun run;
  for (long i = 0; i < std::lround(duration / h); ++i) {
    schedule.before_step(world);
    run.solver_failures += world.step().solver_failures;
    ++run.steps;
    for (const PairOverlap& p : pair_overlaps(world.model(), world.state()))
      run.max_pair_overlap = std::max(run.max_pair_overlap, p.measure);
  }
  run.released = schedule.released();
  return run;
}

constexpr double kBar = 1e-6;      // the bar, m^2 (2D) or m^3 (3D)
constexpr double kLocked = 1e6;    // inertia scale: rotation during a step below 1e-6 of the free one

struct Case {
  const char* name;
  double duration;
  int released;  // bodies released within the duration
};
constexpr Case kPolygons{"box-of-polygons", 1.5, 6};
constexpr Case kPolyhedra{"box-of-polyhedra", 2.0, 4};

void translation_only(const Case& c) {
  double corrective_before = 0.0;  // at the h before
  for (double h : {0.002, 0.005, 0.01}) {
    SCOPED_TRACE(std::string(c.name) + ", h = " + std::to_string(h));
    const PourRun peg = pour(c.name, ContactModelKind::Peg, h, c.duration, kLocked);
    const PourRun corrective = pour(c.name, ContactModelKind::Corrective, h, c.duration, kLocked);
    EXPECT_EQ(peg.released, c.released);
    EXPECT_EQ(peg.solver_failures, 0);
    EXPECT_LT(peg.max_pair_overlap, kBar);
    // the corrective method lets bodies in for a step before it pushes them
    // out: the depth is about the approach speed times h (measured: 2D 1.6e-4,
    // 1.5e-3, 8.6e-3 m^2; 3D 7.2e-6, 1.9e-5, 3.3e-4 m^3)
    EXPECT_GT(corrective.max_pair_overlap, kBar);
    EXPECT_GT(corrective.max_pair_overlap, 2.0 * corrective_before);
    corrective_before = corrective.max_pair_overlap;
    std::printf("%s, translation only, h = %g: max pair overlap PEG %.3g, corrective %.3g\n", c.name, h,
                peg.max_pair_overlap, corrective.max_pair_overlap);
  }
}

TEST(PegPour, PolygonsTranslatingNeverOverlapAndTheCorrectiveMethodGrowsWithH) { translation_only(kPolygons); }
TEST(PegPour, PolyhedraTranslatingNeverOverlapAndTheCorrectiveMethodGrowsWithH) { translation_only(kPolyhedra); }

// With rotation (seed 1, 1.5 s): PEG below the bar up to h = 0.005 (measured
// 8.1e-9, 5.6e-8, 5.7e-7 m^2 at h = 0.001, 0.002, 0.005). At h = 0.01 a
// polygon spinning at 15 rad/s turns 0.15 rad in a step, and its corner
// leaves the contact's tangent line by r (omega h)^2 / 2 ~ 2.7 mm before the
// next step corrects it: the semi-implicit step's rotation error (thesis 5.3,
// Fig. 5.25; 5.5: "very high rotational velocities ... require smaller time
// steps"), measured 1.3e-4 m^2, still a fraction of the corrective method's.
TEST(PegPour, RotatingPolygonsStayBelowTheBarUpToH0005) {
  for (double h : {0.001, 0.002, 0.005, 0.01}) {
    SCOPED_TRACE("h = " + std::to_string(h));
    const PourRun peg = pour(kPolygons.name, ContactModelKind::Peg, h, kPolygons.duration, 1.0);
    const PourRun corrective = pour(kPolygons.name, ContactModelKind::Corrective, h, kPolygons.duration, 1.0);
    EXPECT_EQ(peg.solver_failures, 0);
    if (h <= 0.005) {
      EXPECT_LT(peg.max_pair_overlap, kBar);
    }
    EXPECT_LT(peg.max_pair_overlap, 0.1 * corrective.max_pair_overlap);
    std::printf("box-of-polygons, h = %g: max pair overlap PEG %.3g m^2, corrective %.3g m^2\n", h,
                peg.max_pair_overlap, corrective.max_pair_overlap);
  }
}

// At h = 0.01 s a polyhedron hits the floor at 6 m/s and spins at 25-33 rad/s,
// 0.26-0.33 rad a step. With the thesis's fixed eps_theta = -0.1 a vertex
// whose edge pointed down at the start of the step is inapplicable (thesis
// 3.2; Alg. 12 drops its lone contact) and swings into the floor during the
// step (measured 3.7e-4 m^3, 4 cm deep). eps_theta: auto judges applicability
// over the step's rotation (eps_theta - h (|w_a| + |w_b|)), which the
// experiment's scenes use: below the bar at every h (measured 1.0e-9, 1.2e-9,
// 9.9e-9, 2.5e-8 m^3 at h = 0.001, 0.002, 0.005, 0.01).
TEST(PegPour, RotatingPolyhedraStayBelowTheBarAtEveryH) {
  for (double h : {0.002, 0.005, 0.01}) {
    SCOPED_TRACE("h = " + std::to_string(h));
    const PourRun peg = pour(kPolyhedra.name, ContactModelKind::Peg, h, kPolyhedra.duration, 1.0);
    const PourRun corrective = pour(kPolyhedra.name, ContactModelKind::Corrective, h, kPolyhedra.duration, 1.0);
    EXPECT_EQ(peg.solver_failures, 0);
    EXPECT_LT(peg.max_pair_overlap, kBar);
    EXPECT_LT(peg.max_pair_overlap, 0.01 * corrective.max_pair_overlap);
    std::printf("box-of-polyhedra, h = %g: max pair overlap PEG %.3g m^3, corrective %.3g m^3\n", h,
                peg.max_pair_overlap, corrective.max_pair_overlap);
  }
  // the fixed threshold at h = 0.01: the inapplicable vertex's overlap
  EXPECT_GT(pour(kPolyhedra.name, ContactModelKind::Peg, 0.01, kPolyhedra.duration, 1.0, {.fixed_eps_theta = true}).max_pair_overlap, kBar);
}

// The whole 5 s pours (10 polyhedra, 20 polygons), PEG as the thesis steps it.
// Box-of-polyhedra seed 1 at h = 0.002 once sank two polyhedra into each other
// (5.3e-4 m^3): a vertex riding across an edge, its edge crossing the other
// body's edge just past the vertex, so the crossing contact's lines met a few
// micrometres outside the segment and P5 (contact/peg_3d.cpp) dropped it while
// it was violated by the step's rotation error; now kept when it asks for no
// more than the pair's penetration depth (measured 2.2e-8 m^3).
TEST(PegPour, FullPolyhedraPourKeepsCrossingEdgesHeld) {
  const PourRun peg = pour(kPolyhedra.name, ContactModelKind::Peg, 0.002, 5.0, 1.0);
  EXPECT_EQ(peg.released, 10);
  EXPECT_LT(peg.max_pair_overlap, kBar);
}

// With the position correction (sim/position_correction.cpp) the rotation
// error is projected out after every step, so the bar holds with free
// rotation at every h, in 2D and 3D, over whole pours and three seeds
// (measured, seeds 1-10: at most 3.5e-7 m^2 and 4e-7 m^3; the correction's
// tolerance is 1e-6 m of depth, and a flush 2D contact 0.3 m long at that
// depth overlaps by 3e-7 m^2). PEG's own steps still carry the rotation
// error: without the correction 2D at h = 0.01 reaches 1e-4 m^2 (test above).
TEST(PegPour, CorrectedPegStaysBelowTheBarAtEveryStepAndH) {
  for (const Case& c : {kPolygons, kPolyhedra}) {
    for (std::uint64_t seed : {1, 2, 3}) {
      for (double h : {0.002, 0.005, 0.01}) {
        SCOPED_TRACE(std::string(c.name) + ", seed " + std::to_string(seed) + ", h = " + std::to_string(h));
        const PourRun peg = pour(c.name, ContactModelKind::Peg, h, 5.0, 1.0, {.corrected = true, .seed = seed});
        EXPECT_EQ(peg.released, c.name == kPolygons.name ? 20 : 10);
        EXPECT_LT(peg.max_pair_overlap, kBar);
      }
    }
  }
}

}  // namespace
}  // namespace pegsim
