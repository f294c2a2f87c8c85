// The one place a simulation hands its problems to a CaptureWriter: call it
// after each World::step(). It reads World::last_problem(); when the step is
// solved per island (several problems a step), only this function changes.
#pragma once

#include "io/capture.hpp"
#include "sim/world.hpp"

namespace pegsim {

// Captures the last step's problem when the step's index is a multiple of
// `every` and the step had one (no contacts: nothing). Returns the problems written.
int capture_last_step(CaptureWriter& writer, const World& world, long every);

}  // namespace pegsim
