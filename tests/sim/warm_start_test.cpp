// Warm starts (sim/warm_start.hpp): every variable of a problem, PEG's slacks
// included, comes back as it was remembered; nothing survives a step without
// contacts; and a world's resting PEG stack, warm-started, takes a step that
// agrees with the cold solve (the warm start changes the path, not the answer);
// at rest, last step's impulses solve this step's problem (the names follow the
// physics, not rounding noise), and Lemke's warm start then solves it on the
// structure alone, without forming the dense A (issue 11 item 6).
#include "sim/warm_start.hpp"

#include "dynamics/formulation.hpp"
#include "sim/scene_runner.hpp"
#include "solvers/lcp.hpp"

#include <gtest/gtest.h>

namespace pegsim {
namespace {

TEST(WarmStart, EveryVariableComesBackByItsContactsName) {
  World w = test::load_world("box-stack-3d-offset");
  w.set_contact_model(ContactModelKind::Peg);
  bool slack = false;
  for (int i = 0; i < 400 && !slack; ++i) {
    w.step();
    for (const StepProblem& p : w.last_problems())
      for (RowRole r : p.lcp.role) slack |= r == RowRole::PegSlack;
  }
  ASSERT_TRUE(slack) << "no PEG slack row in 400 steps: the test needs I- or X-constraints";
  WarmStartCache cache;
  cache.begin_step();
  std::vector<VecX> remembered;
  for (std::size_t i = 0; i < w.last_problems().size(); ++i) {
    const StepProblem& p = w.last_problems()[i];
    VecX z = VecX::LinSpaced(p.lcp.size(), 1.0, static_cast<double>(p.lcp.size()));  // distinct values
    VecX first_guess;  // names the problem's variables (none remembered yet: zeros)
    cache.guess(w.last_island_constraints(i), p, first_guess);
    cache.remember(z);
    remembered.push_back(z);
  }
  cache.end_step();
  for (std::size_t i = 0; i < w.last_problems().size(); ++i) {
    VecX guess;
    cache.guess(w.last_island_constraints(i), w.last_problems()[i], guess);
    EXPECT_EQ(guess, remembered[i]) << "island " << i;  // bit for bit: the same numbers, found by name
  }
  // a step without contacts remembers nothing: no stale guess two steps later
  cache.begin_step();
  cache.end_step();
  EXPECT_EQ(cache.size(), 0u);
  VecX guess;
  cache.guess(w.last_island_constraints(0), w.last_problems()[0], guess);
  EXPECT_EQ(guess, VecX::Zero(w.last_problems()[0].lcp.size()));
}

// A steady step remembers its names in last step's sequence, and end_step
// then reuses last step's sort instead of sorting again: the guesses must be
// this step's impulses all the same, and of a name remembered twice in a step
// (two islands naming one feature pair) the later one, as a fresh sort keeps.
TEST(WarmStart, AStepInLastStepsSequenceGuessesItsOwnImpulses) {
  World w = test::load_world("box-stack-3d-offset");
  w.set_contact_model(ContactModelKind::Peg);
  for (int i = 0; i < 300; ++i) w.step();
  const StepProblem& p = w.last_problems().front();
  const ConstraintSet& set = w.last_island_constraints(0);
  const int n = p.lcp.size();
  ASSERT_GT(n, 0);
  WarmStartCache cache;
  VecX guess;
  for (int step = 0; step < 3; ++step) {  // the first sorts, the next two reuse its order
    const VecX z = VecX::LinSpaced(n, 1.0 + step, n + step);
    const VecX later = VecX::LinSpaced(n, 100.0 + step, 100.0 + n + step);
    cache.begin_step();
    cache.guess(set, p, guess);
    cache.remember(z);
    cache.guess(set, p, guess);  // the same names again: the later impulses win
    cache.remember(later);
    cache.end_step();
    cache.guess(set, p, guess);
    EXPECT_EQ(guess, later) << "step " << step;
  }
}

// The warm start only changes where the solver starts: a world with it and a
// world whose every step starts cold (a fresh world from the same state) give
// certified steps whose velocities agree within the solver's certificate.
TEST(WarmStart, WarmAndColdStepsAgreeOnARestingStack) {
  World warm = test::load_world("box-stack-3d");
  for (int i = 0; i < 600; ++i) warm.step();  // settled (the stack lands by t = 2 s)
  World cold(warm.model(), warm.state());     // no warm start
  const StepReport& a = warm.step();
  ASSERT_EQ(a.solver_failures, 0);
  const StepReport& b = cold.step();
  ASSERT_EQ(b.solver_failures, 0);
  // A velocity error of the residual's size (1e-9 scaled) per contact row;
  // resting boxes of unit mass: 1e-7 m/s is far above it and far below motion
  for (std::size_t k = 0; k < warm.state().bodies.size(); ++k) {
    EXPECT_LT((warm.state().bodies[k].linear_velocity - cold.state().bodies[k].linear_velocity).norm(), 1e-7) << k;
    EXPECT_LT((warm.state().bodies[k].angular_velocity - cold.state().bodies[k].angular_velocity).norm(), 1e-7) << k;
  }
}

// A resting contact's normal carries rounding noise; its friction directions
// must not follow it (a 90-degree turn of the basis when the noise flips which
// world axis looks least aligned), or last step's friction impulses act along
// other directions than they were found for.
TEST(WarmStart, FrictionDirectionsIgnoreANormalsRoundingNoise) {
  const Vec3 exact[] = {Vec3::UnitZ(), Vec3::UnitX(), -Vec3::UnitY(), Vec3(0.6, 0.0, 0.8), Vec3(0.0, -0.8, 0.6)};
  const double noise[][3] = {{1e-17, -2e-17, 0.0}, {-3e-17, 1e-17, 0.0}, {0.0, 0.0, 4e-17}, {2e-16, -2e-16, 1e-16}};
  std::vector<Vec3> reference, noisy;
  for (const Vec3& n : exact) {
    friction_basis(n, 7, Dimension::Spatial, reference);
    for (const auto& e : noise) {
      friction_basis((n + Vec3(e[0], e[1], e[2])).normalized(), 7, Dimension::Spatial, noisy);
      ASSERT_EQ(noisy.size(), reference.size());
      for (std::size_t k = 0; k < noisy.size(); ++k)  // moved by the noise only (1e-15), never turned
        EXPECT_LT((noisy[k] - reference[k]).norm(), 1e-14) << n.transpose() << " direction " << k;
    }
  }
}

// The resting pyramid (10 boxes, PEG: U-, I- and X-constraints on every
// face-on-face contact) solves a problem that repeats up to rounding from step
// to step, so any solution of one step's problem, carried over by name, solves
// the next one to the solver's threshold. It did not when the names followed
// rounding noise (an X-constraint's force moved between its two sub-contacts,
// the friction basis turned): the carried-over impulses left residuals of
// 0.1-0.4 m/s (|b| = 0.05 m/s) and Lemke pivoted ~370 times a step.
TEST(WarmStart, ARestingPegPyramidsImpulsesSolveTheNextStep) {
  World w = test::load_world("pyramid-10");
  for (int i = 0; i < 20; ++i) w.step();
  const auto lemke = make_solver("lemke", SolverOptions{});
  ASSERT_TRUE(w.model().options.model == ContactModelKind::Peg);
  for (int step = 0; step < 10; ++step) {
    ASSERT_EQ(w.last_problems().size(), 1u);
    const StepProblem before = w.last_problems()[0];
    const ConstraintSet before_set = w.last_island_constraints(0);
    ASSERT_TRUE(before_set.has_peg_constraints());
    VecX z = VecX::Zero(before.lcp.size());  // a cold solve: any solution of the step
    ASSERT_TRUE(lemke->solve(before.lcp, z).ok());
    w.step();
    const StepProblem& after = w.last_problems()[0];
    ASSERT_EQ(after.lcp.size(), before.lcp.size());
    WarmStartCache cache;
    VecX guess;
    cache.begin_step();
    cache.guess(before_set, before, guess);
    cache.remember(z);
    cache.end_step();
    cache.guess(w.last_island_constraints(0), after, guess);
    SolverResult r;
    measure_residuals(after.lcp, guess, r);
    // rounding-level changes of b (1e-13 here) against a threshold of 1e-9:
    // the impulses of a misnamed row leave residuals of the size of |b|
    EXPECT_LT(std::max(r.complementarity, r.feasibility), 1e-9) << "step " << step;
  }
}

// With Lemke at the head of the chain the formulation leaves A unformed
// (SolverChain::first_needs_matrix), and the chain assembles it in place only
// for a step whose warm start on the structure misses: a problem left
// without A after the step was solved on the structure. At rest every step
// is (the warm start is last step's support, which the previous test shows
// solves the step), certified by the chain's own measure (through the
// structure, G' M^-1 G z + C z + b).
TEST(WarmStart, ARestingStackIsSolvedOnTheStructureWithoutTheDenseMatrix) {
  for (ContactModelKind model : {ContactModelKind::Standard, ContactModelKind::Peg}) {
    World w = test::load_world("box-stack-3d");
    w.set_contact_model(model);
    for (int i = 0; i < 900; ++i) w.step();  // 350 steps of fall, then the landing settles
    int on_structure = 0;
    for (int step = 0; step < 100; ++step) {
      w.step();
      ASSERT_EQ(w.last_problems().size(), 1u);
      const StepProblem& p = w.last_problems()[0];
      EXPECT_EQ(w.last_report().solver_failures, 0);
      if (p.lcp.has_matrix()) continue;
      ++on_structure;
      const IslandReport& island = w.last_report().islands.at(0);
      EXPECT_TRUE(island.certified) << "step " << step;
      EXPECT_LE(std::max(island.complementarity, island.feasibility), 1e-9 * (1.0 + p.lcp.b.cwiseAbs().maxCoeff()))
          << "step " << step;
    }
    EXPECT_EQ(on_structure, 100) << to_string(model);
  }
}

}  // namespace
}  // namespace pegsim
