// pegsim replay: a recording as one self-contained HTML page (the viewer of
// viewer/, three.js, inlined with the data), written to --out or to a
// temporary file that is then opened with xdg-open when there is one.
#include "commands.hpp"
#include "replay_page.hpp"

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <sstream>
#include <stdexcept>
#include <unistd.h>

namespace pegsim::cli {
namespace {

namespace fs = std::filesystem;

// The viewer bundle: $PEGSIM_VIEWER_BUNDLE, else viewer/pegsim-viewer.js next
// to the pegsim binary (where the build's pegsim_viewer target writes it).
fs::path bundle_path() {
  if (const char* env = std::getenv("PEGSIM_VIEWER_BUNDLE"); env && *env) return env;
  std::error_code ec;
  const fs::path exe = fs::read_symlink("/proc/self/exe", ec);
  return (ec ? fs::current_path() : exe.parent_path()) / "viewer" / "pegsim-viewer.js";
}

std::string read_bundle() {
  const fs::path path = bundle_path();
  std::ifstream in(path, std::ios::binary);
  if (!in)
    throw std::runtime_error("the viewer bundle is not built (no " + path.string() +
                             "): run `npm ci` in viewer/ and rebuild (scripts/setup.sh does both), "
                             "or point PEGSIM_VIEWER_BUNDLE at a bundle built by `node viewer/build.mjs`");
  std::string text((std::istreambuf_iterator<char>(in)), {});
  if (text.size() < 1000) throw std::runtime_error(path.string() + ": the viewer bundle is truncated");
  return text;
}

bool on_path(const std::string& program) {
  const char* path = std::getenv("PATH");
  if (!path) return false;
  std::stringstream dirs(path);
  for (std::string dir; std::getline(dirs, dir, ':');)
    if (!dir.empty() && access((fs::path(dir) / program).c_str(), X_OK) == 0) return true;
  return false;
}

std::string shell_quoted(const std::string& s) {
  std::string out = "'";
  for (const char c : s) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

}  // namespace

int replay_command(const ReplayArgs& args) {
  const std::string bundle = read_bundle();  // first: no point reading a large recording without it
  const ReplayData data = replay_data(args.recording, args.max_contacts);
  if (!data.complete) std::fprintf(stderr, "pegsim replay: warning: %s; replaying those\n", data.note.c_str());
  const std::string page = replay_page(fs::path(args.recording).filename().string(), bundle, data.json);

  fs::path out = args.out;
  if (out.empty()) out = fs::temp_directory_path() / ("pegsim-replay-" + fs::path(args.recording).stem().string() + ".html");
  {
    std::ofstream file(out, std::ios::binary | std::ios::trunc);
    if (!file) throw std::runtime_error(out.string() + ": cannot write the page");
    file.write(page.data(), static_cast<std::streamsize>(page.size()));
    if (!file) throw std::runtime_error(out.string() + ": write failed");
  }
  std::printf("pegsim replay: %s: %zu rows, %zu bodies, %zu contacts%s\n", args.recording.c_str(), data.rows,
              data.bodies, data.contacts, data.contacts_included ? "" : " (left out: more than --max-contacts)");
  std::printf("page                  %s (%.1f MB)\n", out.string().c_str(), static_cast<double>(page.size()) / 1e6);

  const bool open = args.out.empty() && !args.no_open;
  if (open && on_path("xdg-open")) {
    const std::string cmd = "xdg-open " + shell_quoted(out.string()) + " >/dev/null 2>&1 &";
    if (std::system(cmd.c_str()) != 0) std::fprintf(stderr, "pegsim replay: xdg-open failed; open the page by hand\n");
  } else if (open) {
    std::printf("no xdg-open here: open the page in a browser\n");
  }
  return 0;
}

}  // namespace pegsim::cli
