// Checks of the command line's numeric options (docs/cli.md, "Limits").
//
// Every numeric option is read through one of these CLI11 validators, so a
// value out of range, not a number (nan, inf, 1e3 for a count) or negative
// where a default is stood in for by a negative sentinel is an error that
// names the option ("--h: must be a positive finite number of seconds ...,
// got nan"), never a value silently ignored.
#pragma once

#include <CLI/CLI.hpp>

#include <string>

namespace pegsim::cli {

// The bounds are the scene loader's (io/scene_limits.hpp): a run's steps
// (--steps, or --time / h) at most kMaxSteps, h in [kMinTimeStep, kMaxTimeStep].

// A time step h in seconds.
CLI::Validator time_step();
// A finite number > 0 (seconds, a tolerance), `what` its unit for the message.
CLI::Validator positive_finite(const std::string& what);
// A finite number in the open interval (low, high).
CLI::Validator open_interval(double low, double high);
// A whole number in [low, high], written as one (no 1e3, no 2.5).
CLI::Validator whole_number(long long low, long long high);

// The number of steps of a run of `seconds` at time step h: throws
// std::invalid_argument naming `source` (--time, the scene's duration) when it
// is over kMaxSteps or rounds to no step at all.
long steps_for(double seconds, double h, const std::string& source);

}  // namespace pegsim::cli
