// pegsim run --capture, gen-problems and solve-bench, run as a user would.
#include "common/test_paths.hpp"

#include "solvers/lcp.hpp"

#include "cli_runner.hpp"

#include <gtest/gtest.h>

#include <array>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <sstream>
#include <string>
#include <vector>

namespace {

using namespace pegsim::test;  // cli_runner.hpp

namespace fs = std::filesystem;

// rows of a CSV file with a header and no quoted commas, as maps column -> text
std::vector<std::map<std::string, std::string>> read_csv(const fs::path& p) {
  std::ifstream in(p);
  std::vector<std::string> header;
  std::vector<std::map<std::string, std::string>> rows;
  for (std::string line; std::getline(in, line);) {
    std::vector<std::string> cells;
    std::stringstream ss(line);
    for (std::string cell; std::getline(ss, cell, ',');) cells.push_back(cell);
    if (header.empty()) {
      header = cells;
      continue;
    }
    std::map<std::string, std::string> row;
    for (std::size_t i = 0; i < header.size() && i < cells.size(); ++i) row[header[i]] = cells[i];
    rows.push_back(row);
  }
  return rows;
}

const fs::path kTmp = fs::path(::testing::TempDir());

TEST(GenProblems, TheSameSeedGivesTheSameFile) {
  const fs::path a = kTmp / "pegsim_gen_a.h5", b = kTmp / "pegsim_gen_b.h5", c = kTmp / "pegsim_gen_c.h5";
  for (const auto& [path, seed] : {std::pair{a, 5}, std::pair{b, 5}, std::pair{c, 6}}) {
    const Output o = run_cli("gen-problems --count 4 --contacts 6 --seed " + std::to_string(seed) + " --out " + path.string());
    ASSERT_EQ(o.status, 0) << o.text;
  }
  EXPECT_TRUE(slurp(a) == slurp(b));
  EXPECT_FALSE(slurp(a) == slurp(c));
  for (const auto& p : {a, b, c}) fs::remove(p);
}

TEST(CaptureCli, RunCapturesTheSameBytesTwice) {
  const fs::path a = kTmp / "pegsim_cap_a.h5", b = kTmp / "pegsim_cap_b.h5";
  for (const auto& path : {a, b}) {
    const Output o = run_cli(std::string("run ") + PEGSIM_SCENES_DIR + "/wedge-grasp.yaml --steps 120 --quiet --capture " +
                         path.string() + " --capture-every 30");
    ASSERT_EQ(o.status, 0) << o.text;
    EXPECT_NE(o.text.find("captured problems"), std::string::npos) << o.text;
  }
  EXPECT_GT(slurp(a).size(), 1000u);
  EXPECT_TRUE(slurp(a) == slurp(b));
  fs::remove(a);
  fs::remove(b);
}

// Every registered solver on a tiny set; the CSV files agree with each other.
TEST(SolveBench, EverySolverOneSummaryRowConsistentNumbers) {
  const fs::path set = kTmp / "pegsim_sb_set.h5", out = kTmp / "pegsim_sb_out";
  fs::remove_all(out);
  const int problems = 3;
  ASSERT_EQ(run_cli("gen-problems --count 3 --contacts 4 --seed 2 --out " + set.string()).status, 0);
  const Output o = run_cli("solve-bench " + set.string() + " --no-plots --out " + out.string());
  ASSERT_EQ(o.status, 0) << o.text;

  const std::vector<std::string> solvers = pegsim::solver_names();
  const auto summary = read_csv(out / "summary.csv");
  const auto results = read_csv(out / "results.csv");
  ASSERT_EQ(summary.size(), solvers.size());
  ASSERT_EQ(results.size(), solvers.size() * problems);
  for (std::size_t s = 0; s < solvers.size(); ++s) {
    const auto& row = summary[s];
    SCOPED_TRACE(solvers[s]);
    EXPECT_EQ(row.at("solver"), solvers[s]);
    EXPECT_NE(o.text.find(solvers[s]), std::string::npos);
    EXPECT_EQ(std::stol(row.at("problems")), problems);
    long solved = 0;
    double total = 0.0, worst = 0.0;
    for (const auto& r : results)
      if (r.at("solver") == solvers[s]) {
        solved += std::stol(r.at("solved"));
        total += std::stod(r.at("seconds"));
        worst = std::max(worst, std::stod(r.at("residual")));
      }
    EXPECT_EQ(std::stol(row.at("solved")), solved);
    // the CSV prints 10 significant digits: relative 1e-9
    EXPECT_NEAR(std::stod(row.at("solved_share")), static_cast<double>(solved) / problems, 1e-9);
    EXPECT_NEAR(std::stod(row.at("total_seconds")), total, 1e-9 * total + 1e-12);
    EXPECT_NEAR(std::stod(row.at("worst_residual")), worst, 1e-9 * worst);
    EXPECT_LE(std::stod(row.at("median_residual")), std::stod(row.at("worst_residual")));
    EXPECT_LE(std::stod(row.at("median_seconds")), std::stod(row.at("total_seconds")));
  }
  // lemke solves these copositive-plus problems
  EXPECT_EQ(summary[0].at("solver"), "lemke");
  EXPECT_EQ(std::stol(summary[0].at("solved")), problems);
  // the profile: each solver's share ends at solved / problems
  const auto profile = read_csv(out / "profile.csv");
  for (std::size_t s = 0; s < solvers.size(); ++s) {
    double last = -1.0;
    for (const auto& r : profile)
      if (r.at("solver") == solvers[s]) last = std::stod(r.at("share"));
    EXPECT_NEAR(last, std::stod(summary[s].at("solved_share")), 1e-9) << solvers[s];  // 10 digits
  }
  fs::remove(set);
  fs::remove_all(out);
}

TEST(SolveBench, UnknownSolverAndMissingFileAreErrors) {
  EXPECT_NE(run_cli("solve-bench /nonexistent/problems.h5").status, 0);
  const fs::path set = kTmp / "pegsim_sb_err.h5";
  ASSERT_EQ(run_cli("gen-problems --count 1 --contacts 2 --out " + set.string()).status, 0);
  const Output o = run_cli("solve-bench " + set.string() + " --solvers nosuch");
  EXPECT_NE(o.status, 0);
  EXPECT_NE(o.text.find("unknown solver 'nosuch'"), std::string::npos) << o.text;
  fs::remove(set);
}

}  // namespace
