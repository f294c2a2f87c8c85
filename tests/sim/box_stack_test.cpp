// box-stack-3d: ten boxes dropped 15 m must land and stand (dvc3D Fig. 2).
#include "box_stack_check.hpp"

#include <gtest/gtest.h>

namespace pegsim {
namespace {

TEST(BoxStack3d, LandsWithoutOverlapAndStandsStill) {
  World world = test::load_world("box-stack-3d");
  test::expect_box_stack_stands(world);
}

}  // namespace
}  // namespace pegsim
