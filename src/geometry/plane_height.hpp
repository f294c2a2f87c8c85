// The height of a body-frame point above a convex polyhedron's face planes:
// max over faces of (normal . x - offset). <= 0: x is inside (and then minus
// the height is its depth below the shallowest face); > 0: x is outside, by at
// least that distance. One loop for the narrowphase's nearest point, the
// curved pairs' containment test and PEG's P8 witness test.
#pragma once

#include "geometry/polyhedron.hpp"

#include <cstddef>
#include <limits>

namespace pegsim {

// `face`, when given, receives the index of the face that attains the height
// (the first of equals; 0 for a polyhedron without faces).
inline double plane_height(const Polyhedron& p, const Vec3& x, std::size_t* face = nullptr) {
  double height = -std::numeric_limits<double>::infinity();
  std::size_t highest = 0;
  for (std::size_t f = 0; f < p.faces.size(); ++f) {
    const double h = p.faces[f].normal.dot(x) - p.faces[f].offset;
    if (h > height) height = h, highest = f;
  }
  if (face) *face = highest;
  return height;
}

}  // namespace pegsim
