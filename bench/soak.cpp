// pegsim_soak: a long run of a pile, issue 17's soak (docs/reliability.md).
// The pile is the thesis's pour (apps/experiment_pour.hpp: random convex
// polygons or polyhedra dropped one at a time into a box, h = 0.005), under
// PEG with eps: auto (the 3D pour scene itself names the standard model):
// `--bodies` of them are released, then the pile is stepped until `--steps`.
// Every `--every` steps it prints the mechanical energy, its largest rise
// since the last release, solver failures (and islands over the work budget),
// the process's resident memory and the time per step. Exit 1 when a state
// goes non-finite or the energy rises above its value at the last release by
// more than `--energy-tolerance` J (a resting pile only loses energy: a rise
// is energy the step created).
//
//   build/bench/pegsim_soak --pour box-of-polyhedra --steps 1000000
//   build/bench/pegsim_soak --pour box-of-polygons --steps 1000000 --every 100000
//   build/bench/pegsim_soak --steps 4340 --trace-from 4300     # one line per step from step 4300
//   build/bench/pegsim_soak --contact as-written --steps 20000   # the pour scene's own contact model
#include "experiment_pour.hpp"
#include "sim/world.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <fstream>
#include <string>

using namespace pegsim;
using namespace pegsim::cli::experiment;

namespace {

bool finite(const State& s) {
  for (const BodyState& b : s.bodies)
    if (!b.pose.position.allFinite() || !b.pose.orientation.coeffs().allFinite() || !b.linear_velocity.allFinite() ||
        !b.angular_velocity.allFinite())
      return false;
  return true;
}

// resident set size in MB (Linux /proc/self/statm: pages)
double resident_mb() {
  std::ifstream in("/proc/self/statm");
  long size = 0, resident = 0;
  in >> size >> resident;
  return static_cast<double>(resident) * 4096.0 / (1024.0 * 1024.0);
}

int usage() {
  std::fprintf(stderr,
               "usage: pegsim_soak [--pour box-of-polygons|box-of-polyhedra] [--bodies N] [--steps N] [--every N]\n"
               "                   [--seed S] [--energy-tolerance J] [--trace-from STEP] [--contact peg|as-written]\n");
  return 2;
}

}  // namespace

int main(int argc, char** argv) {
  std::string pour_name = "box-of-polyhedra";
  int bodies = 20;
  long steps = 1000000, every = 100000, trace_from = -1;
  std::uint64_t seed = 1;
  double tolerance = 1e-6;
  std::string contact = "peg";
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (i + 1 >= argc) return usage();
    const std::string v = argv[++i];
    char* end = nullptr;
    if (a == "--pour") pour_name = v;
    else if (a == "--bodies") bodies = static_cast<int>(std::strtol(v.c_str(), &end, 10));
    else if (a == "--steps") steps = std::strtol(v.c_str(), &end, 10);
    else if (a == "--every") every = std::strtol(v.c_str(), &end, 10);
    else if (a == "--seed") seed = std::strtoull(v.c_str(), &end, 10);
    else if (a == "--energy-tolerance") tolerance = std::strtod(v.c_str(), &end);
    else if (a == "--trace-from") trace_from = std::strtol(v.c_str(), &end, 10);
    else if (a == "--contact" && (v == "peg" || v == "as-written")) contact = v;
    else return usage();
    if (end != nullptr && *end != '\0') return usage();
  }
  if (bodies < 1 || bodies > 1000 || steps < 1 || every < 1 || !(tolerance >= 0.0)) return usage();
  PourSetup setup;
  try {
    setup = pour_setup(pour_name);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "pegsim_soak: %s\n", e.what());
    return 2;
  }
  const PourScene pour = make_pour_scene(setup, seed, bodies);
  const double h = pour.scene.model.options.h;
  PourSchedule schedule(setup, pour, h);
  Scene scene = pour.scene;
  // pegsim's defaults for contact, whatever the experiment's scene says (its
  // 3D pour is written for the standard model, which the experiment compares):
  // PEG, with the contact distance of eq. 5.1 per body; `--contact
  // as-written` keeps the scene's (the run that launched a body, below)
  if (contact == "peg") {
    scene.model.options.model = ContactModelKind::Peg;
    scene.model.options.eps_auto = true;
  }
  World world(std::move(scene.model), std::move(scene.state));
  if (trace_from >= 0) world.set_measure_penetration(true);
  // the last release happens before the step at (bodies - 1) * interval
  const long last_release = static_cast<long>(std::ceil((bodies - 1) * setup.interval / h - 1e-9));
  std::printf("soak: %s, %d bodies, seed %llu, h = %g s, %ld steps (last release at step %ld)\n", setup.name, bodies,
              static_cast<unsigned long long>(seed), h, steps, last_release);
  std::printf("%10s %10s %14s %12s %9s %11s %9s %9s\n", "step", "time s", "energy J", "rise J", "failures",
              "over budget", "RSS MB", "us/step");
  long failures = 0, over_budget = 0;
  double released_energy = 0.0, worst_rise = 0.0;
  double rss_first = 0.0, rss_last = 0.0;
  bool bad = false;
  auto window = std::chrono::steady_clock::now();
  for (long k = 0; k < steps; ++k) {
    schedule.before_step(world);
    try {
      world.step();
    } catch (const std::exception& e) {  // the stepper refuses a step that would leave a non-finite state
      std::printf("step %ld: %s\n", world.state().step, e.what());
      bad = true;
      break;
    }
    const StepReport& r = world.last_report();
    if (trace_from >= 0 && k >= trace_from) {  // per step: the fastest body, contacts, problems, failures
      double v_max = 0.0, w_max = 0.0;
      std::size_t fastest = 0;
      int fast = 0;  // bodies faster than 10 m/s: none in a pile, every one that fell out of the box
      for (std::size_t b = 0; b < world.state().bodies.size(); ++b) {
        const BodyState& bs = world.state().bodies[b];
        fast += bs.linear_velocity.norm() > 10.0;
        if (bs.linear_velocity.norm() > v_max) fastest = b;
        v_max = std::max(v_max, bs.linear_velocity.norm());
        w_max = std::max(w_max, bs.angular_velocity.norm());
      }
      int largest = 0;
      for (const IslandReport& island : r.islands) largest = std::max(largest, island.problem_size);
      std::printf("trace step %ld: |v| max %.3g m/s (%s; %d above 10 m/s), |w| max %.3g rad/s, contacts %d, "
                  "U/I/X %d/%d/%d, islands %zu, largest problem %d, failures %d, penetration %.3g m\n",
                  world.state().step, v_max, world.model().bodies[fastest].name.c_str(), fast, w_max, r.contacts_found,
                  r.constraints.u, r.constraints.i, r.constraints.x, r.islands.size(), largest, r.solver_failures,
                  r.max_penetration);
    }
    failures += r.solver_failures;
    over_budget += r.over_budget;
    if (!finite(world.state())) {
      std::printf("step %ld: non-finite state\n", world.state().step);
      bad = true;
      break;
    }
    const double e = mechanical_energy(world.model(), world.state());
    if (k == last_release) released_energy = e;
    if (k > last_release) worst_rise = std::max(worst_rise, e - released_energy);
    if ((k + 1) % every == 0 || k + 1 == steps) {
      const auto now = std::chrono::steady_clock::now();
      const double us = std::chrono::duration<double, std::micro>(now - window).count() /
                        static_cast<double>((k + 1) % every == 0 ? every : (k + 1) % every);
      window = now;
      rss_last = resident_mb();
      if (rss_first == 0.0) rss_first = rss_last;
      std::printf("%10ld %10.1f %14.6f %12.3e %9ld %11ld %9.1f %9.1f\n", k + 1, world.state().time, e, worst_rise,
                  failures, over_budget, rss_last, us);
      std::fflush(stdout);
    }
  }
  const bool rose = worst_rise > tolerance;
  std::printf("soak: %s; energy rise after the last release %.3e J (tolerance %.1e); %ld solver failures "
              "(%ld over budget); RSS %.1f MB at the first report, %.1f MB at the last\n",
              bad ? "NON-FINITE" : "finite throughout", worst_rise, tolerance, failures, over_budget, rss_first,
              rss_last);
  return bad || rose ? 1 : 0;
}
