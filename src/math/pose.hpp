// A rigid transform: body frame (origin at the centre of mass) to world.
#pragma once

#include "math/types.hpp"

#include <cmath>
#include <numbers>

namespace pegsim {

struct Pose {
  Vec3 position = Vec3::Zero();
  Quat orientation = Quat::Identity();  // unit quaternion

  Vec3 to_world(const Vec3& p_body) const { return position + orientation * p_body; }
  Vec3 rotate(const Vec3& d_body) const { return orientation * d_body; }
  Vec3 to_body(const Vec3& p_world) const { return orientation.conjugate() * (p_world - position); }

  // planar helpers: a 2D pose is (x, y, theta) with orientation about +z
  static Pose planar(double x, double y, double theta) {
    Pose p;
    p.position = Vec3(x, y, 0.0);
    p.orientation = Quat(Eigen::AngleAxisd(theta, Vec3::UnitZ()));
    return p;
  }
  Vec2 to_world_2d(const Vec2& p_body) const {
    const Vec3 w = to_world(lift(p_body));
    return Vec2(w.x(), w.y());
  }
  Vec2 rotate_2d(const Vec2& d_body) const {
    const Vec3 w = rotate(lift(d_body));
    return Vec2(w.x(), w.y());
  }
};

// The rotation angle about +z of a planar pose, in (-pi, pi]: a planar body's
// orientation is its one source of truth (a quaternion about z), and theta is
// read from it.
inline double planar_angle(const Pose& p) {
  const Quat& q = p.orientation;
  double theta = 2.0 * std::atan2(q.z(), q.w());
  if (theta > std::numbers::pi) theta -= 2.0 * std::numbers::pi;
  else if (theta <= -std::numbers::pi) theta += 2.0 * std::numbers::pi;
  return theta;
}

}  // namespace pegsim
