// pegsim_noslip_grasp: the timing of Drumwright & Shell's multi-block grasp
// (reference 002, section VII-A, Table I: Stewart-Trinkle + Lemke 10.97 s,
// no-slip + active-set QP 1.99 s, no-slip + modified PPM 1.67 s in MATLAB,
// PPM mean 5.5 / max 7 pivots). The grasp is scenes/noslip-grasp.yaml with its
// finger plates made free (1 kg) and pushed together by 20 N each, lifted by
// their own and half the cubes' weight (force closure, as
// tests/sim/noslip_grasp_test.cpp checks). All three in one run on the same
// machine (shared and noisy: compare the ratios).
//
// Usage: pegsim_noslip_grasp [steps] [repeats]   (default 10 steps, 20 repeats)
#include "io/scene.hpp"
#include "sim/world.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

using namespace pegsim;

namespace {

struct Run {
  double seconds = 0.0;  // median over repeats of the run's total time
  int problem_size = 0, failures = 0, max_pivots = 0;
  double mean_pivots = 0.0, drift = 0.0;
};

Run run(const std::string& stepper, const std::string& solver, int steps, int repeats) {
  std::vector<double> times;
  Run out;
  for (int rep = 0; rep < repeats; ++rep) {
    Scene s = load_scene_file(std::string(PEGSIM_SCENES_DIR) + "/noslip-grasp.yaml");
    for (int b : {0, 3}) {
      s.model.bodies[b].is_static = false;
      s.model.bodies[b].mass = 1.0;
      s.model.bodies[b].inertia = Mat3::Identity() * (0.18 / 12.0);
    }
    s.model.options.stepper = stepper;
    s.model.options.solver = solver;
    World w(s.model, s.state);
    const Vec3 p0 = w.state().bodies[1].pose.position;
    long pivots = 0;
    Run r;
    const auto start = std::chrono::steady_clock::now();
    for (int k = 0; k < steps; ++k) {
      w.state().bodies[0].force = Vec3(20.0, 0.0, 2.0 * 9.81);
      w.state().bodies[3].force = Vec3(-20.0, 0.0, 2.0 * 9.81);
      const StepReport& rep_k = w.step();
      r.failures += rep_k.solver_failures;
      r.problem_size = std::max(r.problem_size, rep_k.problem_size);
      pivots += rep_k.solver.iterations;
      r.max_pivots = std::max(r.max_pivots, rep_k.solver.iterations);
    }
    times.push_back(std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
    r.mean_pivots = static_cast<double>(pivots) / steps;
    r.drift = (w.state().bodies[1].pose.position - p0).norm();
    out = r;
  }
  std::sort(times.begin(), times.end());
  out.seconds = times[times.size() / 2];
  return out;
}

}  // namespace

int main(int argc, char** argv) {
  const int steps = argc > 1 ? std::atoi(argv[1]) : 10;
  const int repeats = argc > 2 ? std::atoi(argv[2]) : 20;
  std::printf("noslip-grasp, %d steps of h = 0.001 s, median of %d runs\n", steps, repeats);
  std::printf("%-34s %10s %9s %8s %11s %10s %9s %6s\n", "model + solver", "ms/run", "ratio", "LCP n", "pivots/step",
              "max pivots", "drift m", "fails");
  const Run st = run("time-stepping", "lemke", steps, repeats);
  const struct {
    const char* label;
    Run r;
  } rows[] = {{"Stewart-Trinkle (n_d = 4) + lemke", st},
              {"no-slip + qp-active-set", run("no-slip", "qp-active-set", steps, repeats)},
              {"no-slip + ppm", run("no-slip", "ppm", steps, repeats)}};
  for (const auto& row : rows)
    std::printf("%-34s %10.3f %9.2f %8d %11.2f %10d %9.2e %6d\n", row.label, 1e3 * row.r.seconds,
                st.seconds / row.r.seconds, row.r.problem_size, row.r.mean_pivots, row.r.max_pivots, row.r.drift,
                row.r.failures);
  std::printf("(ratio: Stewart-Trinkle's time over the row's; pivots: the solver's iterations, Lemke's pivots for the first row)\n");
  return 0;
}
