// Hostile values of the command line's numeric options (issue 17): each is an
// error naming the option and the value, with a non-zero exit status; none is
// silently ignored or turned into a run of no steps.
#include "common/test_paths.hpp"

#include "cli_runner.hpp"

#include <gtest/gtest.h>

#include <string>
#include <utility>
#include <vector>

namespace {

using namespace pegsim::test;  // cli_runner.hpp

const std::string kScenes = PEGSIM_SCENES_DIR;

// `pegsim ARGS` fails (before any step) with a message holding every part
void expect_refused(const std::string& args, std::initializer_list<std::string> parts) {
  const Output o = run_cli(args);
  EXPECT_NE(o.status, 0) << args << ":\n" << o.text;
  for (const std::string& part : parts)
    EXPECT_NE(o.text.find(part), std::string::npos) << args << ": lacks '" << part << "':\n" << o.text;
  EXPECT_EQ(o.text.find("steps  "), std::string::npos) << args << ": it ran:\n" << o.text;
}

TEST(CliOptions, RunRefusesBadNumbers) {
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"--h -1", "--h: the time step must be a number in [1e-09, 1] seconds, got -1"},
      {"--h nan", "--h: the time step must be a number in [1e-09, 1] seconds, got nan"},
      {"--h 0", "--h: the time step must be a number in [1e-09, 1] seconds, got 0"},
      {"--h inf", "got inf"},
      {"--h 1e-300 --steps 3", "--h: the time step must be a number in [1e-09, 1] seconds, got 1e-300"},
      {"--h 1e300 --steps 3", "got 1e300"},
      {"--h 0.005x", "got 0.005x"},
      {"--time nan", "--time: must be a positive finite number (seconds), got nan"},
      {"--time -2", "--time: must be a positive finite number (seconds), got -2"},
      {"--time inf", "--time: must be a positive finite number (seconds), got inf"},
      {"--steps -1", "--steps: must be a whole number from 0 to 1000000000, got -1"},
      {"--steps 1e3", "--steps: must be a whole number from 0 to 1000000000, got 1e3"},
      {"--steps 2.5", "--steps: must be a whole number"},
      {"--steps 99999999999999999999", "--steps: must be a whole number"},
      {"--relaxation nan", "--relaxation: must lie in (0, 2), got nan"},
      {"--relaxation -1", "--relaxation: must lie in (0, 2), got -1"},
      {"--relaxation 2", "--relaxation: must lie in (0, 2), got 2"},
      // exited 105 with "Value 0 not in range 0.000000 to 1.797e308"
      {"--record-every 0", "--record-every: must be a whole number from 1 to 2147483647, got 0"},
      {"--capture-every -3", "--capture-every: must be a whole number from 1 to 2147483647, got -3"},
  };
  for (const auto& [args, message] : cases) expect_refused("run " + args, {message});
}

// --time 1e300 overflowed the step count and ran 0 steps with exit 0
TEST(CliOptions, RunRefusesStepCountsOverTheLimit) {
  expect_refused("run --time 1e300", {"--time 1e+300 s at h = 0.005 s is 2e+302 steps, more than the limit of 1e+09"});
  expect_refused("run --time 1e-9", {"--time 1e-09 s is shorter than half a step (h = 0.005 s)"});
  expect_refused("run --h 1e-9", {"the scene's duration 10 s at h = 1e-09 s is 1e+10 steps, more than the limit"});
  // an accepted run does what it says
  const Output o = run_cli("run --time 0.05 --h 0.01 --quiet");
  EXPECT_EQ(o.status, 0) << o.text;
  EXPECT_NE(o.text.find("steps                 5\n"), std::string::npos) << o.text;
}

TEST(CliOptions, OtherCommandsRefuseBadNumbers) {
  expect_refused("bench --steps 0", {"--steps: must be a whole number from 1 to 1000000000, got 0"});
  expect_refused("bench --h nan", {"--h: the time step must be a number in [1e-09, 1] seconds, got nan"});
  expect_refused("solve-bench nosuch.h5 --tolerance nan", {"--tolerance: must be a positive finite number", "got nan"});
  expect_refused("solve-bench nosuch.h5 --tolerance -1", {"--tolerance: must be a positive finite number", "got -1"});
  const std::string out = " --out " + (std::filesystem::temp_directory_path() / "pegsim_opts.h5").string();
  expect_refused("gen-problems --count 0" + out, {"--count: must be a whole number from 1 to 100000, got 0"});
  expect_refused("gen-problems --contacts 5000" + out, {"--contacts: must be a whole number from 1 to 2000, got 5000"});
  expect_refused("gen-problems --friction-directions 65" + out,
                 {"--friction-directions: must be a whole number from 2 to 64, got 65"});
  expect_refused("gen-problems --contacts 100 --friction-directions 64" + out,
                 {"--contacts 100 with --friction-directions 64 is 6600 rows, over the limit of 4000"});
  expect_refused("gen-problems --seed -1" + out, {"--seed: must be a whole number", "got -1"});
  expect_refused("gen-problems --bodies 0" + out, {"--bodies: must be a whole number from 1 to 10000, got 0"});
  expect_refused("replay nosuch.h5 --max-contacts -1", {"--max-contacts: must be a whole number", "got -1"});
  expect_refused("experiment free-fall --capture-every 0", {"--capture-every: must be a whole number from 1", "got 0"});
  expect_refused("experiment free-fall --workers 0", {"--workers: must be a whole number from 1 to 1024, got 0"});
  expect_refused("experiment free-fall --run -1", {"--run: must be a whole number from 0", "got -1"});
  // a run index past the experiment's runs wrote header-only files with exit 0
  const std::string dir = fresh_dir("pegsim_opts_exp").string();
  expect_refused("experiment triangle-drop --quick --no-plots --run 99999 --out " + dir,
                 {"--run 99999: experiment triangle-drop has 9 runs (0 .. 8) with --quick"});
}

// A scene's own hostile values reach the user as FILE:LINE: field through `run`.
TEST(CliOptions, RunReportsSceneLimitsWithFileAndLine) {
  const auto path = std::filesystem::temp_directory_path() / "pegsim_cli_limits.yaml";
  std::ofstream(path) << "options: {dimension: 3, friction: 0.5, friction_directions: 1000000000}\n"
                         "bodies:\n  - {shape: {box: [1, 1, 1]}, mass: 1}\n";
  expect_refused("run " + path.string(), {path.string() + ":1: options.friction_directions: must be at most 64"});
  std::ofstream(path) << "options: {dimension: 3}\nbodies:\n  - {shape: {box: [1, 1, 1]}, mass: 1e-320}\n";
  expect_refused("run " + path.string(), {path.string() + ":3: bodies[0].mass: the mass must lie in"});
  std::filesystem::remove(path);
}

// A state that turns non-finite during a run (here a controller's target,
// log(3.5 - step), is NaN from step 4) stops the run at that step: the
// summary of the steps before it, then the error naming the scene, the step
// and the body, exit 1; never a summary of nan with exit 0.
TEST(CliOptions, RunStopsAtANonFiniteStateNamingSceneStepAndBody) {
  const auto path = std::filesystem::temp_directory_path() / "pegsim_cli_nan.yaml";
  std::ofstream(path) << "options: {solver: path, h: 0.005, duration: 0.1}\n"
                         "bodies:\n  - {name: arm, shape: {box: [0.5, 0.05, 0.05]}, mass: 1, position: [0.25, 0, 1]}\n"
                         "joints:\n  - {name: pivot, type: revolute, bodies: [world, arm], anchor: [0, 0, 1], "
                         "axis: [0, 1, 0]}\n"
                         "controllers:\n  - {joint: pivot, kp: 50, kd: 5, target: {expression: 'log(3.5 - step)'}}\n";
  const Output o = run_cli("run " + path.string() + " --quiet");
  EXPECT_NE(o.status, 0) << o.text;
  EXPECT_NE(o.text.find("steps                 4\n"), std::string::npos) << o.text;
  EXPECT_NE(o.text.find(path.string() + ": step 4 (t = 0.02"), std::string::npos) << o.text;
  EXPECT_NE(o.text.find("body 'arm' has a non-finite pose or velocity"), std::string::npos) << o.text;
  std::filesystem::remove(path);
}

}  // namespace
