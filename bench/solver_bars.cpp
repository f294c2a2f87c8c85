// pegsim_solver_bars: the solver bars of issue 4, each printed next to a peer
// measured in the same run (these machines are shared and noisy: compare the
// ratio, not the absolute figure).
//
//   1. Lemke on 120-variable contact LCPs (20 contacts, 4 friction directions:
//      20 x (1 + 4 + 1) rows, the Stewart-Trinkle layout of thesis eq. 6.1),
//      random rigid-body problems (dynamics/random_problem.hpp), median time
//      per solve. Bar: under 0.3 ms. Peer: Siconos's Lemke (SICONOS_LCP_LEMKE).
//   2. PGS: time per contact per sweep on a 200-contact problem's normal rows
//      (Siconos's PGS refuses the zero diagonal of the slip rows), from the
//      time of 100 sweeps minus that of 50 (tolerance 0: none stops early).
//      Bar: under 1 us. Peer: Siconos's PGS (SICONOS_LCP_PGS), dense rows.
//   3. box-stack-3d (the default scene, 10 boxes, h = 0.005): time per step
//      with each solver, and the fastest that fails no step. Bar: under 200 us.
//
// Usage: pegsim_solver_bars [--repeat N]   (N: timing repetitions, default 5)
#include "dynamics/random_problem.hpp"
#include "io/scene.hpp"
#include "sim/world.hpp"
#include "solvers/lcp.hpp"

#include <LCP_Solvers.h>
#include <LinearComplementarityProblem.h>
#include <NonSmoothDrivers.h>
#include <NumericsMatrix.h>
#include <SolverOptions.h>
#include <lcp_cst.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

namespace {

using pegsim::LcpProblem;
using pegsim::VecX;
using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point t0) { return std::chrono::duration<double>(Clock::now() - t0).count(); }

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v.empty() ? 0.0 : v[v.size() / 2];
}

double residual(const LcpProblem& p, const VecX& z) {
  pegsim::SolverResult r;
  pegsim::measure_residuals(p, z, r);
  return std::max(r.complementarity, r.feasibility);
}

// One Siconos LCP solve from z = 0 (dense storage); returns seconds, fills z
// and the iterations Siconos reports done.
double siconos_solve(const LcpProblem& p, int solver_id, int max_iterations, double tolerance, VecX& z,
                     int* iterations = nullptr) {
  const int n = p.size();
  pegsim::MatX A = p.A;  // column-major, as NM_DENSE expects
  VecX q = p.b;
  NumericsMatrix* M = NM_create_from_data(NM_DENSE, n, n, A.data());
  LinearComplementarityProblem lcp;
  lcp.size = n;
  lcp.M = M;
  lcp.q = q.data();
  ::SolverOptions* options = solver_options_create(solver_id);
  options->dparam[SICONOS_DPARAM_TOL] = tolerance;
  options->iparam[SICONOS_IPARAM_MAX_ITER] = max_iterations;
  z = VecX::Zero(n);
  VecX w = VecX::Zero(n);
  const auto t0 = Clock::now();
  linearComplementarity_driver(&lcp, z.data(), w.data(), options);
  const double s = seconds_since(t0);
  if (iterations) *iterations = options->iparam[SICONOS_IPARAM_ITER_DONE];
  solver_options_delete(options);
  std::free(options);
  NM_clear_not_dense(M);
  std::free(M);
  return s;
}

double pegsim_solve(const LcpProblem& p, const std::string& solver, const pegsim::SolverOptions& o, VecX& z,
                    pegsim::SolverResult* out = nullptr) {
  auto s = pegsim::make_solver(solver, o);
  z = VecX::Zero(p.size());
  const auto t0 = Clock::now();
  const pegsim::SolverResult r = s->solve(p, z);
  const double t = seconds_since(t0);
  if (out) *out = r;
  return t;
}

std::vector<LcpProblem> random_problems(int count, int contacts, std::uint64_t seed) {
  pegsim::RandomProblemOptions o;
  o.contacts = contacts;
  o.friction_directions = 4;
  pegsim::ProblemRng rng(seed);
  std::vector<LcpProblem> out;
  for (int i = 0; i < count; ++i) out.push_back(pegsim::random_contact_problem(o, rng));
  return out;
}

void lemke_bar(int repeat) {
  const std::vector<LcpProblem> problems = random_problems(20, 20, 7);
  std::vector<double> ours, peer;
  double worst_ours = 0.0, worst_peer = 0.0;
  int solved = 0, peer_solved = 0;
  pegsim::SolverOptions o;
  o.tolerance = 1e-10;
  for (const LcpProblem& p : problems) {
    VecX z;
    double best = 1e300, best_peer = 1e300;
    pegsim::SolverResult r;
    for (int k = 0; k < repeat; ++k) {
      best = std::min(best, pegsim_solve(p, "lemke", o, z, &r));
      worst_ours = std::max(worst_ours, residual(p, z));
    }
    solved += r.ok();
    for (int k = 0; k < repeat; ++k) {
      best_peer = std::min(best_peer, siconos_solve(p, SICONOS_LCP_LEMKE, 100000, 1e-12, z));
      worst_peer = std::max(worst_peer, residual(p, z));
    }
    peer_solved += residual(p, z) <= o.tolerance * (1.0 + p.b.lpNorm<Eigen::Infinity>());
    ours.push_back(best);
    peer.push_back(best_peer);
  }
  const double m = median(ours), mp = median(peer);
  std::printf("1. Lemke, %zu random contact LCPs of %d variables (20 contacts, n_d = 4)\n", problems.size(),
              problems.front().size());
  std::printf("   pegsim lemke     median %8.1f us   solved %d/%zu   worst residual %.2g\n", m * 1e6, solved,
              problems.size(), worst_ours);
  std::printf("   siconos lemke    median %8.1f us   solved %d/%zu   worst residual %.2g\n", mp * 1e6, peer_solved,
              problems.size(), worst_peer);
  std::printf("   ratio pegsim/siconos %.2f   bar < 300 us: %s\n\n", m / mp, m < 300e-6 ? "met" : "NOT met");
}

// The frictionless part of a contact problem: its Normal rows (G_n' M^-1 G_n,
// positive semi-definite with a positive diagonal). Siconos's PGS stops at
// once on a zero diagonal, which the slip rows of eq. 6.1 have.
LcpProblem normal_rows(const LcpProblem& p) {
  std::vector<int> keep;
  for (int i = 0; i < p.size(); ++i)
    if (p.role[static_cast<std::size_t>(i)] == pegsim::RowRole::Normal) keep.push_back(i);
  const int n = static_cast<int>(keep.size());
  LcpProblem q;
  q.A.resize(n, n);
  q.b.resize(n);
  for (int r = 0; r < n; ++r) {
    q.b(r) = p.b(keep[static_cast<std::size_t>(r)]);
    for (int c = 0; c < n; ++c) q.A(r, c) = p.A(keep[static_cast<std::size_t>(r)], keep[static_cast<std::size_t>(c)]);
    q.role.push_back(pegsim::RowRole::Normal);
    q.contact_of.push_back(-1);
    if (!p.structure.empty()) q.structure.rows.push_back(p.structure.rows[static_cast<std::size_t>(keep[static_cast<std::size_t>(r)])]);
  }
  q.bound.assign(static_cast<std::size_t>(n), pegsim::RowBound::NonNegative);
  q.structure.inverse_mass = p.structure.inverse_mass;
  return q;
}

// Time per sweep as the difference of runs of 2N and N sweeps (so set-up and
// per-solve costs cancel, and no solver's own iteration count is trusted).
void pgs_bar(int repeat) {
  const int contacts = 200, sweeps = 50;
  std::vector<LcpProblem> problems;
  for (const LcpProblem& p : random_problems(3, contacts, 11)) problems.push_back(normal_rows(p));
  std::vector<double> ours, peer;
  for (const LcpProblem& p : problems) {
    double t_ours[2], t_peer[2];
    for (int twice = 0; twice < 2; ++twice) {
      const int n = sweeps * (1 + twice);
      pegsim::SolverOptions o;
      o.tolerance = 0.0;  // never within tolerance: every sweep runs
      o.max_iterations = n;
      VecX z;
      t_ours[twice] = t_peer[twice] = 1e300;
      for (int k = 0; k < repeat; ++k) {
        t_ours[twice] = std::min(t_ours[twice], pegsim_solve(p, "pgs", o, z));
        t_peer[twice] = std::min(t_peer[twice], siconos_solve(p, SICONOS_LCP_PGS, n, 1e-300, z));
      }
    }
    ours.push_back((t_ours[1] - t_ours[0]) / (contacts * static_cast<double>(sweeps)));
    peer.push_back((t_peer[1] - t_peer[0]) / (contacts * static_cast<double>(sweeps)));
  }
  // the same problems with friction (6 rows a contact), pegsim alone
  std::vector<double> frictional;
  for (const LcpProblem& p : random_problems(3, contacts, 11)) {
    double t[2] = {1e300, 1e300};
    for (int twice = 0; twice < 2; ++twice) {
      pegsim::SolverOptions o;
      o.tolerance = 0.0;
      o.max_iterations = sweeps * (1 + twice);
      VecX z;
      for (int k = 0; k < repeat; ++k) t[twice] = std::min(t[twice], pegsim_solve(p, "pgs", o, z));
    }
    frictional.push_back((t[1] - t[0]) / (contacts * static_cast<double>(sweeps)));
  }
  const double m = median(ours), mp = median(peer);
  std::printf("2. PGS, %d-contact random problems, frictionless rows (%d variables): time of %d more sweeps\n", contacts,
              problems.front().size(), sweeps);
  std::printf("   pegsim pgs       %6.3f us per contact per sweep (structured rows)\n", m * 1e6);
  std::printf("   siconos pgs      %6.3f us per contact per sweep (dense rows)\n", mp * 1e6);
  std::printf("   with friction (n_d = 4, 6 rows a contact): pegsim pgs %6.3f us per contact per sweep\n",
              median(frictional) * 1e6);
  const double worst = std::max(m, median(frictional));
  std::printf("   ratio pegsim/siconos (frictionless) %.2f   bar < 1 us: %s\n\n", m / mp, worst < 1e-6 ? "met" : "NOT met");
}

void stack_bar(int repeat) {
  std::printf("3. box-stack-3d (scenes/box-stack-3d.yaml, 10 boxes, h = 0.005), 400 steps\n");
  const std::string path = std::string(PEGSIM_SCENES_DIR) + "/box-stack-3d.yaml";
  double fastest = 1e300;
  std::string fastest_name;
  for (const std::string& solver : pegsim::solver_names()) {
    double best = 1e300;
    int failures = 0;
    for (int k = 0; k < std::max(1, repeat / 2); ++k) {
      pegsim::Scene s = pegsim::load_scene_file(path);
      s.model.options.h = 0.005;
      pegsim::World w(std::move(s.model), std::move(s.state));
      w.set_solver(solver);
      failures = 0;
      const auto t0 = Clock::now();
      for (int i = 0; i < 400; ++i) failures += w.step().solver_failures;
      best = std::min(best, seconds_since(t0) / 400.0);
    }
    std::printf("   %-18s %8.1f us/step   failed steps %d\n", solver.c_str(), best * 1e6, failures);
    if (failures == 0 && best < fastest) {
      fastest = best;
      fastest_name = solver;
    }
  }
  if (fastest_name.empty()) {
    std::printf("   no solver without failures: bar NOT met\n");
    return;
  }
  std::printf("   fastest without failures: %s, %.1f us/step   bar < 200 us: %s\n", fastest_name.c_str(),
              fastest * 1e6, fastest < 200e-6 ? "met" : "NOT met");
}

}  // namespace

int main(int argc, char** argv) {
  int repeat = 5;
  for (int i = 1; i + 1 < argc; ++i)
    if (std::strcmp(argv[i], "--repeat") == 0) repeat = std::max(1, std::atoi(argv[i + 1]));
  std::printf("pegsim_solver_bars (best of %d timings per problem; compare the ratios)\n\n", repeat);
  lemke_bar(repeat);
  pgs_bar(repeat);
  stack_bar(repeat);
  return 0;
}
