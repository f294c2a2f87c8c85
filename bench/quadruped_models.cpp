// pegsim_quadruped_models: the timing of reference 002's walking experiments
// on pegsim's trotting quadruped (scenes/quadruped-trot.yaml, h = 0.001,
// 14 generalized coordinates). The paper's Table II times its no-slip model
// (modified PPM) against Moby's Coulomb model (mu = 1000): 301.8 s against
// 416.3 s for 10 s of walking; Table III its viscous model solved by the
// modified PPM against Lemke: 2139.7 s against 2936.4 s. Here, in one run on
// the same machine (shared and noisy: compare the ratios), with runs
// interleaved and the median of the repeats taken:
//   Coulomb: the time-stepping stepper, Stewart-Trinkle with PEG, mu 0.8, [lemke, path]
//   no-slip: [ppm] and [lemke]
//   viscous (mu_v 10 N s/m, the paper's explicit law): [ppm] and [lemke], in
//   the impulse form (the viscous stepper) and in the paper's acceleration
//   form under RK4 (the viscous-rk4 stepper: four stage solves a step)
// Wall time covers the whole step (free velocities, contacts, formulation,
// solve, integration), as the paper's.
//
// Usage: pegsim_quadruped_models [seconds] [repeats] [terrain]   (default 2 s, 5 repeats, flat; terrain: flat | uneven)
#include "io/scene.hpp"
#include "sim/world.hpp"

#include <algorithm>
#include <array>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <string>
#include <vector>

using namespace pegsim;

namespace {

struct Candidate {
  const char* label = "";
  const char* stepper = "";
  const char* solver = "";
  std::vector<double> seconds;  // one per repeat
  long steps = 0, failures = 0, iterations = 0, contacts = 0;
  double distance = 0.0;
  std::string error;  // a run that stopped (a non-finite state): its message; not timed
};

void run_once(const Scene& scene, Candidate& m, double seconds) {
  Scene s = scene;
  s.model.options.stepper = m.stepper;
  s.model.options.solver_chain = {m.solver};
  if (std::string(m.stepper) == "time-stepping") s.model.options.solver_chain = {m.solver, "path"};
  if (std::string(m.stepper) != "time-stepping") s.model.options.model = ContactModelKind::Standard;
  s.model.options.drumwright_shell.viscous = 10.0;
  World w(s.model, s.state);
  std::uint32_t torso = 0;
  while (torso < s.model.bodies.size() && s.model.bodies[torso].name != "dog/torso") ++torso;
  const double x0 = w.state().bodies[torso].pose.position.x();
  const long steps = std::lround(seconds / s.model.options.h);
  long failures = 0, iterations = 0, contacts = 0;
  const auto start = std::chrono::steady_clock::now();
  try {
    for (long k = 0; k < steps; ++k) {
      const StepReport& r = w.step();
      failures += r.solver_failures;
      iterations += r.solver.iterations;
      contacts += r.contacts_found;
    }
  } catch (const std::exception& e) {
    m.error = e.what();
    return;
  }
  m.seconds.push_back(std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
  m.steps = steps;
  m.failures = failures;
  m.iterations = iterations;
  m.contacts = contacts;
  m.distance = w.state().bodies[torso].pose.position.x() - x0;
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

}  // namespace

int main(int argc, char** argv) {
  const double seconds = argc > 1 ? std::atof(argv[1]) : 2.0;
  const int repeats = argc > 2 ? std::max(1, std::atoi(argv[2])) : 5;
  const std::string terrain = argc > 3 ? argv[3] : "flat";
  if (!(seconds > 0.0) || (terrain != "flat" && terrain != "uneven")) {
    std::fprintf(stderr, "usage: pegsim_quadruped_models [seconds > 0] [repeats] [flat | uneven]\n");
    return 2;
  }
  const Scene scene = load_scene_file(std::string(PEGSIM_SCENES_DIR) + "/quadruped-trot" +
                                      (terrain == "uneven" ? "-uneven" : "") + ".yaml");
  std::vector<Candidate> models;
  for (const auto& [label, stepper, solver] : {std::array<const char*, 3>{"Coulomb (Stewart-Trinkle, PEG) + lemke", "time-stepping", "lemke"},
                                              std::array<const char*, 3>{"no-slip + ppm", "no-slip", "ppm"},
                                              std::array<const char*, 3>{"no-slip + lemke", "no-slip", "lemke"},
                                              std::array<const char*, 3>{"viscous + ppm", "viscous", "ppm"},
                                              std::array<const char*, 3>{"viscous + lemke", "viscous", "lemke"},
                                              std::array<const char*, 3>{"viscous RK4 (acceleration) + ppm", "viscous-rk4", "ppm"},
                                              std::array<const char*, 3>{"viscous RK4 (acceleration) + lemke", "viscous-rk4", "lemke"}}) {
    Candidate& c = models.emplace_back();
    c.label = label;
    c.stepper = stepper;
    c.solver = solver;
  }
  for (int rep = 0; rep < repeats; ++rep)
    for (Candidate& m : models) run_once(scene, m, seconds);
  std::printf("quadruped-trot (%s), %.3g s of h = 0.001 s, median of %d interleaved runs\n", terrain.c_str(), seconds,
              repeats);
  std::printf("%-40s %10s %9s %12s %10s %8s %11s\n", "model + solver", "us/step", "contacts", "iters/step", "failures",
              "x (m)", "ratio");
  const auto per_step = [&](const Candidate& m) {
    return m.seconds.empty() ? std::nan("") : 1e6 * median(m.seconds) / static_cast<double>(m.steps);
  };
  for (const Candidate& m : models) {
    if (!m.error.empty()) {
      std::printf("%-40s stopped: %s\n", m.label, m.error.c_str());
      continue;
    }
    // the paper's pairs: no-slip against the Coulomb model (Table II), viscous Lemke against viscous ppm (Table III)
    const std::string stepper = m.stepper;
    const Candidate& base = stepper == "viscous" ? models[4] : stepper == "viscous-rk4" ? models[6] : models[0];
    std::printf("%-40s %10.2f %9.2f %12.2f %10ld %8.3f %11.2f\n", m.label, per_step(m),
                static_cast<double>(m.contacts) / static_cast<double>(m.steps),
                static_cast<double>(m.iterations) / static_cast<double>(m.steps), m.failures,
                m.distance, per_step(base) / per_step(m));
  }
  std::printf("(ratio: the no-slip rows against the Coulomb row's time, the viscous rows against their form's lemke row;\n"
              " the paper: no-slip + PPM 1.379 (Table II), viscous + PPM 1.372 (Table III); iters/step: the step's last\n"
              " solve's pivots or iterations)\n");
  return 0;
}
