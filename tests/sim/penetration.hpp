// Penetration depth between two convex shapes at given poses, by the separating
// axis theorem: independent of the contact-determination code it checks.
//
// For convex polyhedra the minimum translation distance is the smallest
// overlap of the two projections over the candidate axes: every facet normal
// of either body and every cross product of an edge of one with an edge of the
// other. A half-space's depth is how far the deepest vertex is below it.
#pragma once

#include "geometry/shape.hpp"
#include "math/pose.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

namespace pegsim::test {

inline std::vector<Vec3> world_vertices(const Polyhedron& p, const Pose& pose) {
  std::vector<Vec3> out;
  for (const Vec3& v : p.vertices) out.push_back(pose.to_world(v));
  return out;
}

inline void project(const std::vector<Vec3>& pts, const Vec3& axis, double& lo, double& hi) {
  lo = std::numeric_limits<double>::infinity();
  hi = -lo;
  for (const Vec3& p : pts) {
    const double d = axis.dot(p);
    lo = std::min(lo, d);
    hi = std::max(hi, d);
  }
}

// Returns the penetration depth (> 0 when overlapping, <= 0 when separated).
inline double penetration_depth(const Polyhedron& a, const Pose& pa, const Polyhedron& b, const Pose& pb) {
  const std::vector<Vec3> va = world_vertices(a, pa), vb = world_vertices(b, pb);
  std::vector<Vec3> axes;
  for (const PolyFace& f : a.faces) axes.push_back(pa.rotate(f.normal));
  for (const PolyFace& f : b.faces) axes.push_back(pb.rotate(f.normal));
  for (const PolyEdge& ea : a.edges)
    for (const PolyEdge& eb : b.edges) {
      const Vec3 da = pa.rotate(a.vertices[ea.head] - a.vertices[ea.tail]);
      const Vec3 db = pb.rotate(b.vertices[eb.head] - b.vertices[eb.tail]);
      const Vec3 c = da.cross(db);
      if (c.norm() > 1e-9 * da.norm() * db.norm()) axes.push_back(c.normalized());
    }
  double depth = std::numeric_limits<double>::infinity();
  for (const Vec3& axis : axes) {
    double alo, ahi, blo, bhi;
    project(va, axis, alo, ahi);
    project(vb, axis, blo, bhi);
    depth = std::min(depth, std::min(ahi - blo, bhi - alo));
  }
  return depth;
}

inline double penetration_depth(const HalfSpace& h, const Pose& ph, const Polyhedron& b, const Pose& pb) {
  const Vec3 n = ph.rotate(h.normal);
  const double offset = h.offset + n.dot(ph.position);
  double deepest = -std::numeric_limits<double>::infinity();
  for (const Vec3& v : world_vertices(b, pb)) deepest = std::max(deepest, offset - n.dot(v));
  return deepest;
}

// Depth for any pair of 3D shapes a scene can hold (polyhedra and half-spaces).
inline double penetration_depth(const Shape& a, const Pose& pa, const Shape& b, const Pose& pb) {
  if (const auto* h = std::get_if<HalfSpace>(&a))
    if (const auto* p = std::get_if<Polyhedron>(&b)) return penetration_depth(*h, pa, *p, pb);
  if (const auto* h = std::get_if<HalfSpace>(&b))
    if (const auto* p = std::get_if<Polyhedron>(&a)) return penetration_depth(*h, pb, *p, pa);
  const auto* x = std::get_if<Polyhedron>(&a);
  const auto* y = std::get_if<Polyhedron>(&b);
  if (x && y) return penetration_depth(*x, pa, *y, pb);
  return -std::numeric_limits<double>::infinity();
}

}  // namespace pegsim::test
