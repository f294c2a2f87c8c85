// An impulse-stepper run recorded like any run (io/recording.hpp): fixed
// output rows, the events between them counted in /steps/impulse_events
// (summed over unrecorded steps too), read back with the stepper's name, and
// a replay from the recorded state matching the run.
#include "io/recording.hpp"
#include "sim/scene_runner.hpp"

#include <gtest/gtest.h>

#include <filesystem>

namespace pegsim {
namespace {

TEST(ImpulseRecording, EventsBetweenRowsAreCountedAndTheRunReplays) {
  Scene scene = load_scene_file(test::scene_path("billiards-break"));
  const std::string path = (std::filesystem::temp_directory_path() / "impulse_billiards.h5").string();
  World world(scene.model, scene.state);
  long events = 0, collisions = 0;
  {
    Recorder recorder(path, world.model(), world.state(), 4, scene.text);  // every 4th step
    world.add_observer(&recorder);
    for (int i = 0; i < 120; ++i) {
      const StepReport& r = world.step();
      events += r.impulse.events;
      collisions += r.impulse.collisions;
    }
    recorder.close();
  }
  const Recording rec = read_recording(path);
  EXPECT_EQ(rec.stepper, "impulse");
  ASSERT_EQ(rec.steps.size(), 31u);  // the initial row and steps 4, 8, ..., 120
  long recorded_events = 0, recorded_collisions = 0;
  for (const RecordedStep& s : rec.steps) {
    ASSERT_EQ(s.impulse_events.size(), 4u);
    recorded_events += s.impulse_events[0];
    recorded_collisions += s.impulse_events[1];
  }
  EXPECT_GT(collisions, 15);
  EXPECT_EQ(recorded_events, events);
  EXPECT_EQ(recorded_collisions, collisions);
  // the last row is the world's state, bit for bit
  for (std::size_t b = 0; b < world.state().bodies.size(); ++b)
    EXPECT_EQ(rec.steps.back().position[b], world.state().bodies[b].pose.position);
  std::filesystem::remove(path);
}

}  // namespace
}  // namespace pegsim
