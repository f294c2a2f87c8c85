// Times one stage of the step into the report's profile (the stepper's pieces, sim/time_stepping.cpp).
#pragma once

#include "sim/step_report.hpp"

#include <chrono>

namespace pegsim {

class StageTimer {
 public:
  using Clock = std::chrono::steady_clock;
  StageTimer(StepProfile& profile, Stage stage) : profile_(profile), stage_(stage), start_(Clock::now()) {}
  ~StageTimer() { profile_[stage_] += std::chrono::duration<double>(Clock::now() - start_).count(); }
  StageTimer(const StageTimer&) = delete;
  StageTimer& operator=(const StageTimer&) = delete;

 private:
  StepProfile& profile_;
  Stage stage_;
  Clock::time_point start_;
};

}  // namespace pegsim
