// The pegsim command line, run as a user would: separate processes.
#include "common/test_paths.hpp"

#include "cli_runner.hpp"

#include <gtest/gtest.h>

#include <array>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>

namespace {

using namespace pegsim::test;  // cli_runner.hpp

const std::string kScenes = PEGSIM_SCENES_DIR;

TEST(Cli, RunsTheBuiltInSceneAndPrintsTheSummary) {
  const Output o = run_cli("run --steps 50");
  ASSERT_EQ(o.status, 0) << o.text;
  for (const char* field : {"steps", "contacts per step", "solver iterations", "failures", "largest penetration",
                            "energy", "momentum", "time per step", "narrowphase", "solver"})
    EXPECT_NE(o.text.find(field), std::string::npos) << "summary lacks '" << field << "':\n" << o.text;
}

TEST(Cli, RecordingsFromTwoProcessesAreByteIdentical) {
  const auto dir = std::filesystem::temp_directory_path();
  const auto a = dir / "pegsim_cli_a.h5", b = dir / "pegsim_cli_b.h5";
  for (const auto& path : {a, b}) {
    const Output o = run_cli("run " + kScenes + "/box-stack-2d.yaml --steps 400 --quiet --record " + path.string());
    ASSERT_EQ(o.status, 0) << o.text;
  }
  const std::string x = slurp(a), y = slurp(b);
  ASSERT_GT(x.size(), 1000u);
  EXPECT_TRUE(x == y);
  std::filesystem::remove(a);
  std::filesystem::remove(b);
}

TEST(Cli, MalformedSceneFailsWithFileLineAndField) {
  const auto path = std::filesystem::temp_directory_path() / "pegsim_cli_bad.yaml";
  std::ofstream(path) << "options:\n  dimension: 3\n  h: -0.01\nbodies: []\n";
  const Output o = run_cli("run " + path.string());
  EXPECT_NE(o.status, 0);
  EXPECT_NE(o.text.find(path.string() + ":3"), std::string::npos) << o.text;
  EXPECT_NE(o.text.find("h"), std::string::npos) << o.text;
  std::filesystem::remove(path);
}

TEST(Cli, UnknownSolverIsAnErrorNotACrash) {
  const Output o = run_cli("run --steps 1 --solver nosuch");
  EXPECT_NE(o.status, 0);
  EXPECT_NE(o.text.find("unknown solver 'nosuch'"), std::string::npos) << o.text;
}

TEST(Cli, NewtonSolversAreSelectableByName) {
  for (const char* solver : {"path", "fischer-newton", "minmap-newton"}) {
    const Output o = run_cli(std::string("run --steps 3 --quiet --solver ") + solver);
    EXPECT_EQ(o.status, 0) << solver << ": " << o.text;
  }
}

// The chain escalates PGS's misses on the 1000:1 plank and says so: a
// counted warning naming step, solvers and bodies, and the summary's counts.
TEST(Cli, SolverChainEscalatesAndCounts) {
  const Output o = run_cli("run " + kScenes + "/mass-ratio-chain.yaml --steps 10 --solver-chain pgs,path,lemke");
  EXPECT_EQ(o.status, 0) << o.text;
  EXPECT_NE(o.text.find("warning: step 0 (t = 0.005 s): bodies {light1, light2, light3, plank}: pgs max-iterations"),
            std::string::npos) << o.text;
  EXPECT_NE(o.text.find("-> path solved"), std::string::npos) << o.text;
  EXPECT_NE(o.text.find("solver chain          pgs, path, lemke: escalations"), std::string::npos) << o.text;
  EXPECT_NE(o.text.find("failures 0"), std::string::npos) << o.text;
  const Output bad = run_cli("run --steps 1 --solver-chain pgs,nosuch");
  EXPECT_NE(bad.status, 0);
  EXPECT_NE(bad.text.find("unknown solver 'nosuch'"), std::string::npos) << bad.text;
}

TEST(Cli, BenchTakesAContactModelAndSolverList) {
  const Output o = run_cli("bench " + kScenes + "/triangle-drop.yaml --model peg --steps 5 --solvers lemke,path");
  EXPECT_EQ(o.status, 0) << o.text;
  EXPECT_NE(o.text.find(" path "), std::string::npos) << o.text;
  EXPECT_NE(o.text.find("\npeg "), std::string::npos) << o.text;
  const Output bad = run_cli("bench --steps 1 --model nosuch");
  EXPECT_NE(bad.status, 0);
  EXPECT_NE(bad.text.find("unknown contact model 'nosuch'"), std::string::npos) << bad.text;
}

TEST(Cli, RunsTheCorrectiveModelIn2dAnd3d) {
  for (const char* scene : {"box-stack-2d", "block-on-block"}) {
    const Output o = run_cli("run " + kScenes + "/" + scene + ".yaml --model corrective --steps 200");
    ASSERT_EQ(o.status, 0) << o.text;
    EXPECT_NE(o.text.find("corrective model"), std::string::npos) << o.text;
  }
}

}  // namespace
