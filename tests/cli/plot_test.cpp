// pegsim plot: PNG files from a recording; clear errors for a broken one.
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

namespace fs = std::filesystem;

TEST(Plot, WritesEveryPngOfAShortRecording) {
  const fs::path dir = fresh_dir("pegsim_plot_test");
  const fs::path rec = dir / "stack.h5";
  Output o = run_cli("run " PEGSIM_SCENES_DIR "/box-stack-2d.yaml --steps 80 --quiet --record " + rec.string());
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
  ASSERT_EQ(run_cli("run " PEGSIM_SCENES_DIR "/free-fall.yaml --steps 20 --quiet --record " + rec.string()).status, 0);
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

}  // namespace
