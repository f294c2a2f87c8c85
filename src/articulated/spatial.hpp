// Spatial vector algebra (Featherstone, "Rigid Body Dynamics Algorithms",
// Springer 2008, chapter 2; equation numbers below are that book's).
//
// Spatial vectors are 6-vectors in Plucker coordinates, angular part first:
//   motion  m = [omega; v]  (v: velocity of the body point at the frame's origin)
//   force   f = [n; f]      (n: moment about the frame's origin)
// This is the book's order, and the reverse of pegsim's body velocities
// ([v_com; omega], dynamics/mass.hpp); kinematics.hpp converts at the boundary.
#pragma once

#include "math/cross_matrix.hpp"
#include "math/types.hpp"

namespace pegsim::articulated {

inline Mat3 skew(const Vec3& a) { return cross_matrix(a); }  // a x b = skew(a) b  (eq. 2.23's "rx")

inline Vec3 angular(const Vec6& s) { return s.head<3>(); }
inline Vec3 linear(const Vec6& s) { return s.tail<3>(); }
inline Vec6 spatial(const Vec3& ang, const Vec3& lin) {
  Vec6 s;
  s << ang, lin;
  return s;
}

// m1 x m2, motion cross product (eq. 2.31)
inline Vec6 cross_motion(const Vec6& m1, const Vec6& m2) {
  const Vec3 w = angular(m1), v = linear(m1);
  return spatial(w.cross(angular(m2)), w.cross(linear(m2)) + v.cross(angular(m2)));
}

// m x* f, force cross product (eq. 2.32)
inline Vec6 cross_force(const Vec6& m, const Vec6& f) {
  const Vec3 w = angular(m), v = linear(m);
  return spatial(w.cross(angular(f)) + v.cross(linear(f)), w.cross(linear(f)));
}

// A Plucker transform B_X_A from frame A to frame B (eqs. 2.24-2.28; the
// book's plx(E, r), Table 2.5): B's origin is at r and its axes are rotated by
// E relative to A (E maps A coordinates to B coordinates; r in A coordinates).
//   motion:  B_X_A  = [E 0; -E rx E]
//   force:   B_X*_A = [E -E rx; 0 E]
struct Transform {
  Mat3 E = Mat3::Identity();
  Vec3 r = Vec3::Zero();

  Vec6 apply_motion(const Vec6& m) const {
    return spatial(E * angular(m), E * (linear(m) - r.cross(angular(m))));
  }
  Vec6 apply_force(const Vec6& f) const {
    return spatial(E * (angular(f) - r.cross(linear(f))), E * linear(f));
  }
  // (B_X_A)^T f = A_X*_B f: a force in B coordinates expressed in A (eq. 2.25)
  Vec6 transpose_apply(const Vec6& f) const {
    const Vec3 n = E.transpose() * angular(f), lin = E.transpose() * linear(f);
    return spatial(n + r.cross(lin), lin);
  }
  // (B_X_A)^-1 m = A_X_B m: a motion in B coordinates expressed in A
  Vec6 inverse_motion(const Vec6& m) const {
    const Vec3 w = E.transpose() * angular(m);
    return spatial(w, E.transpose() * linear(m) + r.cross(w));
  }
  Transform inverse() const { return Transform{E.transpose(), -E * r}; }
  // C_X_A = (C_X_B)(B_X_A), with *this = C_X_B
  Transform operator*(const Transform& b_x_a) const {
    return Transform{E * b_x_a.E, b_x_a.r + b_x_a.E.transpose() * r};
  }
  Mat6 motion_matrix() const {
    Mat6 X = Mat6::Zero();
    X.topLeftCorner<3, 3>() = E;
    X.bottomLeftCorner<3, 3>() = -E * skew(r);
    X.bottomRightCorner<3, 3>() = E;
    return X;
  }
};

// Spatial inertia of a rigid body about a frame's origin (eq. 2.63):
//   I = [I_c + m cx cx^T, m cx; m cx^T, m 1]
// with mass m, centre of mass c and rotational inertia I_c about c, all in
// that frame's coordinates.
inline Mat6 spatial_inertia(double mass, const Vec3& com, const Mat3& inertia_com) {
  const Mat3 cx = skew(com);
  Mat6 I;
  I.topLeftCorner<3, 3>() = inertia_com + mass * cx * cx.transpose();
  I.topRightCorner<3, 3>() = mass * cx;
  I.bottomLeftCorner<3, 3>() = mass * cx.transpose();
  I.bottomRightCorner<3, 3>() = mass * Mat3::Identity();
  return I;
}

// X^T I X: an inertia in B coordinates expressed in A (eq. 2.66's congruence,
// the composite-inertia step of Table 6.2 and the articulated one of Table 7.1).
inline Mat6 transform_inertia_to_parent(const Transform& b_x_a, const Mat6& I_b) {
  const Mat6 X = b_x_a.motion_matrix();
  return X.transpose() * I_b * X;
}

// Rotation matrix of angle q about unit axis a, and the book's rotation E for
// a frame rotated by that: E = R^T (rotx/roty/rotz of Table 2.5 generalised).
inline Mat3 axis_rotation(const Vec3& axis, double angle) { return Eigen::AngleAxisd(angle, axis).toRotationMatrix(); }

}  // namespace pegsim::articulated
