// pegsim plot: PNG files from a recording; clear errors for a broken one.
#include "common/test_paths.hpp"

#include "cli_runner.hpp"

#include <gtest/gtest.h>

#include <array>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>

#include <sys/wait.h>

namespace {

using namespace pegsim::test;  // cli_runner.hpp

namespace fs = std::filesystem;

TEST(Plot, WritesEveryPngOfAShortRecording) {
  const fs::path dir = fresh_dir("pegsim_plot_test");
  const fs::path rec = dir / "stack.h5";
  Output o = run_cli("run " + PEGSIM_SCENES_DIR + "/box-stack-2d.yaml --steps 80 --quiet --record " + rec.string());
  ASSERT_EQ(o.status, 0) << o.text;
  o = run_cli("plot " + rec.string() + " --out " + (dir / "plots").string());
  ASSERT_EQ(o.status, 0) << o.text;
  for (const char* name : {"energy_momentum.png", "contacts.png", "solver.png", "trajectories.png"}) {
    const std::string png = slurp(dir / "plots" / name);
    ASSERT_GT(png.size(), 1000u) << name << " missing or empty\n" << o.text;
    EXPECT_EQ(png.substr(0, 8), std::string("\x89PNG\r\n\x1a\n", 8)) << name << " is not a PNG";
  }
}

TEST(Plot, TruncatedOrForeignFilesGiveAClearError) {
  const fs::path dir = fresh_dir("pegsim_plot_bad");
  const fs::path rec = dir / "whole.h5";
  ASSERT_EQ(run_cli("run " + PEGSIM_SCENES_DIR + "/free-fall.yaml --steps 20 --quiet --record " + rec.string()).status, 0);
  const std::string bytes = slurp(rec);
  const fs::path truncated = dir / "truncated.h5";
  std::ofstream(truncated, std::ios::binary) << bytes.substr(0, bytes.size() / 2);
  Output o = run_cli("plot " + truncated.string() + " --out " + (dir / "p1").string());
  EXPECT_NE(o.status, 0);
  EXPECT_NE(o.text.find("pegsim: error: "), std::string::npos) << o.text;
  EXPECT_NE(o.text.find("truncated.h5"), std::string::npos) << "the message names the file:\n" << o.text;
  EXPECT_FALSE(fs::exists(dir / "p1" / "contacts.png"));

  const fs::path text = dir / "notes.h5";
  std::ofstream(text) << "not a recording\n";
  o = run_cli("plot " + text.string());
  EXPECT_NE(o.status, 0);
  EXPECT_NE(o.text.find("notes.h5"), std::string::npos) << o.text;

  o = run_cli("plot " + (dir / "absent.h5").string());
  EXPECT_NE(o.status, 0);
  EXPECT_NE(o.text.find("absent.h5"), std::string::npos) << o.text;
}


// docs/experiments.md's grasp-hold commands, shortened to the scene's 2 s: the
// recording's creep as scripts/plot_grasp_hold.py measures it is below the
// issue's 1e-6 m (tests/joints/grasp_hold_test.cpp checks the same in-process),
// and the figure is written.
TEST(Plot, GraspHoldCreepScript) {
  const fs::path dir = fresh_dir("pegsim_plot_grasp_hold");
  const fs::path rec = dir / "grasp-hold.h5";
  Output o = run_cli("run " + PEGSIM_SCENES_DIR + "/grasp-hold.yaml --quiet --record " + rec.string());
  ASSERT_EQ(o.status, 0) << o.text;
  std::string cmd = "/usr/bin/python3 " + PEGSIM_SCENES_DIR + "/../scripts/plot_grasp_hold.py ";  // appended piecewise (GCC 12 -Wrestrict)
  cmd += rec.string();
  cmd += ' ';
  cmd += (dir / "plots").string();
  o = run_shell(cmd);
  ASSERT_TRUE(o.status == 0 || WEXITSTATUS(o.status) == 3) << o.text;  // 3: no matplotlib, numbers still printed
  int lines = 0;
  for (const char* finger : {"finger_left", "finger_right"}) {
    const std::size_t at = o.text.find(std::string("creep in ") + finger);
    ASSERT_NE(at, std::string::npos) << o.text;
    const std::size_t max_at = o.text.find("max ", at);
    ASSERT_NE(max_at, std::string::npos) << o.text;
    EXPECT_LT(std::stod(o.text.substr(max_at + 4)), 1e-6) << o.text;
    ++lines;
  }
  EXPECT_EQ(lines, 2);
  if (o.status == 0) {
    const std::string png = slurp(dir / "plots" / "grasp_hold_creep.png");
    EXPECT_EQ(png.substr(0, 8), std::string("\x89PNG\r\n\x1a\n", 8));
  }
}

}  // namespace
