// Convex polyhedra with full adjacency (thesis section 3.1).
//
// A polyhedron is stored in its body frame (origin at the centre of mass once
// mass properties have been applied, see geometry/mass_properties.hpp).
//
// Features:
// - vertices V;
// - faces: the convex polygonal facets of the hull (coplanar triangles merged),
//   each a counter-clockwise vertex loop seen from outside, with its outward
//   unit normal eta (eq. 3.1), and a fan triangulation into `triangles`;
// - edges E: the feature edges between two facets with different normals.
//   Edges between coplanar triangles of one facet are not features: they carry
//   no contact that the facet's vertex-face contacts do not already carry
//   (decision recorded here; the thesis's triangle mesh has such flat edges
//   with alpha = pi, thesis 3.1).
//   Each edge e = (tail, head) has face_1 on its left and face_2 on its right
//   when seen from outside with the edge pointing up, i.e. face_1's loop runs
//   tail -> head, and the in-face vectors of eq. 3.2:
//     t1 = eta_1 x e,   t2 = e x eta_2
//   (stored normalised), which point from the edge into face_1 and face_2.
//
// Invariants (checked by validate()): at least 4 non-coplanar vertices, every
// vertex on the hull, Euler's formula V - E + F = 2 over feature edges and
// facets, every facet planar within 1e-9 of its size.
#pragma once

#include "geometry/aabb.hpp"
#include "geometry/shape_kind.hpp"
#include "math/pose.hpp"
#include "math/types.hpp"

#include <array>
#include <string>
#include <vector>

namespace pegsim {

struct PolyEdge {
  int tail = -1;
  int head = -1;
  int face_1 = -1;  // loop traverses tail -> head
  int face_2 = -1;  // loop traverses head -> tail
  Vec3 t1 = Vec3::Zero();  // unit, eta_1 x e normalised (eq. 3.2)
  Vec3 t2 = Vec3::Zero();  // unit, e x eta_2 normalised (eq. 3.2)
};

struct PolyFace {
  std::vector<int> loop;  // counter-clockwise seen from outside
  Vec3 normal = Vec3::Zero();  // outward unit normal eta (eq. 3.1)
  double offset = 0.0;         // normal . x = offset on the face plane
  std::vector<int> edges;      // feature edges bounding this face, in loop order
};

struct Polyhedron {
  std::vector<Vec3> vertices;
  std::vector<PolyEdge> edges;
  std::vector<PolyFace> faces;
  std::vector<std::array<int, 3>> triangles;  // fan triangulation of faces, CCW from outside
  std::vector<int> triangle_face;             // facet of each triangle
  std::vector<std::vector<int>> vertex_edges;      // feature edges at each vertex
  std::vector<std::vector<int>> vertex_neighbors;  // omega(v): vertices joined by a feature edge
  std::vector<std::vector<int>> vertex_faces;      // facets touching each vertex
  double bounding_radius = 0.0;  // max |v| in the body frame

  // Throws GeometryError describing the first broken invariant.
  void validate() const;
  // Rebuilds every derived field from vertices and faces[].loop.
  void build_adjacency();
  // Moves the body frame by -offset (so that offset becomes the origin).
  void translate(const Vec3& offset);

  static constexpr ShapeKindInfo kind_info{"polyhedron", ShapeDims::Spatial, true};
};

// The polyhedron as a shape kind (geometry/shape_kind.hpp; polyhedron_kind.cpp;
// mass_properties in geometry/mass_properties.hpp).
inline double bounding_radius(const Polyhedron& p) { return p.bounding_radius; }
inline void translate(Polyhedron& p, const Vec3& offset) { p.translate(offset); }
// The vertex of largest direction . v (the first of equals), body frame.
Vec3 support(const Polyhedron& p, const Vec3& direction);
// Exact: the box of the vertices at the pose.
Aabb world_bounds(const Polyhedron& p, const Pose& pose);
// vertices, the fan triangles, the facets' loops and normals
void append_mesh(const Polyhedron& p, ShapeMesh& mesh);

// Builds the convex hull of a point set (qhull), merging coplanar facets.
// Throws GeometryError if the points are fewer than 4, coplanar, or contain NaN.
Polyhedron polyhedron_from_points(const std::vector<Vec3>& points);

// Builds a polyhedron from explicit vertices and facet loops (CCW from outside).
// Throws GeometryError if it is not a closed convex polyhedron.
Polyhedron polyhedron_from_faces(const std::vector<Vec3>& vertices,
                                 const std::vector<std::vector<int>>& faces);

// Primitives, centred at the origin.
Polyhedron make_box(const Vec3& size);                  // full side lengths
Polyhedron make_tetrahedron(double edge);              // regular
Polyhedron make_octahedron(double edge);
Polyhedron make_dodecahedron(double edge);
Polyhedron make_icosahedron(double edge);
Polyhedron make_cube(double edge);
// n-gon prism along z (a cylinder when n is large): circumradius, height.
Polyhedron make_prism(int sides, double radius, double height);

}  // namespace pegsim
