// What the seeded scene generators (random_pour.hpp, grasp_2d.hpp) share:
// numbers written so that they read back exactly, and uniform doubles drawn
// from a seed the same way on every standard library.
#pragma once

#include <cstdint>
#include <cstdio>
#include <random>
#include <string>

namespace pegsim::seeded {

inline std::string number(double v) {  // %.17g: round-trips exactly
  char buf[40];
  std::snprintf(buf, sizeof buf, "%.17g", v);
  return buf;
}

// Doubles in [0, 1) (or [a, b)) from the top 53 bits of std::mt19937_64,
// whose output the standard fixes; std::uniform_real_distribution's is not.
class Uniform {
 public:
  explicit Uniform(std::uint64_t seed) : engine_(seed) {}
  double operator()() { return static_cast<double>(engine_() >> 11) * 0x1.0p-53; }
  double operator()(double a, double b) { return a + (b - a) * (*this)(); }

 private:
  std::mt19937_64 engine_;
};

}  // namespace pegsim::seeded
