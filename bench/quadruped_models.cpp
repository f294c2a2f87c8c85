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
//   all three [ppm] once more on PEG's active pieces (contact/active_piece.hpp)
//   in place of the standard model's contacts (the papers')
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
  ContactModelKind contact_model = ContactModelKind::Standard;  // the Drumwright-Shell steppers' contacts
  std::size_t base = 0;                                    // the row its ratio is against
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
  if (std::string(m.stepper) != "time-stepping") s.model.options.model = m.contact_model;
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
  // the paper's pairs: no-slip against the Coulomb model (Table II), viscous ppm against viscous Lemke (Table
  // III); the steppers on PEG's active pieces (contact/active_piece.hpp) against their standard-contact rows
  const ContactModelKind standard = ContactModelKind::Standard, peg = ContactModelKind::Peg;
  struct Row {
    const char* label;
    const char* stepper;
    const char* solver;
    ContactModelKind contacts;
    std::size_t base;
  };
  std::vector<Candidate> models;
  for (const Row& r : {Row{"Coulomb (Stewart-Trinkle, PEG) + lemke", "time-stepping", "lemke", peg, 0},
                       Row{"no-slip + ppm", "no-slip", "ppm", standard, 0},
                       Row{"no-slip + lemke", "no-slip", "lemke", standard, 0},
                       Row{"viscous + ppm", "viscous", "ppm", standard, 4},
                       Row{"viscous + lemke", "viscous", "lemke", standard, 4},
                       Row{"viscous RK4 (acceleration) + ppm", "viscous-rk4", "ppm", standard, 6},
                       Row{"viscous RK4 (acceleration) + lemke", "viscous-rk4", "lemke", standard, 6},
                       Row{"no-slip, PEG pieces + ppm", "no-slip", "ppm", peg, 1},
                       Row{"viscous, PEG pieces + ppm", "viscous", "ppm", peg, 3},
                       Row{"viscous RK4, PEG pieces + ppm", "viscous-rk4", "ppm", peg, 5}}) {
    Candidate& c = models.emplace_back();
    c.label = r.label;
    c.stepper = r.stepper;
    c.solver = r.solver;
    c.contact_model = r.contacts;
    c.base = r.base;
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
    const Candidate& base = models[m.base];
    std::printf("%-40s %10.2f %9.2f %12.2f %10ld %8.3f %11.2f\n", m.label, per_step(m),
                static_cast<double>(m.contacts) / static_cast<double>(m.steps),
                static_cast<double>(m.iterations) / static_cast<double>(m.steps), m.failures,
                m.distance, per_step(base) / per_step(m));
  }
  std::printf("(ratio: the no-slip rows against the Coulomb row's time, the viscous rows against their form's lemke row,\n"
              " the PEG-piece rows against the same stepper + ppm on the standard model's contacts;\n"
              " the paper: no-slip + PPM 1.379 (Table II), viscous + PPM 1.372 (Table III); iters/step: the step's last\n"
              " solve's pivots or iterations)\n");
  return 0;
}
