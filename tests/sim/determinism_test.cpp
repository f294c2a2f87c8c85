// Same input, same output, bit for bit.
#include "io/recording.hpp"
#include "scene_runner.hpp"

#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>

namespace pegsim {
namespace {

std::string record(const std::string& scene, long steps, const std::string& path) {
  World world = test::load_world(scene);
  {
    Recorder recorder(path, world.model(), world.state());
    world.add_observer(&recorder);
    for (long i = 0; i < steps; ++i) world.step();
    recorder.close();
  }
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

TEST(Determinism, SameSceneTwiceGivesByteIdenticalRecordings) {
  const auto dir = std::filesystem::temp_directory_path();
  for (const char* scene : {"box-stack-3d", "box-stack-2d", "block-on-block"}) {
    const std::string a = record(scene, 500, (dir / "pegsim_det_a.h5").string());
    const std::string b = record(scene, 500, (dir / "pegsim_det_b.h5").string());
    ASSERT_GT(a.size(), 1000u) << scene;
    EXPECT_TRUE(a == b) << scene << ": recordings differ";
  }
  std::filesystem::remove(dir / "pegsim_det_a.h5");
  std::filesystem::remove(dir / "pegsim_det_b.h5");
}

}  // namespace
}  // namespace pegsim
