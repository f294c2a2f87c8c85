// Warm starts (sim/warm_start.hpp): every variable of a problem, PEG's slacks
// included, comes back as it was remembered; nothing survives a step without
// contacts; and a world's resting PEG stack, warm-started, takes a step that
// agrees with the cold solve (the warm start changes the path, not the answer).
#include "sim/warm_start.hpp"

#include "sim/scene_runner.hpp"

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

}  // namespace
}  // namespace pegsim
