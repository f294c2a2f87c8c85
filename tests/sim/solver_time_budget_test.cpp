// SolverOptions::time_budget (issue 17): every solver of the registry stops
// when its wall-clock budget is spent, with a finite iterate and a message
// that says why, instead of running on to its iteration limit.
// (In tests/sim: the random problems come from the dynamics stage.)
#include "dynamics/random_problem.hpp"
#include "solvers/lcp.hpp"

#include <gtest/gtest.h>

#include <string>

namespace pegsim {
namespace {

// The problem's first `k` rows (its normal block: symmetric positive
// semi-definite, for the solvers that need that), structure included.
LcpProblem leading_rows(const LcpProblem& p, int k) {
  LcpProblem q;
  q.A = p.A.topLeftCorner(k, k);
  q.b = p.b.head(k);
  q.role.assign(k, RowRole::Normal);
  q.contact_of.assign(k, -1);
  q.structure.rows.assign(p.structure.rows.begin(), p.structure.rows.begin() + k);
  q.structure.inverse_mass = p.structure.inverse_mass;
  return q;
}

TEST(TimeBudget, EverySolverStopsWhenItsBudgetIsSpent) {
  RandomProblemOptions o;
  o.contacts = 60;
  ProblemRng rng(17);
  const LcpProblem full = random_contact_problem(o, rng);
  const LcpProblem normal = leading_rows(full, o.contacts);
  SolverOptions spent;
  spent.time_budget = 1e-12;  // spent before the first iteration's check
  int stopped = 0;
  for (const std::string& name : solver_names()) {
    for (const LcpProblem* p : {&full, &normal}) {
      const std::string what = name + (p == &full ? " (full)" : " (normal block)");
      // the unbudgeted solve: whether this solver takes this problem, and in how many iterations
      VecX z0 = VecX::Zero(p->size());
      const SolverResult free_run = make_solver(name, SolverOptions{})->solve(*p, z0);
      if (free_run.status == SolverStatus::Unsupported || free_run.iterations <= 1) continue;
      VecX z = VecX::Zero(p->size());
      const SolverResult r = make_solver(name, spent)->solve(*p, z);
      ASSERT_TRUE(z.allFinite()) << what;
      ASSERT_EQ(z.size(), p->size()) << what;
      // a solver may finish the iteration (or bounded prelude: PATH's crash
      // steps) it is in when the budget runs out; if that solves the
      // problem it says Solved, otherwise it must say the budget stopped it
      if (r.status == SolverStatus::Solved) {
        EXPECT_LE(r.iterations, free_run.iterations) << what;
        continue;
      }
      EXPECT_NE(r.message.find("time budget"), std::string::npos) << what << ": " << r.message;
      ++stopped;
    }
  }
  EXPECT_GE(stopped, 10) << "most solvers should have met the budget";
}

TEST(TimeBudget, NoBudgetReadsNoClockAndChangesNothing) {
  // time_budget 0 (the default) must give the same iterate bit for bit as a
  // budget that is never reached: the budget only ever stops a solve
  RandomProblemOptions o;
  o.contacts = 30;
  ProblemRng rng(5);
  const LcpProblem p = random_contact_problem(o, rng);
  SolverOptions generous;
  generous.time_budget = 1e5;
  for (const std::string& name : solver_names()) {
    VecX a = VecX::Zero(p.size()), b = VecX::Zero(p.size());
    const SolverResult ra = make_solver(name, SolverOptions{})->solve(p, a);
    const SolverResult rb = make_solver(name, generous)->solve(p, b);
    EXPECT_EQ(ra.status, rb.status) << name;
    EXPECT_TRUE(a == b) << name;
  }
}

}  // namespace
}  // namespace pegsim
