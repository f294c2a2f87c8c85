// The recording commands on damaged and interrupted files, as a user meets
// them (docs/reliability.md, "Faults"): `pegsim run --record` killed mid-run
// (SIGKILL) and then `replay` / `plot` of its file; a truncated file; a file
// size limit reached while recording (a full disk's error, without root).
#include "common/test_paths.hpp"

#include "cli_runner.hpp"

#include <gtest/gtest.h>

#include <chrono>
#include <csignal>
#include <filesystem>
#include <fstream>
#include <string>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

namespace pegsim::test {
namespace {

namespace fs = std::filesystem;

// replay needs a viewer bundle (apps/replay_command.cpp reads it first); its
// contents do not matter here, only that one of at least 1000 bytes exists
std::string with_bundle(const fs::path& dir) {
  const fs::path bundle = dir / "bundle.js";
  std::ofstream(bundle) << "// stand-in bundle\n" << std::string(1200, ' ') << '\n';
  return "PEGSIM_VIEWER_BUNDLE=" + bundle.string() + " ";
}

// `pegsim run SCENE --record FILE` of a run far longer than the test, killed
// with SIGKILL once FILE has passed `bytes` (a few checkpoints written)
void run_and_kill(const std::string& scene, const fs::path& file, std::uintmax_t bytes) {
  const pid_t child = fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    execl(PEGSIM_CLI.c_str(), PEGSIM_CLI.c_str(), "run", scene.c_str(), "--steps", "10000000", "--record", file.c_str(), "--quiet",
          static_cast<char*>(nullptr));
    _exit(127);
  }
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
  std::error_code ec;
  while (std::chrono::steady_clock::now() < deadline && !(fs::file_size(file, ec) > bytes && !ec))
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  kill(child, SIGKILL);
  int status = 0;
  waitpid(child, &status, 0);
  ASSERT_TRUE(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL) << "the run ended by itself";
}

TEST(RecordingFaultsCli, KilledRunReplaysAndPlotsItsCompleteRows) {
  const fs::path dir = fresh_dir("pegsim_cli_killed");
  const fs::path file = dir / "killed.h5";
  run_and_kill(PEGSIM_SCENES_DIR + "/box-stack-2d.yaml", file, 2000000);  // about 1800 rows

  Output o = run_shell(with_bundle(dir) + PEGSIM_CLI + " replay " + file.string() + " --out " + (dir / "page.html").string());
  ASSERT_EQ(o.status, 0) << o.text;
  const std::string note = file.string() + ": incomplete recording: ";
  EXPECT_NE(o.text.find("pegsim replay: warning: " + note), std::string::npos) << o.text;
  EXPECT_NE(o.text.find("replaying those"), std::string::npos) << o.text;
  EXPECT_TRUE(fs::exists(dir / "page.html"));
  // the rows the warning counts are the rows the page holds
  const std::size_t at = o.text.find(note) + note.size();
  const std::string rows = o.text.substr(at, o.text.find(' ', at) - at);
  EXPECT_NE(o.text.find("killed.h5: " + rows + " rows"), std::string::npos) << o.text;
  EXPECT_GE(std::stoi(rows), 257) << o.text;  // at least a checkpoint's rows past row 0

  o = run_cli("plot " + file.string() + " --out " + (dir / "plots").string());
  ASSERT_TRUE(o.status == 0 || o.text.find("matplotlib is missing") != std::string::npos) << o.text;
  EXPECT_NE(o.text.find("pegsim plot: warning: " + note + rows + " complete rows"), std::string::npos) << o.text;
  if (o.status == 0) {
    EXPECT_TRUE(fs::exists(dir / "plots" / "trajectories.png")) << o.text;
  }
}

TEST(RecordingFaultsCli, TruncatedFileGivesOneLineNamingIt) {
  const fs::path dir = fresh_dir("pegsim_cli_truncated");
  const fs::path whole = dir / "whole.h5", cut = dir / "cut.h5";
  ASSERT_EQ(run_cli("run " + PEGSIM_SCENES_DIR + "/box-stack-3d.yaml --steps 200 --quiet --record " + whole.string()).status, 0);
  const std::string bytes = slurp(whole);
  for (const std::size_t length : {std::size_t{1000}, bytes.size() / 2, bytes.size() - 10}) {
    std::ofstream(cut, std::ios::binary | std::ios::trunc) << bytes.substr(0, length);
    for (const std::string& command : {"replay " + cut.string() + " --out " + (dir / "p.html").string(),
                                      "plot " + cut.string() + " --out " + (dir / "plots").string()}) {
      const Output o = run_shell(with_bundle(dir) + PEGSIM_CLI + " " + command);
      EXPECT_NE(o.status, 0) << o.text;
      // exactly one line, the error naming the file; no HDF5 error stack or exit noise
      EXPECT_EQ(o.text.rfind("pegsim: error: " + cut.string() + ": ", 0), 0u) << o.text;
      EXPECT_EQ(o.text.find('\n'), o.text.size() - 1) << o.text;
    }
  }
}

TEST(RecordingFaultsCli, FileSizeLimitWhileRecordingNamesTheFile) {
  const fs::path dir = fresh_dir("pegsim_cli_full");
  const fs::path file = dir / "full.h5";
  // 64 KiB allowed (bash's ulimit -f counts 1024-byte blocks), SIGXFSZ
  // ignored: write() fails with EFBIG, as it fails with ENOSPC on a full disk
  const Output o = run_shell("bash -c \"ulimit -f 64; trap '' XFSZ; exec " + std::string(PEGSIM_CLI) + " run " +
                             PEGSIM_SCENES_DIR + "/box-stack-3d.yaml --steps 3000 --quiet --record " + file.string() + "\"");
  EXPECT_EQ(WEXITSTATUS(o.status), 1) << o.text;
  EXPECT_EQ(o.text.rfind("pegsim: error: " + file.string() + ": ", 0), 0u) << o.text;
  EXPECT_NE(o.text.find("File too large"), std::string::npos) << o.text;
  // the file: the rows up to its last checkpoint, or (when HDF5 had already
  // recorded an end of file past the limit) one line naming it
  const Output r = run_shell(with_bundle(dir) + PEGSIM_CLI + " replay " + file.string() + " --out " + (dir / "p.html").string());
  if (r.status == 0) {
    EXPECT_NE(r.text.find("incomplete recording"), std::string::npos) << r.text;
  } else {
    EXPECT_EQ(r.text.rfind("pegsim: error: " + file.string() + ": ", 0), 0u) << r.text;
  }
}

}  // namespace
}  // namespace pegsim::test
