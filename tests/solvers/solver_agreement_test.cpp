// Lemke and PGS on the same problems: where the solution is unique they must
// agree within what their residual tolerances allow.
#include "solvers/lcp.hpp"

#include "solvers/lcp_fixtures.hpp"
#include "solvers/newton_fixtures.hpp"

#include <gtest/gtest.h>

namespace pegsim {
namespace {

struct Pair {
  SolverResult lemke, pgs;
  VecX z_lemke, z_pgs;
};

Pair solve_both(const LcpProblem& p) {
  SolverOptions options;
  options.max_iterations = 5000;
  Pair out;
  out.z_lemke = VecX::Zero(p.size());
  out.z_pgs = VecX::Zero(p.size());
  out.lemke = make_solver("lemke", options)->solve(p, out.z_lemke);
  out.pgs = make_solver("pgs", options)->solve(p, out.z_pgs);
  return out;
}

double residual(const SolverResult& r) { return std::max(r.complementarity, r.feasibility); }

TEST(SolverAgreement, PositiveDefiniteLcpsHaveOneSolution) {
  // A positive definite: the LCP has exactly one solution, and a point with
  // residual r lies within the Mathias-Pang distance of it.
  std::mt19937 rng(2024);
  for (int n = 5; n <= 80; n += 15) {
    const LcpProblem p = test::random_spd_lcp(rng, n);
    const Pair s = solve_both(p);
    ASSERT_EQ(s.lemke.status, SolverStatus::Solved) << s.lemke.message;
    ASSERT_EQ(s.pgs.status, SolverStatus::Solved) << s.pgs.message;
    const double bound =
        test::spd_solution_distance_bound(p.A, residual(s.lemke) + residual(s.pgs));
    EXPECT_LE((s.z_lemke - s.z_pgs).norm(), bound) << "n=" << n;
    for (const VecX* z : {&s.z_lemke, &s.z_pgs})
      EXPECT_LE(test::lcp_violation(p, *z), 1e-9 * (1.0 + p.b.cwiseAbs().maxCoeff()));
  }
}

using test::smallest_contact_eigenvalue;

TEST(SolverAgreement, StewartTrinkleNormalImpulsesAndVelocitiesMatch) {
  std::mt19937 rng(99);
  int compared = 0;
  for (int rep = 0; rep < 24; ++rep) {
    const int bodies = 2 + rep % 4;
    const int contacts = 1 + rep % (2 * bodies);  // at most 3 * contacts <= 6 * bodies
    const test::StewartTrinkleStep st = test::random_stewart_trinkle(rng, bodies, contacts, 4);
    const Pair s = solve_both(st.lcp);
    ASSERT_EQ(s.lemke.status, SolverStatus::Solved) << s.lemke.message;
    ASSERT_EQ(s.pgs.status, SolverStatus::Solved) << s.pgs.message;
    const double scale = 1.0 + st.lcp.b.cwiseAbs().maxCoeff();
    for (const VecX* z : {&s.z_lemke, &s.z_pgs})
      EXPECT_LE(test::stewart_trinkle_violation(st, *z), 1e-8 * scale);

    const double lmin = smallest_contact_eigenvalue(st);
    if (lmin < 1e-3) continue;  // near-redundant contacts: impulses need not be unique
    ++compared;
    // a heuristic bound of the Mathias-Pang form on the contact block
    const double a_norm = st.lcp.A.cwiseAbs().rowwise().sum().maxCoeff();
    const double tol = 10.0 * (1.0 + a_norm) / lmin *
                       (residual(s.lemke) + residual(s.pgs) + 1e-15 * scale) *
                       std::sqrt(st.lcp.size());
    const VecX pn_lemke = s.z_lemke.head(st.contacts);
    const VecX pn_pgs = s.z_pgs.head(st.contacts);
    EXPECT_LE((pn_lemke - pn_pgs).cwiseAbs().maxCoeff(), tol) << "scene " << rep;
    // post-impulse velocities, eq. 6.2
    const int nf = st.contacts * st.directions;
    auto velocity = [&](const VecX& z) {
      return VecX(st.nu_free + st.Minv * (st.Gn * z.head(st.contacts) + st.Gf * z.segment(st.contacts, nf)));
    };
    EXPECT_LE((velocity(s.z_lemke) - velocity(s.z_pgs)).cwiseAbs().maxCoeff(), tol * a_norm)
        << "scene " << rep;
  }
  EXPECT_GE(compared, 12);
}

}  // namespace
}  // namespace pegsim
