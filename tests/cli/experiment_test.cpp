// pegsim experiment, run as a user would: triangle-drop and box-of-polygons
// with --quick into a temporary folder; the CSV files must exist, hold
// physically sensible numbers, and be the same bytes when run again.
#include "common/test_paths.hpp"

#include "cli_runner.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <set>
#include <string>
#include <vector>
#include <unistd.h>

namespace {

using pegsim::test::slurp;

namespace fs = std::filesystem;
using Row = std::map<std::string, std::string>;

constexpr double kG = 9.81;

// One CSV line split into fields ("..." quoting, "" for a quote inside).
std::vector<std::string> split_csv(const std::string& line) {
  std::vector<std::string> cells(1);
  bool quoted = false;
  for (std::size_t i = 0; i < line.size(); ++i) {
    const char c = line[i];
    if (c == '"' && quoted && i + 1 < line.size() && line[i + 1] == '"') cells.back() += line[++i];
    else if (c == '"') quoted = !quoted;
    else if (c == ',' && !quoted) cells.emplace_back();
    else cells.back() += c;
  }
  return cells;
}

// A CSV file as rows of header -> text.
std::vector<Row> read_csv(const fs::path& path) {
  std::ifstream in(path);
  EXPECT_TRUE(in.good()) << "cannot read " << path;
  std::string line;
  std::getline(in, line);
  const std::vector<std::string> header = split_csv(line);
  std::vector<Row> rows;
  while (std::getline(in, line)) {
    const std::vector<std::string> cells = split_csv(line);
    EXPECT_EQ(cells.size(), header.size()) << path << ": " << line;
    Row row;
    for (std::size_t i = 0; i < header.size() && i < cells.size(); ++i) row[header[i]] = cells[i];
    rows.push_back(row);
  }
  return rows;
}

double number(const Row& r, const std::string& key) {
  const auto it = r.find(key);
  if (it == r.end()) ADD_FAILURE() << "no column " << key;
  return it == r.end() ? NAN : std::strtod(it->second.c_str(), nullptr);
}

// A non-negative integer written as one.
bool is_count(const Row& r, const std::string& key) {
  const auto it = r.find(key);
  if (it == r.end() || it->second.empty()) return false;
  for (char c : it->second)
    if (c < '0' || c > '9') return false;
  return true;
}

int run(const std::string& args) {
  const std::string cmd = std::string(PEGSIM_CLI) + " " + args + " > /dev/null 2>&1";
  return std::system(cmd.c_str());
}

bool have_matplotlib() { return std::system("/usr/bin/python3 -c 'import matplotlib' >/dev/null 2>&1") == 0; }

// A fresh temporary folder, removed afterwards.
struct TempDir {
  fs::path path = fs::temp_directory_path() / ("pegsim_experiment_test_" + std::to_string(getpid()) + "_" +
                                                ::testing::UnitTest::GetInstance()->current_test_info()->name());
  TempDir() { fs::remove_all(path); }
  ~TempDir() { fs::remove_all(path); }
};

// models that ran (not skipped), from runs.csv
std::set<std::string> models_run(const fs::path& dir) {
  std::set<std::string> out;
  for (const Row& r : read_csv(dir / "runs.csv"))
    if (r.at("status") != "skipped") out.insert(r.at("model"));
  return out;
}

// runs.csv: every model appears (and, in the pours, PEG again with the
// position correction), each run ok, failed or skipped with a reason.
void expect_run_log_lists_every_model(const fs::path& dir, bool pour = false) {
  const std::vector<Row> runs = read_csv(dir / "runs.csv");
  ASSERT_FALSE(runs.empty());
  std::set<std::string> models;
  for (const Row& r : runs) {
    models.insert(r.at("model"));
    const std::string& s = r.at("status");
    EXPECT_TRUE(s == "ok" || s == "failed" || s == "skipped") << s;
    if (s != "ok") {
      EXPECT_FALSE(r.at("reason").empty());
    }
    EXPECT_TRUE(is_count(r, "steps") && is_count(r, "solver_failures") && is_count(r, "solver_recoveries"));
  }
  std::set<std::string> expected{"standard", "peg", "lnc", "corrective"};
  if (pour) expected.insert("peg-corrected");
  EXPECT_EQ(models, expected);
}

void expect_pngs(const fs::path& dir, const std::vector<std::string>& names) {
  if (!have_matplotlib()) {
    std::printf("(no matplotlib for /usr/bin/python3: plots not checked)\n");
    return;
  }
  for (const std::string& name : names) {
    const fs::path p = dir / name;
    ASSERT_TRUE(fs::exists(p)) << p;
    EXPECT_EQ(slurp(p).substr(1, 3), "PNG") << p;
  }
}

// The same command gives the same CSV (and generated scene) bytes; `files`: how many it writes at least.
void expect_rerun_gives_the_same_bytes(const std::string& name, const fs::path& first, const fs::path& again,
                                       int files = 4) {
  ASSERT_EQ(run("experiment " + name + " --quick --no-plots --out " + again.string()), 0);
  int compared = 0;
  for (const auto& entry : fs::directory_iterator(again)) {
    const fs::path file = entry.path().filename();
    if (file.extension() != ".csv" && file.extension() != ".yaml") continue;
    EXPECT_TRUE(slurp(first / file) == slurp(entry.path())) << name << ": " << file;
    ++compared;
  }
  EXPECT_GE(compared, files) << name;
}

// The PEG reference (h = 1e-4) falls freely before the first contact (the
// dropped vertex reaches the apex 3.5 m below after about 0.85 s): y drops by
// g t^2 / 2 up to symplectic Euler's lag g h t / 2, x and theta stay put.
void expect_reference_falls_under_gravity(const fs::path& dir) {
  const std::vector<Row> ref = read_csv(dir / "trajectory_reference.csv");
  ASSERT_EQ(ref.size(), 15001u);  // 1.5 s at 1e-4 s, and the initial state
  const double x0 = number(ref[0], "x"), y0 = number(ref[0], "y");
  int checked = 0;
  for (const Row& r : ref) {
    const double t = number(r, "t");
    if (t > 0.8) break;
    EXPECT_NEAR(y0 - number(r, "y"), 0.5 * kG * t * t, 0.5 * kG * 1e-4 * t + 1e-9) << "t = " << t;
    EXPECT_EQ(number(r, "x"), x0);
    EXPECT_EQ(number(r, "theta"), 0.0);
    ++checked;
  }
  EXPECT_GT(checked, 7000);
  // after the apex it slides down the static triangle's right edge and falls past its base (y = 0)
  EXPECT_GT(number(ref.back(), "x"), x0 + 1.0);
  EXPECT_LT(number(ref.back(), "y"), 0.0);
}

// Every model that ran has its trajectories, one row per step and h; PEG stays
// near the reference (within symplectic Euler's lag plus 1% of the 2.45 m side),
// the standard model, its vertex trapped at the apex, far from it.
void expect_trajectories_and_deviation(const fs::path& dir) {
  for (const std::string& model : models_run(dir)) {
    SCOPED_TRACE(model);
    std::map<std::string, long> per_h;
    for (const Row& r : read_csv(dir / ("trajectory_" + model + ".csv"))) {
      ++per_h[r.at("h")];
      EXPECT_TRUE(std::isfinite(number(r, "x")) && std::isfinite(number(r, "y")));
    }
    EXPECT_EQ(per_h, (std::map<std::string, long>{{"0.004", 376}, {"0.016", 95}}));
  }
  std::map<std::string, std::map<std::string, double>> deviation;  // model -> h -> m
  for (const Row& r : read_csv(dir / "deviation.csv"))
    deviation[r.at("model")][r.at("h")] = number(r, "max_position_deviation");
  for (const char* h : {"0.004", "0.016"}) {
    const double lag = 0.5 * kG * std::stod(h) * 1.5;
    EXPECT_LT(deviation["peg"][h], lag + 0.01 * 2.45) << "h = " << h;
    EXPECT_GT(deviation["standard"][h], 1.0) << "h = " << h;
  }
}

TEST(Experiment, TriangleDropQuick) {
  TempDir tmp;
  const fs::path dir = tmp.path / "td";
  ASSERT_EQ(run("experiment triangle-drop --quick --out " + dir.string()), 0);
  expect_run_log_lists_every_model(dir);
  expect_reference_falls_under_gravity(dir);
  expect_trajectories_and_deviation(dir);
  expect_pngs(dir, {"triangle_drop_peg.png", "triangle_drop_standard.png", "triangle_drop_deviation.png"});
  expect_rerun_gives_the_same_bytes("triangle-drop", dir, tmp.path / "again");
}

// box-of-polygons: per model and run, one row per step with counts that are
// non-negative integers, a trap needing two contacts of its own, the standard
// model one U-constraint per contact, and a finite, non-negative overlap.
TEST(Experiment, BoxOfPolygonsQuick) {
  TempDir tmp;
  const fs::path dir = tmp.path / "bp";
  ASSERT_EQ(run("experiment box-of-polygons --quick --out " + dir.string()), 0);
  expect_run_log_lists_every_model(dir, true);
  for (const char* scene : {"scene_seed1.yaml", "scene_seed2.yaml"}) EXPECT_TRUE(fs::exists(dir / scene)) << scene;
  const std::set<std::string> models = models_run(dir);
  EXPECT_TRUE(models.count("standard") && models.count("peg"));
  for (const std::string& model : models) {
    SCOPED_TRACE(model);
    std::map<std::pair<std::string, std::string>, long> steps, released;  // per (seed, h)
    for (const Row& r : read_csv(dir / ("steps_" + model + ".csv"))) {
      for (const char* key : {"seed", "released", "step", "contacts", "u", "i", "x", "traps", "solver_failures"})
        ASSERT_TRUE(is_count(r, key)) << key << " = '" << r.at(key) << "'";
      const auto run = std::make_pair(r.at("seed"), r.at("h"));
      ++steps[run];
      EXPECT_GE(number(r, "released"), released[run]);  // bodies only arrive
      released[run] = static_cast<long>(number(r, "released"));
      EXPECT_LE(2 * number(r, "traps"), number(r, "contacts"));
      if (model == "standard") {
        EXPECT_EQ(number(r, "u"), number(r, "contacts"));
        EXPECT_EQ(number(r, "i") + number(r, "x"), 0.0);
      }
      for (const char* key : {"overlap", "max_penetration"}) {
        const double v = number(r, key);
        EXPECT_TRUE(std::isfinite(v) && v >= 0.0) << key << " = " << v;
      }
    }
    // quick: seeds 1 and 2, h = 0.005 and 0.01, 1 s, a polygon every 0.25 s
    ASSERT_EQ(steps.size(), 4u);
    for (const auto& [run, n] : steps) {
      EXPECT_EQ(n, std::lround(1.0 / std::stod(run.second))) << "seed " << run.first << ", h = " << run.second;
      EXPECT_EQ(released[run], 4);
    }
  }
  const std::vector<Row> summary = read_csv(dir / "summary.csv");
  EXPECT_EQ(summary.size(), 4 * models.size());
  for (const Row& r : summary) {
    EXPECT_TRUE(std::isfinite(number(r, "mean_overlap")));
    // the position correction leaves no overlap above 1e-6 m of depth after a step
    if (r.at("model") == "peg-corrected") {
      EXPECT_LE(number(r, "max_penetration"), 1e-6);
    }
  }
  expect_pngs(dir, {"overlap_vs_h.png", "contacts_traps.png"});
  expect_rerun_gives_the_same_bytes("box-of-polygons", dir, tmp.path / "again");
}

// spinning-platter --quick: one impulse run (eps 1e-3) and one LCP run
// (h = 0.005), 7 s each. The LCP's orbit rate is the rolling analysis' 2/7
// Omega and its radius grows at exactly its explicit-Euler rate (the physics
// checks are tests/impulse/spinning_platter_test.cpp); the impulse run's
// orbit rate within 2% (its envelope's lever, 1.8% at eps = 1e-3), its
// growth within 30% of the Euler rate of its mean hop; both keep the ball on
// the platter.
TEST(Experiment, SpinningPlatterQuick) {
  TempDir tmp;
  const fs::path dir = tmp.path / "sp";
  ASSERT_EQ(run("experiment spinning-platter --quick --out " + dir.string()), 0);
  const std::vector<Row> summary = read_csv(dir / "summary.csv");
  ASSERT_EQ(summary.size(), 2u);
  for (const Row& r : summary) {
    SCOPED_TRACE(r.at("stepper"));
    EXPECT_EQ(r.at("status"), "ok");
    const double rolling = number(r, "rolling_rate"), growth = number(r, "growth_rate");
    EXPECT_NEAR(rolling, 2.0 / 7.0 * 3.4906585039886591, 1e-9);
    const bool lcp = r.at("stepper") == "time-stepping";
    EXPECT_NEAR(number(r, "orbit_rate"), rolling, (lcp ? 1e-4 : 0.02) * rolling);
    EXPECT_NEAR(growth, number(r, "euler_growth_rate"), (lcp ? 1e-6 : 0.3) * growth);
    EXPECT_LT(number(r, "radius_end"), 0.15);
  }
  EXPECT_FALSE(read_csv(dir / "orbit.csv").empty());
  expect_pngs(dir, {"spinning_platter.png"});
  expect_rerun_gives_the_same_bytes("spinning-platter", dir, tmp.path / "again", 3);  // runs, summary, orbit
}

// arm-grasp-ball --quick: 2 s under PEG, no-slip and the convex model, with
// the scene's PD controllers and with the paper's inverse-dynamics drive (the
// gripper commanded at 100 m/s^2, no feedback on the fingers). Each keeps the
// ball (two contacts at the end, no failed solve) and its drift is the
// integrator's sag, below 2e-4 m in 2 s (0.14-0.16 mm measured), except the
// convex model under the inverse-dynamics drive: there the ball slides along
// the pads, its slip growing 2.5-fold every 50 ms from 0.1 s, and falls by 0.5 s
// (docs/experiments.md; an open item of issue 14), so that run is only
// required to finish; with the bound ||x_N|| <= kappa ||w_s|| relaxed to
// kappa = 2 ("convex-impulse-kappa2") it keeps the ball under that drive too.
// Each runs again with the contact drift correction
// (sim/contact_drift.hpp): under PD, PEG's and no-slip's ball then stays
// within 1e-6 m (two steps' sag; 1.5e-7 measured).
TEST(Experiment, ArmGraspBallQuick) {
  TempDir tmp;
  const fs::path dir = tmp.path / "ag";
  ASSERT_EQ(run("experiment arm-grasp-ball --quick --out " + dir.string()), 0);
  const std::vector<Row> summary = read_csv(dir / "summary.csv");
  ASSERT_EQ(summary.size(), 16u);
  for (const Row& r : summary) {
    SCOPED_TRACE(r.at("model") + " " + r.at("control") + " " + r.at("drift_correction"));
    EXPECT_EQ(r.at("status"), "ok");
    EXPECT_EQ(number(r, "steps"), 2000.0);
    if (r.at("model") == "convex-impulse" && r.at("control") == "inverse-dynamics") continue;
    EXPECT_EQ(number(r, "contacts_end"), 2.0);
    EXPECT_EQ(number(r, "solver_failures"), 0.0);
    EXPECT_LT(number(r, "drift_max"), 2e-4);
    const bool exact = r.at("model") == "peg" || r.at("model") == "no-slip";
    if (r.at("drift_correction") == "on" && r.at("control") == "pd" && exact) {
      EXPECT_LT(number(r, "drift_max"), 1e-6);
    }
  }
  EXPECT_EQ(read_csv(dir / "drift.csv").size(), 16u * 200u);
  expect_pngs(dir, {"arm_grasp_ball.png"});
  expect_rerun_gives_the_same_bytes("arm-grasp-ball", dir, tmp.path / "again", 3);  // runs, summary, drift
}

// noslip-quadruped --quick: 1 s of the trot on flat and uneven ground under
// PEG and no-slip. PEG walks forward on both (0.1-0.2 m in the first second,
// the gait ramping in), upright, never overlapping beyond the step's
// rotation error (5e-5 m at the tiles' edges: PEG without position
// correction), with 1 to 46 contacts a step. No-slip on the tiles fails
// solves at the tile edges (the standard model's), but the energy bound
// holds its launches (it blew up at 0.82 s before the bound held trees'
// islands; docs/experiments.md): every run completes, the torso upright.
TEST(Experiment, NoslipQuadrupedQuick) {
  TempDir tmp;
  const fs::path dir = tmp.path / "nq";
  ASSERT_EQ(run("experiment noslip-quadruped --quick --out " + dir.string()), 0);
  const std::vector<Row> summary = read_csv(dir / "summary.csv");
  ASSERT_EQ(summary.size(), 6u);  // 2 terrains x (peg, no-slip, no-slip-peg)
  for (const Row& r : summary) {
    SCOPED_TRACE(r.at("terrain") + " " + r.at("model"));
    EXPECT_EQ(r.at("status"), "ok");
    EXPECT_GT(number(r, "lowest_up"), 0.9);
    if (r.at("model") == "no-slip-peg") {
      EXPECT_EQ(number(r, "solver_failures"), 0.0);
    }
    if (r.at("model") != "peg") continue;
    EXPECT_EQ(number(r, "solver_failures"), 0.0);
    EXPECT_GT(number(r, "distance"), 0.05);
    EXPECT_GT(number(r, "lowest_up"), 0.95);
    EXPECT_GE(number(r, "contacts_min"), 1.0);
    EXPECT_LE(number(r, "contacts_max"), 46.0);
    EXPECT_LT(number(r, "max_penetration"), 1e-4);
  }
  for (const Row& r : read_csv(dir / "runs.csv")) {
    if (r.at("status") != "ok") {
      EXPECT_FALSE(r.at("reason").empty());
    }
  }
  expect_pngs(dir, {"noslip_quadruped.png"});
  expect_rerun_gives_the_same_bytes("noslip-quadruped", dir, tmp.path / "again", 3);  // runs, summary, walk
}

// viscous-quadruped --quick: 1 s of each run (the robot reaches the tiles
// after about 3 s: the quick runs on PEG's contacts only show that they run
// and never fail; the 10 s figures are in docs/experiments.md). Table III's pair, the same
// model solved by ppm and by Lemke, walks the same path on flat ground (each
// LCP solved to 1e-9: the torso samples agree to 1e-9 m), in the impulse form
// and in the acceleration form under RK4 (which walks within 1 cm of the
// impulse form: the two integrate one model, their difference O(h) over a
// gait whose feet touch down at slightly different steps); the paper's explicit
// law at mu_v = 1000 and 10000 (h mu_v five and fifty times a shin's mass)
// amplifies the feet's slip and is counted (overshoots; the energy bound
// scales those islands, failures), the semi-implicit law never is and never
// fails on flat ground; every run keeps the torso upright.
TEST(Experiment, ViscousQuadrupedQuick) {
  TempDir tmp;
  const fs::path dir = tmp.path / "vq";
  ASSERT_EQ(run("experiment viscous-quadruped --quick --out " + dir.string()), 0);
  const std::vector<Row> summary = read_csv(dir / "summary.csv");
  // 2 laws (explicit, rk4) x (flat, tiles, tiles on PEG's contacts) x (ppm, lemke) + 5 explicit + 6 implicit
  ASSERT_EQ(summary.size(), 23u);
  for (const Row& r : summary) {
    SCOPED_TRACE(r.at("terrain") + " " + r.at("law") + " " + r.at("mu_v") + " " + r.at("solver") + " " +
                 r.at("contact_model"));
    EXPECT_EQ(r.at("status"), "ok");
    if (r.at("contact_model") == "peg") {
      EXPECT_EQ(number(r, "solver_failures"), 0.0);
    }
    if (r.at("terrain") != "flat") continue;
    EXPECT_GT(number(r, "lowest_up"), 0.9);
    if (r.at("solver") == "lemke") {
      EXPECT_LT(number(r, "gap_to_ppm"), 1e-9);
    }
    const bool stiff = r.at("law") == "explicit" && number(r, "mu_v") >= 1000.0;
    EXPECT_EQ(number(r, "overshoots") > 0.0, stiff);
    if (!stiff) {
      EXPECT_EQ(number(r, "solver_failures"), 0.0);
    }
  }
  const auto flat_ppm = [&](const std::string& law) {
    for (const Row& r : summary)
      if (r.at("terrain") == "flat" && r.at("law") == law && r.at("solver") == "ppm" && number(r, "mu_v") == 10.0 &&
          r.at("contact_model") == "standard")
        return number(r, "distance");
    ADD_FAILURE() << "no flat ppm row for " << law;
    return 0.0;
  };
  EXPECT_GT(flat_ppm("rk4"), 0.05);
  EXPECT_NEAR(flat_ppm("rk4"), flat_ppm("explicit"), 0.01);
  expect_pngs(dir, {"viscous_quadruped.png"});
  expect_rerun_gives_the_same_bytes("viscous-quadruped", dir, tmp.path / "again", 3);  // runs, summary, walk
}

TEST(Experiment, UnknownNameIsAnErrorListingTheExperiments) {
  const std::string cmd = std::string(PEGSIM_CLI) + " experiment nosuch 2>&1";
  FILE* pipe = popen(cmd.c_str(), "r");
  std::string text;
  char buf[512];
  while (std::fgets(buf, sizeof buf, pipe)) text += buf;
  EXPECT_NE(pclose(pipe), 0);
  EXPECT_NE(text.find("unknown experiment 'nosuch'"), std::string::npos) << text;
  EXPECT_NE(text.find("box-of-polygons"), std::string::npos) << text;
}

}  // namespace
