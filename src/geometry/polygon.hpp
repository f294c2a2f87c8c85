// Convex polygons in the plane (thesis section 3.5).
//
// Vertices counter-clockwise; edge i runs from vertex i to vertex i+1 (mod n),
// with outward unit normal perp_cw(v[i+1] - v[i]) / |...|.
#pragma once

#include "geometry/aabb.hpp"
#include "geometry/shape_kind.hpp"
#include "math/pose.hpp"
#include "math/types.hpp"

#include <vector>

namespace pegsim {

struct Polygon {
  std::vector<Vec2> vertices;      // counter-clockwise
  std::vector<Vec2> edge_normals;  // outward unit normal of edge i
  double bounding_radius = 0.0;

  int size() const { return static_cast<int>(vertices.size()); }
  int next(int i) const { return (i + 1) % size(); }
  int prev(int i) const { return (i + size() - 1) % size(); }

  void build();                    // fills edge_normals and bounding_radius
  void validate() const;           // throws GeometryError: < 3 vertices, zero edge, not CCW, not convex, NaN
  void translate(const Vec2& offset);  // vertices -= offset

  static constexpr ShapeKindInfo kind_info{"polygon", ShapeDims::Planar, true};
};

// The polygon as a shape kind (geometry/shape_kind.hpp; polygon_kind.cpp;
// mass_properties in geometry/mass_properties.hpp). It lies in z = 0 of its
// body frame; 3D offsets and directions use their x, y.
inline double bounding_radius(const Polygon& p) { return p.bounding_radius; }
inline void translate(Polygon& p, const Vec3& offset) { p.translate(Vec2(offset.x(), offset.y())); }
// The vertex of largest direction . v (the first of equals), lifted to z = 0.
Vec3 support(const Polygon& p, const Vec3& direction);
// Exact: the box of the vertices at the pose (z extent that of the pose's plane).
Aabb world_bounds(const Polygon& p, const Pose& pose);
// one facet (every vertex, normal +z) fanned from vertex 0
void append_mesh(const Polygon& p, ShapeMesh& mesh);

// Checks and builds; a clockwise but otherwise convex loop is rejected, not reversed.
Polygon make_polygon(const std::vector<Vec2>& vertices);
Polygon make_rectangle(double width, double height);
Polygon make_regular_polygon(int sides, double circumradius);
// Convex hull of a 2D point set (counter-clockwise); throws if degenerate.
Polygon polygon_hull(const std::vector<Vec2>& points);

}  // namespace pegsim
