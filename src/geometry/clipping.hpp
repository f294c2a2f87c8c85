// Clipping convex regions by half-planes and half-spaces (Sutherland-Hodgman),
// and their area / volume: the geometry of body overlap (thesis 5.2.3-5.2.4).
//
// Shared by the overlap measurement (analysis/overlap.hpp) and the corrective
// contact model (contact/corrective.cpp), which must not depend on each other.
//
// Why clipping and not qhull's half-space intersection for 3D: qhull needs a
// point strictly inside every half-space before it starts (an extra linear
// program), and the cases the measurement must get right, touching bodies and
// shared or coplanar faces, are exactly where no such point exists or where
// qhull reports a precision error or joggles the input. Clipping a closed face
// list plane by plane has no such precondition, degrades to an empty or flat
// region (volume 0 to round-off) and is deterministic.
//
// Tolerance: a vertex whose signed distance to the clipping line/plane is
// within kClipTolerance times the size of the region (its extent plus its
// distance from the origin, the scale of the round-off in that signed
// distance) counts as on it. A region that lies entirely on or outside the
// boundary is dropped; one entirely on or inside it is kept unchanged. So
// bodies that touch along an edge or a face overlap by exactly 0, and a
// clipped region never gains near-duplicate vertices from a plane through a
// vertex.
#pragma once

#include "geometry/shape.hpp"
#include "math/pose.hpp"
#include "math/types.hpp"

#include <vector>

namespace pegsim {

inline constexpr double kClipTolerance = 1e-12;

// --- 2D -----------------------------------------------------------------

// Keeps the part of the convex vertex loop `in` where n . x <= offset (n need
// not be unit; the tolerance is scaled by |n|). `out` must not alias `in`.
// The loop's orientation is kept; an empty `out` means nothing is left.
void clip_polygon(const std::vector<Vec2>& in, const Vec2& n, double offset, std::vector<Vec2>& out);

// Signed area by the shoelace formula (counter-clockwise > 0), taken about the
// first vertex so that a loop far from the origin loses no precision.
double polygon_area(const std::vector<Vec2>& loop);

// Area centroid; the vertex mean when the area is 0 (a flat or tiny loop);
// (0, 0) for an empty loop.
Vec2 polygon_centroid(const std::vector<Vec2>& loop);

// World vertex loop of a polygon at a planar pose (counter-clockwise).
std::vector<Vec2> world_loop(const Polygon& p, const Pose& pose);

// --- 3D -----------------------------------------------------------------

// A closed convex polyhedron as the list of its face polygons, each a vertex
// loop counter-clockwise seen from outside. Clipping keeps it closed: every
// face is clipped and the cut is closed by a cap face in the clipping plane.
struct ConvexCell {
  std::vector<std::vector<Vec3>> faces;

  bool empty() const { return faces.empty(); }
  // Keeps the part where n . x <= offset (n unit).
  void clip(const Vec3& n, double offset);
  // Volume by the divergence theorem: the sum of the signed tetrahedra that
  // the fan triangles of the faces span with the vertex mean. >= 0 up to
  // round-off; 0 for an empty cell.
  double volume() const;
  // Volume centroid (same tetrahedra); the vertex mean when the volume is 0.
  Vec3 centroid() const;
};

// The cell of a polyhedron at a pose (world coordinates).
ConvexCell make_cell(const Polyhedron& p, const Pose& pose);

}  // namespace pegsim
