// A body circling a vertical axis, fitted (the spinning-platter experiment:
// shared/notes/mirtich-canny.md 2.2, docs/experiments.md "spinning platter").
//
// Rolling without slip on a platter turning at Omega, a uniform ball circles
// at Omega' = Omega I / (I + m a^2) (2/7 Omega solid, 2/5 a thin shell) on a
// circle of constant radius; a first-order stepper grows the radius
// exponentially (explicit Euler of the rolling). OrbitFit measures both: the
// angular frequency as the least-squares slope of the unwrapped angle about
// the axis against time, the growth rate as the slope of ln(distance from
// the axis). Samples closer together than half a turn unwrap correctly.
#pragma once

#include "math/types.hpp"

#include <numbers>

namespace pegsim {

class OrbitFit {
 public:
  explicit OrbitFit(const Vec3& axis_point) : axis_(axis_point) {}

  void add(double t, const Vec3& position);

  int samples() const { return angle_.n; }
  double angular_frequency() const { return angle_.slope(); }   // rad/s (counter-clockwise about +z positive)
  double radius_growth_rate() const { return radius_.slope(); }  // 1/s
  double first_radius() const { return first_radius_; }         // m
  double last_radius() const { return last_radius_; }           // m
  double turns() const { return (last_angle_ - first_angle_) / (2.0 * std::numbers::pi); }

 private:
  struct Line {  // least squares y = a + s t
    int n = 0;
    double st = 0.0, sy = 0.0, stt = 0.0, sty = 0.0;
    void add(double t, double y);
    double slope() const;
  };
  Vec3 axis_;
  Line angle_, radius_;
  double first_angle_ = 0.0, last_angle_ = 0.0, first_radius_ = 0.0, last_radius_ = 0.0;
};

// Omega I / (I + m a^2): the orbit rate of a ball of mass m, radius a and
// moment of inertia I rolling without slip on a platter turning at Omega.
double rolling_orbit_rate(double platter_rate, double mass, double radius, double inertia);

// The radius's growth rate when each step (or hop) of length T advances the
// rolling by explicit Euler, v <- v + Omega' T z x v: ln(1 + (Omega' T)^2) / (2 T)
// (reading guide (M22); the ratio 2/7 of the guide is Omega' / Omega).
double euler_orbit_growth_rate(double orbit_rate, double T);

}  // namespace pegsim
