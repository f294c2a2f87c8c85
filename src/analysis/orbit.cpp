#include "analysis/orbit.hpp"

#include <cmath>
#include <numbers>

namespace pegsim {

void OrbitFit::Line::add(double t, double y) {
  ++n;
  st += t;
  sy += y;
  stt += t * t;
  sty += t * y;
}

double OrbitFit::Line::slope() const {
  if (n < 2) return 0.0;
  const double d = n * stt - st * st;
  return d > 0.0 ? (n * sty - st * sy) / d : 0.0;
}

void OrbitFit::add(double t, const Vec3& position) {
  const double x = position.x() - axis_.x(), y = position.y() - axis_.y();
  const double r = std::hypot(x, y);
  double angle = std::atan2(y, x);
  if (angle_.n > 0) {  // unwrap: the continuous angle nearest the last one
    angle += 2.0 * std::numbers::pi * std::round((last_angle_ - angle) / (2.0 * std::numbers::pi));
  } else {
    first_angle_ = angle;
    first_radius_ = r;
  }
  last_angle_ = angle;
  last_radius_ = r;
  angle_.add(t, angle);
  if (r > 0.0) radius_.add(t, std::log(r));
}

double rolling_orbit_rate(double platter_rate, double mass, double radius, double inertia) {
  return platter_rate * inertia / (inertia + mass * radius * radius);
}

double euler_orbit_growth_rate(double orbit_rate, double T) {
  const double turn = orbit_rate * T;
  return std::log1p(turn * turn) / (2.0 * T);
}

}  // namespace pegsim
