// pegsim replay, end to end: a real recording made by `pegsim run --record`,
// turned into a page by `pegsim replay --out`, opened in headless Chromium
// (Debian's chromium, driven by viewer/test/probe.mjs through playwright-core).
// The body transforms the page's three.js objects hold are compared with the
// recording as read_recording() reads it, an independent path from the page's
// float32 base64 data. The screenshot stays in build/viewer-test/ (replay-3d.png,
// replay-2d.png, error.png).
#include "common/test_paths.hpp"

#include "io/recording.hpp"

#include "cli_runner.hpp"

#include <gtest/gtest.h>

#include <array>
#include <cmath>
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

Output pegsim(const std::string& args) { return run_shell(std::string(PEGSIM_CLI) + " " + args); }

const std::string kScenes = PEGSIM_SCENES_DIR;
const fs::path kViewer = fs::path(PEGSIM_SCENES_DIR) / ".." / "viewer";
const fs::path kArtifacts = fs::path(PEGSIM_CLI).parent_path() / "viewer-test";

// Why the browser tests cannot run here; empty when they can.
std::string browser_missing() {
  if (!fs::exists("/usr/bin/chromium") && !std::getenv("PEGSIM_CHROMIUM"))
    return "no /usr/bin/chromium (Debian package chromium; scripts/setup.sh installs it)";
  if (!fs::exists(kViewer / "node_modules" / "playwright-core")) return "no viewer/node_modules (run npm ci in viewer/)";
  if (!fs::exists(fs::path(PEGSIM_CLI).parent_path() / "viewer" / "pegsim-viewer.js"))
    return "the viewer bundle was not built (needs node and npm ci in viewer/)";
  return "";
}

Output probe(const std::string& mode, const fs::path& page, const fs::path& outdir) {
  return run_shell("node " + (kViewer / "test" / "probe.mjs").string() + " " + mode + " " + page.string() + " " +
               outdir.string());
}

// probe.txt: "pose ROW BODY m0..m15" lines (three.js matrixWorld, column-major)
// and "key value" lines.
struct ProbeResult {
  std::map<std::pair<int, int>, std::vector<double>> pose;
  std::map<std::string, std::string> value;
};

ProbeResult read_probe(const fs::path& file) {
  ProbeResult r;
  std::ifstream in(file);
  for (std::string line; std::getline(in, line);) {
    std::istringstream s(line);
    std::string key;
    s >> key;
    if (key == "pose") {
      int row = 0, body = 0;
      s >> row >> body;
      std::vector<double> m(16);
      for (double& x : m) s >> x;
      r.pose[{row, body}] = m;
    } else {
      std::string rest;
      std::getline(s >> std::ws, rest);
      r.value[key] = rest;
    }
  }
  return r;
}

// The page's matrix of body b at row k against the recorded pose. The page
// stores poses as float32: a coordinate is off by at most half a float32 ulp
// (6e-8 relative); 2.5e-7 relative leaves a factor 4. The rotation is built by
// three.js from the four float32-rounded quaternion components (each off by
// <= 6e-8): matrix entries, sums of products of two components, are off by
// < 5e-7; 1e-6 bounds that.
void expect_pose(const pegsim::Recording& rec, const ProbeResult& p, int row, std::size_t b) {
  const auto it = p.pose.find({row, static_cast<int>(b)});
  ASSERT_NE(it, p.pose.end()) << "no pose of body " << b << " at row " << row;
  const std::vector<double>& m = it->second;
  const pegsim::RecordedStep& s = rec.steps[static_cast<std::size_t>(row)];
  for (int a = 0; a < 3; ++a)
    EXPECT_NEAR(m[12 + a], s.position[b][a], 2.5e-7 * std::max(1.0, std::abs(s.position[b][a])))
        << rec.body_names[b] << " row " << row << " axis " << a;
  const pegsim::Mat3 R = s.orientation[b].normalized().toRotationMatrix();
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j)
      EXPECT_NEAR(m[4 * j + i], R(i, j), 1e-6) << rec.body_names[b] << " row " << row << " R(" << i << "," << j << ")";
}

void check_scene(const std::string& scene, const std::string& name) {
  if (const std::string why = browser_missing(); !why.empty()) GTEST_SKIP() << why;
  fs::create_directories(kArtifacts);
  const fs::path h5 = kArtifacts / (name + ".h5"), page = kArtifacts / (name + ".html");
  const fs::path out = kArtifacts / name;
  Output o = pegsim("run " + kScenes + "/" + scene + " --steps 120 --quiet --record " + h5.string());
  ASSERT_EQ(o.status, 0) << o.text;
  o = pegsim("replay " + h5.string() + " --out " + page.string());
  ASSERT_EQ(o.status, 0) << o.text;
  o = probe("check", page, out);
  ASSERT_EQ(o.status, 0) << o.text;
  const ProbeResult p = read_probe(out / "probe.txt");
  const pegsim::Recording rec = pegsim::read_recording(h5.string());
  const int rows = static_cast<int>(rec.steps.size());
  ASSERT_EQ(p.value.at("rows"), std::to_string(rows));

  // bodies where the recording puts them, at row 0 and after the slider moved
  const int target = 2 * (rows - 1) / 3;
  for (const int row : {0, target})
    for (std::size_t b = 0; b < rec.body_names.size(); ++b) expect_pose(rec, p, row, b);
  // the slider really moved something
  bool moved = false;
  for (std::size_t b = 0; b < rec.body_names.size(); ++b)
    moved = moved || (rec.steps[static_cast<std::size_t>(target)].position[b] - rec.steps[0].position[b]).norm() > 1e-3;
  EXPECT_TRUE(moved) << "choose a scene whose bodies move within 120 steps";
  // and turned (both scenes do), so the rotation check means something
  bool turned = false;
  for (std::size_t b = 0; b < rec.body_names.size(); ++b)
    turned = turned || rec.steps[static_cast<std::size_t>(target)].orientation[b].angularDistance(rec.steps[0].orientation[b]) > 1e-3;
  EXPECT_TRUE(turned) << "choose a scene whose bodies rotate within 120 steps";
  if (rec.dimension == 2) {
    for (const auto& [key, m] : p.pose) EXPECT_EQ(m[14], 0.0) << "2D body " << key.second << " off the plane";
  }

  EXPECT_EQ(p.value.at("contacts_drawn"), std::to_string(target) + " " +
                                              std::to_string(rec.steps[static_cast<std::size_t>(target)].contacts.size()));
  EXPECT_EQ(p.value.at("after_forward"), std::to_string(target + 1));
  EXPECT_EQ(p.value.at("toggles"), rec.joints.empty() ? "contacts|bounding boxes" : "contacts|bounding boxes|joints");
  EXPECT_EQ(p.value.at("joints_drawn"), std::to_string(rec.joints.size()));
  for (const char* plot : {"contacts", "constraints U / I / X", "solver iterations", "solver residuals", "energy",
                           "linear momentum", "largest penetration"})
    EXPECT_NE(p.value.at("plots").find(plot), std::string::npos) << "no plot '" << plot << "'";
  // a click three quarters along the plot's time axis: row 3/4 (rows - 1), give
  // or take the one row a pixel column can span
  EXPECT_NEAR(std::stod(p.value.at("plot_click")), 0.75 * (rows - 1), 1.0);

  const fs::path shot = out / "replay.png";
  ASSERT_TRUE(fs::exists(shot));
  EXPECT_GT(fs::file_size(shot), 10000u) << "a blank screenshot?";
  fs::copy_file(shot, kArtifacts / ("replay-" + name + ".png"), fs::copy_options::overwrite_existing);
}

TEST(ReplayBrowser, BlockOnBlock3dBodiesFollowTheRecordingAndTheSlider) { check_scene("block-on-block.yaml", "3d"); }

TEST(ReplayBrowser, RotationOverlap2dDrawnInThePlane) { check_scene("rotation-overlap.yaml", "2d"); }

// joints drawn (axis, zero direction, anchor-to-anchor) and their plots
TEST(ReplayBrowser, PowerballArmDrawsItsJoints) { check_scene("powerball-arm.yaml", "joints"); }

TEST(ReplayBrowser, TruncatedPageShowsAClearMessage) {
  if (const std::string why = browser_missing(); !why.empty()) GTEST_SKIP() << why;
  fs::create_directories(kArtifacts);
  const fs::path h5 = kArtifacts / "cut.h5", page = kArtifacts / "cut.html", bad = kArtifacts / "cut-bad.html";
  ASSERT_EQ(pegsim("run --steps 20 --quiet --record " + h5.string()).status, 0);
  ASSERT_EQ(pegsim("replay " + h5.string() + " --out " + page.string()).status, 0);
  std::ifstream in(page, std::ios::binary);
  const std::string text((std::istreambuf_iterator<char>(in)), {});
  const std::size_t data = text.find("id=\"pegsim-data\"");
  ASSERT_NE(data, std::string::npos);
  std::ofstream(bad, std::ios::binary) << text.substr(0, data + (text.size() - data) / 2);  // cut inside the data
  const Output o = probe("error", bad, kArtifacts / "error");
  ASSERT_EQ(o.status, 0) << o.text;
  EXPECT_NE(o.text.find("truncated or malformed"), std::string::npos) << o.text;
}

// The page's decoder alone, under node (viewer/test/data.test.mjs): damaged
// data is refused with the field named.
TEST(ReplayPageData, DecoderRefusesDamagedDataNamingTheField) {
  if (run_shell("node --version").status != 0) GTEST_SKIP() << "no node (scripts/setup.sh installs nodejs)";
  const Output o = run_shell("node --test " + (kViewer / "test" / "data.test.mjs").string());
  EXPECT_EQ(o.status, 0) << o.text;
  EXPECT_NE(o.text.find("# fail 0"), std::string::npos) << o.text;
}

TEST(ReplayCli, TruncatedRecordingFailsNamingTheFile) {
  const fs::path dir = fs::temp_directory_path();
  const fs::path h5 = dir / "pegsim_replay_full.h5", cut = dir / "pegsim_replay_cut.h5";
  ASSERT_EQ(pegsim("run --steps 40 --quiet --record " + h5.string()).status, 0);
  std::ifstream in(h5, std::ios::binary);
  const std::string bytes((std::istreambuf_iterator<char>(in)), {});
  std::ofstream(cut, std::ios::binary) << bytes.substr(0, bytes.size() / 2);
  const Output o = pegsim("replay " + cut.string() + " --out " + (dir / "pegsim_replay_cut.html").string());
  EXPECT_NE(o.status, 0);
  EXPECT_NE(o.text.find(cut.string()), std::string::npos) << o.text;
  EXPECT_NE(o.text.find("truncated"), std::string::npos) << o.text;
  EXPECT_FALSE(fs::exists(dir / "pegsim_replay_cut.html"));
  fs::remove(h5);
  fs::remove(cut);
}

TEST(ReplayCli, NotARecordingFails) {
  const fs::path path = fs::temp_directory_path() / "pegsim_replay_text.h5";
  std::ofstream(path) << "not a recording\n";
  const Output o = pegsim("replay " + path.string() + " --no-open");
  EXPECT_NE(o.status, 0);
  EXPECT_NE(o.text.find(path.string() + ": not an HDF5 file"), std::string::npos) << o.text;
  fs::remove(path);
}

TEST(ReplayCli, MissingBundleIsNamed) {
  const Output o = run_shell("PEGSIM_VIEWER_BUNDLE=/nonexistent/pegsim-viewer.js " + std::string(PEGSIM_CLI) +
                         " replay whatever.h5 --no-open");
  EXPECT_NE(o.status, 0);
  EXPECT_NE(o.text.find("viewer bundle is not built"), std::string::npos) << o.text;
}

}  // namespace
