// Basic numeric types shared by every stage.
//
// pegsim stores every body in 3D. A planar (2D) scene keeps its bodies in the
// z = 0 plane, with orientation a rotation about z; the formulation locks the
// out-of-plane degrees of freedom through a zero inverse mass on vz, wx, wy
// (see dynamics/mass.hpp), so 2D and 3D share the formulation and solvers.
#pragma once

#include <Eigen/Core>
#include <Eigen/Geometry>

#include <cstdint>

namespace pegsim {

using Vec2 = Eigen::Vector2d;
using Vec3 = Eigen::Vector3d;
using Vec6 = Eigen::Matrix<double, 6, 1>;
using Mat3 = Eigen::Matrix3d;
using Mat6 = Eigen::Matrix<double, 6, 6>;
using Quat = Eigen::Quaterniond;
using VecX = Eigen::VectorXd;
using MatX = Eigen::MatrixXd;

enum class Dimension : std::uint8_t { Planar = 2, Spatial = 3 };

// The cross product of a 2D vector with the z axis: rotates v by -pi/2, so the
// outward normal of a counter-clockwise polygon's edge b - a is perp_cw(b - a)
// (thesis section 3.5).
inline Vec2 perp_cw(const Vec2& v) { return Vec2(v.y(), -v.x()); }

inline double cross2(const Vec2& a, const Vec2& b) { return a.x() * b.y() - a.y() * b.x(); }

inline Vec3 lift(const Vec2& v) { return Vec3(v.x(), v.y(), 0.0); }

}  // namespace pegsim
