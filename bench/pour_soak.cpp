// pegsim_pour_soak: random pours (io/random_pour.hpp) over many seeds, the
// soak of docs/reliability.md. Prints one line per seed that failed a check
// and a summary (and one line per seed whose impulses the energy bound scaled,
// with the steps): seeds run, steps, the worst step's problem size and solver
// iterations, islands over the budget, solver failures, the largest energy
// rise above the start, the islands whose impulses the energy bound scaled
// (sim/impulse_energy.hpp) and the largest step time. Exit 1 if any seed went
// non-finite or gained energy. --no-energy-bound turns the bound off
// (SimOptions::energy_bound), to compare.
//
//   build/bench/pegsim_pour_soak [--seeds A:B] [--time T] [--chain lemke,path] [--no-energy-bound]
//                                [--write SEED FILE]
#include "io/random_pour.hpp"
#include "sim/world.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <fstream>
#include <string>

using namespace pegsim;

namespace {

std::vector<std::string> split(const std::string& s) {
  std::vector<std::string> out;
  std::size_t start = 0;
  while (start <= s.size()) {
    const std::size_t comma = s.find(',', start);
    out.push_back(s.substr(start, comma == std::string::npos ? std::string::npos : comma - start));
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  return out;
}

bool finite(const State& s) {
  for (const BodyState& b : s.bodies)
    if (!b.pose.position.allFinite() || !b.linear_velocity.allFinite() || !b.angular_velocity.allFinite()) return false;
  return true;
}

}  // namespace

int main(int argc, char** argv) {
  long first = 1, last = 100;
  RandomPourOptions options;
  bool bound = true;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--seeds" && i + 1 < argc) {
      const std::string v = argv[++i];
      const std::size_t colon = v.find(':');
      first = std::atol(v.substr(0, colon).c_str());
      last = colon == std::string::npos ? first : std::atol(v.substr(colon + 1).c_str());
    } else if (a == "--time" && i + 1 < argc) {
      options.duration = std::atof(argv[++i]);
    } else if (a == "--chain" && i + 1 < argc) {
      options.solver_chain = split(argv[++i]);
    } else if (a == "--no-energy-bound") {
      bound = false;
    } else if (a == "--write" && i + 2 < argc) {
      const long seed = std::atol(argv[i + 1]);
      std::ofstream(argv[i + 2]) << random_pour_yaml(options, static_cast<std::uint64_t>(seed));
      std::printf("wrote seed %ld to %s\n", seed, argv[i + 2]);
      return 0;
    } else {
      std::fprintf(stderr, "usage: pegsim_pour_soak [--seeds A:B] [--time T] [--chain a,b] [--no-energy-bound] [--write SEED FILE]\n");
      return 2;
    }
  }
  long seeds = 0, steps = 0, over_budget = 0, failures = 0, scaled = 0, bad = 0;
  int worst_size = 0, worst_iterations = 0;
  double worst_rise = 0.0, worst_step_s = 0.0, total_s = 0.0;
  for (long seed = first; seed <= last; ++seed) {
    Scene scene = random_pour_scene(options, static_cast<std::uint64_t>(seed));
    scene.model.options.energy_bound = bound;
    World world(std::move(scene.model), std::move(scene.state));
    const double e0 = mechanical_energy(world.model(), world.state());
    double rise = 0.0;
    bool ok = true;
    const long n = std::lround(options.duration / options.h);
    std::string error;
    std::string scaled_at;  // the steps where the energy bound scaled an island's impulses
    for (long k = 0; k < n && error.empty(); ++k) {
      const auto start = std::chrono::steady_clock::now();
      try {
        world.step();
      } catch (const std::exception& e) {  // World::step refuses a non-finite state
        error = e.what();
        ok = false;
        break;
      }
      const StepReport& r = world.last_report();
      const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
      worst_step_s = std::max(worst_step_s, s);
      total_s += s;
      worst_size = std::max(worst_size, r.problem_size);
      worst_iterations = std::max(worst_iterations, r.solver.iterations);
      over_budget += r.over_budget;
      failures += r.solver_failures;
      scaled += r.impulses_scaled;
      if (r.impulses_scaled > 0) {  // appended piecewise: GCC 12's -Wrestrict misreads " " + std::string at -O3
        scaled_at += ' ';
        scaled_at += std::to_string(k);
      }
      ok = ok && finite(world.state());
      rise = std::max(rise, mechanical_energy(world.model(), world.state()) - e0);
      ++steps;
    }
    ++seeds;
    worst_rise = std::max(worst_rise, rise);
    if (!ok || rise > 0.0) {
      ++bad;
      std::printf("seed %ld: %s, energy rise %.3g J %s\n", seed, ok ? "finite" : "NON-FINITE", rise, error.c_str());
    }
    if (!scaled_at.empty()) std::printf("seed %ld: impulses scaled by the energy bound at step%s\n", seed, scaled_at.c_str());
  }
  std::printf("seeds %ld, steps %ld, seeds non-finite or gaining energy %ld\n", seeds, steps, bad);
  std::printf("worst step: problem size %d, solver iterations %d, time %.3f s (mean %.3g ms)\n", worst_size,
              worst_iterations, worst_step_s, 1e3 * total_s / std::max(steps, 1L));
  std::printf("islands over max_problem_size %ld, solver failures %ld (impulses scaled by the energy bound %ld), "
              "largest energy rise %.3g J\n",
              over_budget, failures, scaled, worst_rise);
  return bad == 0 ? 0 : 1;
}
