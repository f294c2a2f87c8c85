#include "option_checks.hpp"

#include "io/scene_limits.hpp"

#include <charconv>
#include <cmath>
#include <cstdio>
#include <stdexcept>

namespace pegsim::cli {

namespace {

using scene_limits::kMaxSteps;
using scene_limits::kMaxTimeStep;
using scene_limits::kMinTimeStep;

std::string g(double x) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%g", x);
  return buf;
}

// the whole text as a double (strtod's nan and inf included: they are reported, not read past)
bool read_double(const std::string& text, double& out) {
  const char* begin = text.c_str();
  char* end = nullptr;
  out = std::strtod(begin, &end);
  return !text.empty() && end == begin + text.size();
}

}  // namespace

CLI::Validator time_step() {
  const std::string range = "in [" + g(kMinTimeStep) + ", " + g(kMaxTimeStep) + "] seconds";
  return CLI::Validator(
      [range](std::string& text) -> std::string {
        double h = 0.0;
        if (!read_double(text, h) || !(h >= kMinTimeStep && h <= kMaxTimeStep))
          return "the time step must be a number " + range + ", got " + text;
        return {};
      },
      "H " + range);
}

CLI::Validator positive_finite(const std::string& what) {
  return CLI::Validator(
      [what](std::string& text) -> std::string {
        double x = 0.0;
        if (!read_double(text, x) || !(x > 0.0) || !std::isfinite(x))
          return "must be a positive finite number (" + what + "), got " + text;
        return {};
      },
      "> 0");
}

CLI::Validator open_interval(double low, double high) {
  const std::string range = "(" + g(low) + ", " + g(high) + ")";
  return CLI::Validator(
      [low, high, range](std::string& text) -> std::string {
        double x = 0.0;
        if (!read_double(text, x) || !(x > low && x < high)) return "must lie in " + range + ", got " + text;
        return {};
      },
      "in " + range);
}

CLI::Validator whole_number(long long low, long long high) {
  const std::string range = "from " + std::to_string(low) + " to " + std::to_string(high);
  return CLI::Validator(
      [low, high, range](std::string& text) -> std::string {
        long long x = 0;
        const char* end = text.data() + text.size();
        const auto [ptr, ec] = std::from_chars(text.data(), end, x);
        if (ec != std::errc() || ptr != end || x < low || x > high)
          return "must be a whole number " + range + ", got " + text;
        return {};
      },
      "INT " + range);
}

long steps_for(double seconds, double h, const std::string& source) {
  const double steps = std::round(seconds / h);
  if (!(steps <= kMaxSteps))
    throw std::invalid_argument(source + " " + g(seconds) + " s at h = " + g(h) + " s is " + g(seconds / h) +
                                " steps, more than the limit of " + g(kMaxSteps) + " (docs/cli.md, Numeric options)");
  if (!(steps >= 1.0))
    throw std::invalid_argument(source + " " + g(seconds) + " s is shorter than half a step (h = " + g(h) + " s)");
  return static_cast<long>(steps);
}

}  // namespace pegsim::cli
