// Cross-check against an independent implementation: Siconos numerics
// (Debian libsiconos-numerics-dev, installed by scripts/setup.sh), driven
// through its public C API (linearComplementarity_driver with the solver ids
// of lcp_cst.h): its lexicographic Lemke (SICONOS_LCP_LEMKE) and its
// Fischer-Burmeister Newton method with line search
// (SICONOS_LCP_NEWTON_FB_FBLSA). Siconos's verdict (info) is not trusted
// either: its points are measured here on the data, with the threshold of
// pegsim's solvers, tolerance (1 + |b|_inf) (newton_fixtures.hpp).
#include "solvers/lcp.hpp"

#include "solvers/lcp_file.hpp"
#include "solvers/lcp_fixtures.hpp"
#include "solvers/newton_fixtures.hpp"
#include "solvers/problem_families.hpp"

#include <LCP_Solvers.h>
#include <LinearComplementarityProblem.h>
#include <NonSmoothDrivers.h>
#include <NumericsMatrix.h>
#include <SolverOptions.h>
#include <lcp_cst.h>

#include <gtest/gtest.h>

#include <cstdlib>
#include <string>
#include <vector>

namespace pegsim {
namespace {

using test::residual_of;
using test::solver_threshold;

struct SiconosRun {
  int info = -1;  // 0: Siconos says converged
  VecX z;
  double residual = 0.0;  // measured here
};

// One Siconos LCP solve from z = 0. Siconos's own SolverOptions is the
// global ::SolverOptions (pegsim's is pegsim::SolverOptions).
SiconosRun siconos_solve(const LcpProblem& p, int solver_id, int max_iterations) {
  const int n = p.size();
  MatX A = p.A;  // column-major, as Siconos's NM_DENSE storage
  VecX q = p.b;
  NumericsMatrix* M = NM_create_from_data(NM_DENSE, n, n, A.data());
  LinearComplementarityProblem lcp;
  lcp.size = n;
  lcp.M = M;
  lcp.q = q.data();
  ::SolverOptions* options = solver_options_create(solver_id);
  options->dparam[SICONOS_DPARAM_TOL] = 1e-12;
  options->iparam[SICONOS_IPARAM_MAX_ITER] = max_iterations;
  SiconosRun run;
  run.z = VecX::Zero(n);
  VecX w = VecX::Zero(n);
  run.info = linearComplementarity_driver(&lcp, run.z.data(), w.data(), options);
  solver_options_delete(options);  // frees the members; the struct itself is ours (Siconos 4.4)
  std::free(options);
  NM_clear_not_dense(M);  // A's storage belongs to A
  std::free(M);
  SolverResult r;
  measure_residuals(p, run.z, r);
  run.residual = residual_of(r);
  return run;
}

SiconosRun siconos_lemke(const LcpProblem& p) { return siconos_solve(p, SICONOS_LCP_LEMKE, 100000); }
SiconosRun siconos_fb_newton(const LcpProblem& p, int max_iterations = 200) {
  return siconos_solve(p, SICONOS_LCP_NEWTON_FB_FBLSA, max_iterations);
}

struct Ours {
  SolverResult result;
  VecX z;
};

Ours solve(const std::string& name, const LcpProblem& p) {
  Ours o;
  o.z = VecX::Zero(p.size());
  o.result = make_solver(name, {})->solve(p, o.z);
  return o;
}

const std::vector<std::string> kOurs = {"lemke",          "path", "fischer-newton", "minmap-newton", "pgs",
                                        "psor",           "fixed-point",    "interior-point", "ppm"};

TEST(SiconosCross, PositiveDefiniteLcpsHaveTheSameSolution) {
  // one solution: every pegsim solver and both Siconos solvers land within
  // the Mathias-Pang distance of each other (lcp_fixtures.hpp)
  std::mt19937 rng(4242);
  for (int n = 4; n <= 64; n += 12) {
    const LcpProblem p = test::random_spd_lcp(rng, n);
    const SiconosRun lemke = siconos_lemke(p);
    const SiconosRun fb = siconos_fb_newton(p);
    ASSERT_EQ(lemke.info, 0) << "n=" << n;
    ASSERT_EQ(fb.info, 0) << "n=" << n;
    EXPECT_LE(lemke.residual, solver_threshold(p));
    EXPECT_LE(fb.residual, solver_threshold(p));
    for (const std::string& name : kOurs) {
      const Ours ours = solve(name, p);
      ASSERT_EQ(ours.result.status, SolverStatus::Solved) << name << " n=" << n << ": " << ours.result.message;
      for (const SiconosRun* ref : {&lemke, &fb}) {
        const double bound = test::spd_solution_distance_bound(p.A, residual_of(ours.result) + ref->residual);
        EXPECT_LE((ours.z - ref->z).norm(), bound) << name << " n=" << n;
      }
    }
  }
}

TEST(SiconosCross, SemiDefiniteContactProblemsHaveTheSameW) {
  // A = J M^-1 J' of more contacts than DOF (problem_families.hpp): z is not
  // unique, w is (solver_suite_test.cpp); Siconos's Lemke and every pegsim
  // solver that applies land on the same w, within 1e-6 relative (the
  // tolerance of solver_suite_test.cpp's semi-definite test, same reason)
  std::mt19937 rng(4343);
  for (int rep = 0; rep < 6; ++rep) {
    const int bodies = 1 + rep % 2;
    const LcpProblem p = test::random_contact_psd_lcp(rng, bodies, 6 * bodies + 5 + rep);
    const SiconosRun ref = siconos_lemke(p);
    ASSERT_LE(ref.residual, solver_threshold(p)) << "rep " << rep;
    const VecX w_ref = p.A * ref.z + p.b;
    for (const std::string name : {"lemke", "pgs", "psor", "interior-point", "ppm", "dvc3d-qp", "path"}) {
      const Ours ours = solve(name, p);
      ASSERT_EQ(ours.result.status, SolverStatus::Solved) << name << " rep " << rep << ": " << ours.result.message;
      EXPECT_LE((p.A * ours.z + p.b - w_ref).cwiseAbs().maxCoeff(), 1e-6 * (1.0 + p.b.cwiseAbs().maxCoeff()))
          << name << " rep " << rep;
    }
  }
}

TEST(SiconosCross, StewartTrinkleStepsAgreeWhereTheyAreUnique) {
  // the 24 scenes of solver_agreement_test.cpp: where Siconos's Lemke
  // converges (measured: 20 of 24), the normal impulses and velocities of
  // pegsim's lemke, path, pgs, psor, interior-point and
  // dvc3d-qp match it where they are unique
  std::mt19937 rng(99);
  int converged = 0, compared = 0;
  for (int rep = 0; rep < 24; ++rep) {
    const int bodies = 2 + rep % 4;
    const int contacts = 1 + rep % (2 * bodies);
    const test::StewartTrinkleStep st = test::random_stewart_trinkle(rng, bodies, contacts, 4);
    const SiconosRun ref = siconos_lemke(st.lcp);
    if (ref.info != 0 || ref.residual > solver_threshold(st.lcp)) continue;
    ++converged;
    const double lmin = test::smallest_contact_eigenvalue(st);
    if (lmin < 1e-3) continue;
    ++compared;
    const double a_norm = st.lcp.A.cwiseAbs().rowwise().sum().maxCoeff();
    const int nf = st.contacts * st.directions;
    auto velocity = [&](const VecX& z) {
      return VecX(st.nu_free + st.Minv * (st.Gn * z.head(st.contacts) + st.Gf * z.segment(st.contacts, nf)));
    };
    for (const std::string name : {"lemke", "path", "pgs", "psor", "interior-point", "dvc3d-qp"}) {
      const Ours ours = solve(name, st.lcp);
      ASSERT_EQ(ours.result.status, SolverStatus::Solved) << name << " scene " << rep;
      const double scale = 1.0 + st.lcp.b.cwiseAbs().maxCoeff();
      const double tol = 10.0 * (1.0 + a_norm) / lmin * (residual_of(ours.result) + ref.residual + 1e-15 * scale) *
                         std::sqrt(st.lcp.size());
      EXPECT_LE((ours.z.head(st.contacts) - ref.z.head(st.contacts)).cwiseAbs().maxCoeff(), tol)
          << name << " scene " << rep;
      EXPECT_LE((velocity(ours.z) - velocity(ref.z)).cwiseAbs().maxCoeff(), tol * a_norm) << name << " scene " << rep;
    }
  }
  EXPECT_GE(converged, 18);
  EXPECT_GE(compared, 10);
}

TEST(SiconosCross, BothLemkesEndOnARayWhereTheNewtonMethodsSolve) {
  // the non-copositive 4x4 problem of newton_solvers_test.cpp (one solution,
  // by enumeration of its 16 complementary bases): Siconos's Lemke fails on
  // it as pegsim's does (so the ray is the method's, not a bug), and
  // Siconos's FB Newton finds the solution path finds
  LcpProblem p = test::non_copositive_4x4();
  const SiconosRun lemke = siconos_lemke(p);
  EXPECT_NE(lemke.info, 0);
  EXPECT_GT(lemke.residual, solver_threshold(p));
  const SiconosRun fb = siconos_fb_newton(p);
  ASSERT_EQ(fb.info, 0);
  const Ours ours = solve("path", p);
  ASSERT_EQ(ours.result.status, SolverStatus::Solved) << ours.result.message;
  EXPECT_LE((ours.z - fb.z).cwiseAbs().maxCoeff(), 1e-9);
}

TEST(SiconosCross, CapturedStack3dStepIsSolvedByBothNewtonMethods) {
  // degenerate and rank-deficient (captured_lcp_test.cpp): no unique z to
  // compare; both FB Newton methods reach the threshold by the same measure
  // (Siconos's own test uses another error measure and may report info != 0)
  const LcpProblem p = test::load_lcp_file(test::data_path("stack3d_step408.lcp"));
  const SiconosRun fb = siconos_fb_newton(p, 1000);
  EXPECT_LE(fb.residual, solver_threshold(p));
  for (const std::string& name : {std::string("path"), std::string("fischer-newton")}) {
    const Ours ours = solve(name, p);
    ASSERT_EQ(ours.result.status, SolverStatus::Solved) << name << ": " << ours.result.message;
    EXPECT_LE(test::lcp_violation(p, ours.z), solver_threshold(p)) << name;
  }
}

}  // namespace
}  // namespace pegsim
