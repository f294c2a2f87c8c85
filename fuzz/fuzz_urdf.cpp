// libFuzzer harness: URDF text -> load_urdf_string (io/urdf.hpp) -> the robot
// in a model above a ground box (add_tree, sim/tree_stepping.hpp) -> a few
// steps. The source is named inside data/robots/, so a collision mesh's
// relative path resolves as for the shipped robots (meshes/wedge.obj).
// Inputs of even length get a fixed base, odd ones a floating base, so both
// root joints are exercised. Accepted outcomes: the importer's
// std::runtime_error ("FILE: link 'name': what"), add_tree's
// std::invalid_argument (a moving link without mass, ...) and a
// std::runtime_error from World::step (a non-finite state is refused);
// anything else (a crash, a sanitizer report, std::bad_alloc, a hang caught
// by -timeout) is a finding. Robots of more than 20 links are imported but
// not stepped. Seeds: data/robots/*.urdf (scripts/fuzz.sh).
#include "io/scene.hpp"
#include "io/urdf.hpp"
#include "sim/tree_stepping.hpp"
#include "sim/world.hpp"

#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>

namespace {

const pegsim::Scene& ground() {
  static const pegsim::Scene scene = pegsim::load_scene_string(
      "options: {h: 0.002}\n"
      "bodies:\n  - {name: ground, static: true, shape: {box: [4, 4, 1]}, position: [0, 0, -1]}\n",
      "<fuzz-ground>");
  return scene;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string xml(reinterpret_cast<const char*>(data), size);
  pegsim::UrdfOptions options;
  options.fixed_base = size % 2 == 0;
  options.base.position = pegsim::Vec3(0, 0, 0.3);
  pegsim::UrdfRobot robot;
  try {
    robot = pegsim::load_urdf_string(xml, PEGSIM_ROBOTS_DIR "/fuzz.urdf", options);
  } catch (const std::runtime_error&) {
    return 0;
  }
  if (robot.tree.link_count() > 20) return 0;
  pegsim::Scene scene = ground();
  try {
    pegsim::add_tree(scene.model, scene.state, "robot", std::move(robot.tree), robot.shapes, pegsim::VecX(),
                     pegsim::VecX(), pegsim::MaterialId{}, std::move(robot.collides));
    scene.model.options.max_problem_size = 64;
    pegsim::World world(std::move(scene.model), std::move(scene.state));
    for (int k = 0; k < 3; ++k) world.step();
  } catch (const std::runtime_error&) {
  } catch (const std::invalid_argument&) {
  }
  return 0;
}
