// Overlap between bodies, measured on the geometry alone (thesis 5.2.3-5.2.4,
// 5.3: "area of overlap" and "overlap volume" error metrics).
//
// Independent of contact determination and of the contact models, so it can
// judge them: 2D by clipping one convex polygon by the edge lines of the
// other, 3D by clipping one convex polyhedron's faces by the face planes of
// the other, closing each cut with a cap face (geometry/clipping.hpp, which
// says why not qhull's half-space intersection). A half-space (or half-plane)
// overlaps a body by the part of the body below its plane. Touching bodies
// (shared faces, edges or corners) overlap by 0; never NaN.
#pragma once

#include "geometry/shape.hpp"
#include "math/pose.hpp"
#include "sim/model.hpp"
#include "sim/state.hpp"

#include <cstdint>
#include <vector>

namespace pegsim {

// Area (2D, m^2) or volume (3D, m^3) of the intersection of two shapes at their
// poses; 0 when they are apart or cannot touch (two half-spaces, 2D with 3D).
double overlap_measure(const Shape& a, const Pose& pa, const Shape& b, const Pose& pb);

struct PairOverlap {
  std::uint32_t body_a = 0, body_b = 0;  // body_a < body_b
  double measure = 0.0;                  // area (2D) or volume (3D), > 0
};

// Every overlapping pair of bodies (static-static pairs skipped), in (a, b) order.
std::vector<PairOverlap> pair_overlaps(const Model& model, const State& state);

// Sum of pair_overlaps' measures: the thesis's "total area (volume) of overlap".
double total_overlap(const Model& model, const State& state);

}  // namespace pegsim
