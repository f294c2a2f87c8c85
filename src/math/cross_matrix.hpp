// The cross-product (skew-symmetric) matrix of a 3-vector, shared by the rigid-body
// dynamics (gyroscopic Jacobian), the impulse stepper's collision response and the
// articulated-body spatial algebra.
#pragma once

#include "math/types.hpp"

namespace pegsim {

// [a]x, so that a x b = cross_matrix(a) * b.
inline Mat3 cross_matrix(const Vec3& a) {
  Mat3 m;
  m << 0.0, -a.z(), a.y(), a.z(), 0.0, -a.x(), -a.y(), a.x(), 0.0;
  return m;
}

}  // namespace pegsim
