// MJCF text's numbers, vectors and quaternions (MuJoCo reads them as written:
// %.17g keeps every double exactly), shared by the MJCF writers.
#pragma once

#include "math/types.hpp"

#include <cstdio>
#include <string>

namespace pegsim::bench {

inline std::string mjcf_number(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.17g", v);
  return buf;
}
inline std::string mjcf_vector(const Vec3& v) {
  return mjcf_number(v.x()) + " " + mjcf_number(v.y()) + " " + mjcf_number(v.z());
}
inline std::string mjcf_quaternion(const Quat& q) {  // w x y z
  return mjcf_number(q.w()) + " " + mjcf_number(q.x()) + " " + mjcf_number(q.y()) + " " + mjcf_number(q.z());
}

}  // namespace pegsim::bench
