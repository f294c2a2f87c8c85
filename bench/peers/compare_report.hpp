// What pegsim_compare prints and writes: the table of figures per engine, the
// largest deviation of each body from pegsim's trajectory, the checks against
// analytic end positions (--expect-final), and with --out DIR the files
// (trajectory_<engine>.csv, series_<engine>.csv, summary.csv, deviation.csv)
// that scripts/plot_compare.py draws.
#pragma once

#include "compare_run.hpp"

#include <iosfwd>
#include <string>
#include <vector>

namespace pegsim::bench {

// runs[0] is pegsim's (the reference); names are the dynamic bodies'
void print_table(std::ostream& out, const std::vector<CompareRun>& runs, const std::vector<std::string>& names);

// --expect-final [ENGINE=]BODY:X,Y,Z:TOL: BODY must end within TOL (m) of
// (X, Y, Z) in ENGINE, or in every engine that has no expectation of its own
// for BODY; a coordinate given as nan is not checked. Throws
// std::invalid_argument for malformed text.
struct Expectation {
  std::string engine;  // empty: every engine
  std::string body;
  Vec3 position = Vec3::Zero();
  double tolerance = 0.0;
};
Expectation parse_expectation(const std::string& text);
// prints one line per engine and expected body; false if any missed
bool check_expectations(std::ostream& out, const std::vector<CompareRun>& runs, const std::vector<std::string>& names,
                        const std::vector<Expectation>& expectations);

void write_files(const std::string& dir, const std::vector<CompareRun>& runs, const std::vector<std::string>& names,
                 double h);

}  // namespace pegsim::bench
