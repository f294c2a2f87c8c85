// The one place a simulation hands its problems to a CaptureWriter: call it
// after each World::step(). A step solved per island poses one problem per
// island (World::last_problems()); each is captured with its island index.
#pragma once

#include "io/capture.hpp"
#include "sim/world.hpp"

namespace pegsim {

// Captures every island's problem of the last step when the step's index is a
// multiple of `every` (no contacts: nothing). Returns the problems written.
int capture_last_step(CaptureWriter& writer, const World& world, long every);

}  // namespace pegsim
