// PGS on the factored problem A = G'M^-1G + C (LcpStructure): the velocity
// engine against the dense one, its convergence, its fallbacks, and the exact
// friction block.
#include "solvers/pgs.hpp"

#include "solvers/lcp_fixtures.hpp"
#include "solvers/structured_fixtures.hpp"

#include <gtest/gtest.h>

namespace pegsim {
namespace {

using test::dense_matrix;
using test::structure_of;
using test::structured_step;

SolverResult run_pgs(const LcpProblem& p, VecX& z, int sweeps, double tolerance) {
  SolverOptions options;
  options.max_iterations = sweeps;
  options.tolerance = tolerance;
  return PgsSolver(options).solve(p, z);
}

TEST(PgsStructured, FixtureStructureReproducesTheDenseMatrix) {
  std::mt19937 rng(50);
  const test::StewartTrinkleStep st = test::random_stewart_trinkle(rng, 3, 5, 4);
  const MatX A = dense_matrix(structure_of(st));
  EXPECT_LE((A - st.lcp.A).cwiseAbs().maxCoeff(), 1e-12 * (1.0 + st.lcp.A.cwiseAbs().maxCoeff()));
}

TEST(PgsStructured, VelocityAndDenseEnginesGiveTheSameIterates) {
  // the same sweeps on w = A z + b and on u = M^-1 G z: equal up to round-off,
  // from zero and from a warm start, before and after subspace steps (sweep 4 on)
  std::mt19937 rng(51);
  struct Shape { int bodies, contacts, directions; };
  for (const Shape s : {Shape{1, 2, 4}, Shape{3, 5, 4}, Shape{4, 8, 7}, Shape{6, 12, 5}}) {
    const test::StewartTrinkleStep st = structured_step(rng, s.bodies, s.contacts, s.directions);
    ASSERT_EQ(pgs_structure_issue(st.lcp), "");
    LcpProblem dense = st.lcp;
    dense.structure = LcpStructure{};
    VecX warm = VecX::Zero(st.lcp.size());  // a perturbed solution: kept as the start
    ASSERT_TRUE(run_pgs(dense, warm, 5000, 1e-12).ok());
    for (int i = 0; i < st.contacts; ++i) warm(i) *= test::uniform(rng, 0.8, 1.2);
    SolverResult at_warm;
    measure_residuals(st.lcp, warm, at_warm);
    ASSERT_LT(std::max(at_warm.complementarity, at_warm.feasibility), std::max(0.0, -st.lcp.b.minCoeff()));
    for (const int sweeps : {1, 2, 3, 7, 12, 40}) {
      for (const VecX& start : {VecX(VecX::Zero(st.lcp.size())), warm}) {
        VecX z_structured = start, z_dense = start;
        const SolverResult a = run_pgs(st.lcp, z_structured, sweeps, 0.0);
        const SolverResult b = run_pgs(dense, z_dense, sweeps, 0.0);
        // (a status may differ where one engine's residual reaches exactly 0 first)
        if (a.status == SolverStatus::MaxIterations && b.status == SolverStatus::MaxIterations)
          EXPECT_EQ(a.iterations, b.iterations);
        else
          EXPECT_TRUE(a.ok() || b.ok()) << a.message << " / " << b.message;
        const double scale = 1.0 + z_dense.cwiseAbs().maxCoeff();
        const double tol = 1e-12 * scale;
        EXPECT_LE((z_structured - z_dense).cwiseAbs().maxCoeff(), tol)
            << s.bodies << " bodies, " << s.contacts << " contacts, " << sweeps << " sweeps";
        EXPECT_NEAR(a.complementarity, b.complementarity, 1e-9 * scale);
      }
    }
  }
}

TEST(PgsStructured, DropsAWarmStartWorseThanZero) {
  // last step's impulses after an impact can be far too large: a start whose
  // residual exceeds that of z = 0 runs as z = 0, on both engines
  std::mt19937 rng(56);
  const test::StewartTrinkleStep st = structured_step(rng, 3, 6, 4);
  LcpProblem dense = st.lcp;
  dense.structure = LcpStructure{};
  VecX solution = VecX::Zero(st.lcp.size());
  ASSERT_TRUE(run_pgs(dense, solution, 5000, 1e-12).ok());
  const VecX bad = 100.0 * solution;
  SolverResult at_bad;
  measure_residuals(st.lcp, bad, at_bad);
  ASSERT_GT(std::max(at_bad.complementarity, at_bad.feasibility), std::max(0.0, -st.lcp.b.minCoeff()));
  for (const LcpProblem* p : {&st.lcp, static_cast<const LcpProblem*>(&dense)}) {
    for (const int sweeps : {1, 3, 20}) {
      VecX from_bad = bad, from_zero = VecX::Zero(st.lcp.size());
      run_pgs(*p, from_bad, sweeps, 1e-10);
      run_pgs(*p, from_zero, sweeps, 1e-10);
      EXPECT_EQ(from_bad, from_zero) << sweeps << " sweeps";
    }
  }
}

TEST(PgsStructured, ReusesOneSolverAcrossProblems) {
  // the solver keeps its storage between calls: sizes that grow and shrink,
  // with and without structure, give what a fresh solver gives
  std::mt19937 rng(57);
  SolverOptions options;
  options.max_iterations = 5000;
  PgsSolver reused(options);
  for (int rep = 0; rep < 16; ++rep) {
    const int bodies = 1 + (rep * 5) % 6;
    LcpProblem p = structured_step(rng, bodies, 1 + (rep * 7) % (2 * bodies), 3 + rep % 5).lcp;
    if (rep % 3 == 2) p.structure = LcpStructure{};
    VecX z_reused = VecX::Zero(p.size()), z_fresh = z_reused;
    const SolverResult a = reused.solve(p, z_reused);
    const SolverResult b = PgsSolver(options).solve(p, z_fresh);
    ASSERT_TRUE(a.ok()) << a.message;
    EXPECT_EQ(a.iterations, b.iterations);
    EXPECT_EQ(z_reused, z_fresh);
  }
}

TEST(PgsStructured, SolvesStewartTrinkleProblemsThroughTheStructure) {
  std::mt19937 rng(52);
  for (int rep = 0; rep < 12; ++rep) {
    const int bodies = 1 + rep % 5;
    const test::StewartTrinkleStep st = structured_step(rng, bodies, 1 + rep % (2 * bodies), 4 + rep % 4);
    ASSERT_EQ(pgs_structure_issue(st.lcp), "");
    VecX z = VecX::Zero(st.lcp.size());
    const SolverResult r = run_pgs(st.lcp, z, 5000, 1e-10);
    ASSERT_EQ(r.status, SolverStatus::Solved) << r.message;
    const double scale = 1.0 + st.lcp.b.cwiseAbs().maxCoeff();
    EXPECT_LE(test::stewart_trinkle_violation(st, z), 1e-8 * scale);
    SolverResult measured;
    measure_residuals(st.lcp, z, measured);  // the reported residuals are those of the dense problem
    EXPECT_NEAR(r.complementarity, measured.complementarity, 1e-12 * scale);
  }
}

TEST(PgsStructured, NeedsNoDenseMatrix) {
  std::mt19937 rng(53);
  const test::StewartTrinkleStep st = structured_step(rng, 3, 5, 4);
  LcpProblem p = st.lcp;
  p.A.resize(0, 0);
  ASSERT_EQ(pgs_structure_issue(p), "");
  VecX z = VecX::Zero(p.size());
  const SolverResult r = run_pgs(p, z, 5000, 1e-10);
  ASSERT_EQ(r.status, SolverStatus::Solved) << r.message;
  EXPECT_LE(test::stewart_trinkle_violation(st, z), 1e-8 * (1.0 + p.b.cwiseAbs().maxCoeff()));
}

TEST(PgsStructured, InconsistentStructureFallsBackToTheDenseMatrix) {
  std::mt19937 rng(54);
  const test::StewartTrinkleStep st = structured_step(rng, 3, 5, 4);
  auto broken = [&](auto&& edit) {
    LcpProblem p = st.lcp;
    edit(p.structure);
    return p;
  };
  const std::vector<LcpProblem> cases = {
      broken([](LcpStructure& s) { s.rows.pop_back(); }),                                  // sizes
      broken([](LcpStructure& s) { s.rows[0].body_a = 99; }),                              // body index
      broken([](LcpStructure& s) { s.inverse_mass.pop_back(); }),                          // masses
      broken([](LcpStructure& s) { s.rows[1].ja *= 2.0; }),                                // A_ii disagrees
      broken([](LcpStructure& s) { s.coupling[1].value = 2.0; }),                          // E entry
  };
  for (std::size_t k = 0; k < cases.size(); ++k) {
    const LcpProblem& p = cases[k];
    EXPECT_NE(pgs_structure_issue(p), "") << "case " << k;
    VecX z = VecX::Zero(p.size());
    const SolverResult r = run_pgs(p, z, 5000, 1e-10);
    ASSERT_EQ(r.status, SolverStatus::Solved) << "case " << k << ": " << r.message;
    SolverResult measured;
    measure_residuals(p, z, measured);
    EXPECT_LE(std::max(measured.complementarity, measured.feasibility),
              1e-10 * (1.0 + p.b.cwiseAbs().maxCoeff()));
  }
  // without a dense A to fall back on: a clear report
  LcpProblem p = cases[0];
  p.A.resize(0, 0);
  VecX z;
  const SolverResult r = run_pgs(p, z, 100, 1e-10);
  EXPECT_EQ(r.status, SolverStatus::Unsupported);
  EXPECT_NE(r.message.find("structure unusable"), std::string::npos) << r.message;
  EXPECT_NE(r.message.find("Jacobian rows"), std::string::npos) << r.message;
}

TEST(PgsStructured, HonorsCouplingOutsideEquation61) {
  // a skew pair C_01 = -C_10 between two normal rows (A stays monotone): kept
  // in the velocity engine's rows, and those rows stay out of subspace steps
  std::mt19937 rng(55);
  test::StewartTrinkleStep st = structured_step(rng, 3, 5, 4);
  st.lcp.structure.coupling.push_back({0, 1, 0.5});
  st.lcp.structure.coupling.push_back({1, 0, -0.5});
  st.lcp.A = dense_matrix(st.lcp.structure);
  ASSERT_EQ(pgs_structure_issue(st.lcp), "");
  LcpProblem dense = st.lcp;
  dense.structure = LcpStructure{};
  VecX z_structured = VecX::Zero(st.lcp.size()), z_dense = z_structured;
  const SolverResult a = run_pgs(st.lcp, z_structured, 5000, 1e-10);
  const SolverResult b = run_pgs(dense, z_dense, 5000, 1e-10);
  ASSERT_EQ(a.status, SolverStatus::Solved) << a.message;
  ASSERT_EQ(b.status, SolverStatus::Solved) << b.message;
  SolverResult measured;
  measure_residuals(st.lcp, z_structured, measured);
  EXPECT_LE(std::max(measured.complementarity, measured.feasibility), 1e-10 * (1.0 + st.lcp.b.cwiseAbs().maxCoeff()));
}

// The box-stack-3d scene at rest: `boxes` unit cubes of 1 kg on the ground,
// each shifted 0.25 m in x and y from the one below, touching (gaps 0), four
// contacts at the corners of each overlap square, mu = 0.5, 7 friction
// directions, free velocities g h downward (h = 5 ms). Rows [p_n | p_f | s].
LcpProblem box_stack(int boxes, MatX& velocity_map, VecX& nu_free) {
  constexpr int nd = 7;
  const int nc = 4 * boxes, nf = nd * nc, n = nc + nf + nc;
  auto centre = [](int k) { return Vec3(k % 2 ? 0.25 : 0.0, k % 2 ? 0.25 : 0.0, k + 0.5); };
  LcpProblem p;
  LcpStructure& s = p.structure;
  s.rows.resize(n);
  Mat6 minv = Mat6::Identity();
  minv.bottomRightCorner<3, 3>() *= 6.0;  // I = m / 6 for a unit cube
  s.inverse_mass.assign(boxes, minv);
  p.role.assign(n, RowRole::Normal);
  p.contact_of.assign(n, -1);
  auto row = [&](int below, int above, const Vec3& point, const Vec3& d) {
    JacobianRow r;
    if (below >= 0) r.body_a = below, r.ja << -d, -(point - centre(below)).cross(d);
    r.body_b = above;
    r.jb << d, (point - centre(above)).cross(d);
    return r;
  };
  for (int k = 0; k < boxes; ++k) {
    const Vec3 lo = k == 0 ? centre(0) : centre(k).cwiseMax(centre(k - 1));
    const Vec3 hi = k == 0 ? centre(0) : centre(k).cwiseMin(centre(k - 1));
    for (int corner = 0; corner < 4; ++corner) {
      const int c = 4 * k + corner, slip = nc + nf + c;
      const Vec3 point((corner & 1 ? hi.x() + 0.5 : lo.x() - 0.5), (corner & 2 ? hi.y() + 0.5 : lo.y() - 0.5), k);
      s.rows[c] = row(k - 1, k, point, Vec3::UnitZ());
      p.role[slip] = RowRole::Slip;
      p.contact_of[slip] = c;
      s.coupling.push_back({slip, c, 0.5});
      for (int j = 0; j < nd; ++j) {
        const double angle = 2.0 * std::numbers::pi * j / nd;
        const int f = nc + nd * c + j;
        s.rows[f] = row(k - 1, k, point, Vec3(std::cos(angle), std::sin(angle), 0.0));
        p.role[f] = RowRole::Friction;
        p.contact_of[f] = c;
        s.coupling.push_back({f, slip, 1.0});
        s.coupling.push_back({slip, f, -1.0});
      }
    }
  }
  // nu+ = nu* + M^-1 G z (eq. 2.30), b = G' nu*
  nu_free = VecX::Zero(6 * boxes);
  for (int k = 0; k < boxes; ++k) nu_free(6 * k + 2) = -9.81 * 0.005;
  velocity_map = MatX::Zero(6 * boxes, n);
  for (int v = 0; v < n; ++v) {
    const JacobianRow& r = s.rows[v];
    if (r.body_a != kNoBody) velocity_map.block<6, 1>(6 * r.body_a, v) = minv * r.ja;
    if (r.body_b != kNoBody) velocity_map.block<6, 1>(6 * r.body_b, v) = minv * r.jb;
  }
  p.b = VecX::Zero(n);
  for (int v = 0; v < nc + nf; ++v) {
    const JacobianRow& r = s.rows[v];
    if (r.body_a != kNoBody) p.b(v) += r.ja.dot(nu_free.segment<6>(6 * r.body_a));
    p.b(v) += r.jb.dot(nu_free.segment<6>(6 * r.body_b));
  }
  p.A = dense_matrix(s);
  return p;
}

TEST(PgsStructured, ConvergesOnATallRestingStack) {
  // The column's bending modes (eigenvalues ~1e-4 of the scaled A) stall plain
  // sweeps near 1e-5; subspace steps bring the 10-box stack to 1e-10 from zero
  // within the default sweep limit, on both engines.
  MatX velocity_map;
  VecX nu_free;
  const LcpProblem stack = box_stack(10, velocity_map, nu_free);
  ASSERT_EQ(pgs_structure_issue(stack), "");
  LcpProblem dense = stack;
  dense.structure = LcpStructure{};
  for (const LcpProblem* p : {&stack, static_cast<const LcpProblem*>(&dense)}) {
    VecX z = VecX::Zero(p->size());
    const SolverResult r = PgsSolver(SolverOptions{}).solve(*p, z);
    ASSERT_EQ(r.status, SolverStatus::Solved) << r.message;
    EXPECT_LT(r.iterations, PgsSolver::kDefaultMaxSweeps / 2);
    const VecX nu = nu_free + velocity_map * z;  // at rest
    EXPECT_LE(nu.cwiseAbs().maxCoeff(), 1e-8);
  }
}

}  // namespace
}  // namespace pegsim
