// pegsim gen-problems: random rigid-body contact LCPs (dynamics/random_problem.hpp)
// written in the capture layout (docs/capture-format.md), the same bytes for a seed.
#include "commands.hpp"

#include "dynamics/random_problem.hpp"
#include "io/capture.hpp"

#include "sim/model.hpp"

#include <cstdio>
#include <stdexcept>
#include <string>

namespace pegsim::cli {

int gen_problems_command(const GenProblemsArgs& args) {
  // a problem's dense A is n^2 doubles: n is held to the step's own budget (SimOptions::max_problem_size)
  const long rows = static_cast<long>(args.contacts) * (args.friction_directions + 2);
  const int budget = SimOptions{}.max_problem_size;
  if (rows > budget)
    throw std::invalid_argument("--contacts " + std::to_string(args.contacts) + " with --friction-directions " +
                                std::to_string(args.friction_directions) + " is " + std::to_string(rows) +
                                " rows, over the limit of " + std::to_string(budget) + " (max_problem_size)");
  RandomProblemOptions options;
  options.contacts = args.contacts;
  options.bodies = args.bodies;
  options.friction_directions = args.friction_directions;
  ProblemRng rng(args.seed);
  char source[160];
  std::snprintf(source, sizeof source, "pegsim gen-problems --count %d --contacts %d --bodies %d --friction-directions %d --seed %llu",
                args.count, args.contacts, args.bodies, args.friction_directions, args.seed);
  CaptureWriter writer(args.out, source);
  for (int k = 0; k < args.count; ++k) {
    CaptureInfo info;
    info.step = k;
    info.spacedim = 3;
    info.model = "random";
    writer.add(random_contact_problem(options, rng), info);
  }
  writer.close();
  std::printf("pegsim gen-problems: %d problems of %d contacts (%d rows each) in %s\n", writer.count(), args.contacts,
              args.contacts * (args.friction_directions + 2), args.out.c_str());
  return 0;
}

}  // namespace pegsim::cli
