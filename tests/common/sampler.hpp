// Deterministic random configurations for tests.
//
// std::mt19937_64's output sequence is fixed by the standard; the mapping to
// doubles is our own (std::uniform_real_distribution is implementation-defined),
// and every draw is its own statement, so the same seed gives the same
// configurations with every compiler and platform.
#pragma once

#include "math/types.hpp"

#include <cmath>
#include <cstdint>
#include <random>

namespace pegsim::test {

class Sampler {
 public:
  explicit Sampler(std::uint64_t seed) : rng_(seed) {}

  // uniform in [0, 1) from the top 53 bits
  double unit() { return static_cast<double>(rng_() >> 11) * 0x1.0p-53; }
  double uniform(double lo, double hi) { return lo + (hi - lo) * unit(); }
  int integer(int lo, int hi) {  // inclusive
    return lo + static_cast<int>(rng_() % static_cast<std::uint64_t>(hi - lo + 1));
  }
  Vec2 vec2(double lo, double hi) {
    const double x = uniform(lo, hi);
    const double y = uniform(lo, hi);
    return Vec2(x, y);
  }
  Vec3 vec3(double lo, double hi) {
    const double x = uniform(lo, hi);
    const double y = uniform(lo, hi);
    const double z = uniform(lo, hi);
    return Vec3(x, y, z);
  }
  // small-integer lattice points: exact parallels, coincidences, collinearity
  Vec3 lattice3(int lo, int hi) {
    const int x = integer(lo, hi);
    const int y = integer(lo, hi);
    const int z = integer(lo, hi);
    return Vec3(x, y, z);
  }
  Vec2 in_disc(double r) {
    for (;;) {
      const Vec2 v = vec2(-1.0, 1.0);
      if (v.squaredNorm() <= 1.0) return r * v;
    }
  }
  Vec3 in_ball(double r) {
    for (;;) {
      const Vec3 v = vec3(-1.0, 1.0);
      if (v.squaredNorm() <= 1.0) return r * v;
    }
  }
  // a unit vector, uniform on the sphere
  Vec3 direction() {
    for (;;) {
      const Vec3 v = vec3(-1.0, 1.0);
      const double n = v.norm();
      if (n > 0.1 && n <= 1.0) return v / n;
    }
  }
  // a rotation, uniform over SO(3)
  Quat rotation() {
    for (;;) {
      const Vec3 a = vec3(-1.0, 1.0);
      const double w = uniform(-1.0, 1.0);
      const double n = std::sqrt(a.squaredNorm() + w * w);
      if (n > 0.1 && n <= 1.0) return Quat(a.x() / n, a.y() / n, a.z() / n, w / n);
    }
  }
  // one of the 24 rotations of the cube (exactly representable axes)
  Quat axis_rotation() {
    static const Quat base[] = {
        Quat::Identity(),
        Quat(Eigen::AngleAxisd(M_PI / 2, Vec3::UnitX())),
        Quat(Eigen::AngleAxisd(M_PI, Vec3::UnitX())),
        Quat(Eigen::AngleAxisd(-M_PI / 2, Vec3::UnitX())),
        Quat(Eigen::AngleAxisd(M_PI / 2, Vec3::UnitY())),
        Quat(Eigen::AngleAxisd(-M_PI / 2, Vec3::UnitY())),
    };
    const int turns = integer(0, 3);
    const int face = integer(0, 5);
    const Quat spin(Eigen::AngleAxisd(M_PI / 2 * turns, Vec3::UnitZ()));
    return (base[face] * spin).normalized();
  }

 private:
  std::mt19937_64 rng_;
};

}  // namespace pegsim::test
