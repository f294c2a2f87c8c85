// What every shape kind declares about itself: its name, the scenes it fits,
// and (next to its type, in the kind's own header) the operations the rest of
// pegsim reaches through geometry/shape.hpp.
//
// A shape kind is a type K listed once in the Shape variant (geometry/shape.hpp)
// with
//   static constexpr ShapeKindInfo kind_info{name, dims, bounded};
// and these free functions, found by their exact signatures (ShapeKindOps in
// shape.hpp checks them at compile time for every alternative):
//   double bounding_radius(const K&);              max |x| over the shape, body frame
//   Vec3 support(const K&, const Vec3& d);         a farthest point along d, body frame
//   Aabb world_bounds(const K&, const Pose&);         world box at a pose (exact where cheap)
//   MassProperties mass_properties(const K&, double density);
//   void translate(K&, const Vec3& offset);        the frame moves by -offset
//   void append_mesh(const K&, ShapeMesh&);        triangles and facets, for recordings
// Unbounded kinds (a half-space) have no support point, mass or mesh: those
// throw GeometryError, and their world box is everything.
//
// The name is the one scene files, recordings, the Python module and error
// messages use; ShapeDims says whether a 2D scene, a 3D scene or both take it.
#pragma once

#include "math/types.hpp"

#include <array>
#include <stdexcept>
#include <vector>

namespace pegsim {

struct GeometryError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

enum class ShapeDims : std::uint8_t { Planar, Spatial, Both };

inline bool fits(ShapeDims dims, Dimension scene) {
  return dims == ShapeDims::Both || (dims == ShapeDims::Planar) == (scene == Dimension::Planar);
}

struct ShapeKindInfo {
  const char* name;  // "polyhedron", ...: scene files, recordings, Python, messages
  ShapeDims dims;
  bool bounded;  // false: no support point, mass, mesh; world box everything
};

// A bounded shape as a surface, body frame: what a recording stores of it
// (docs/recording-format.md, /bodies/shape_i). A planar shape is one facet
// in z = 0 with normal +z.
struct ShapeMesh {
  std::vector<Vec3> vertices;
  std::vector<std::array<int, 3>> triangles;  // counter-clockwise seen from outside
  std::vector<std::vector<int>> facets;       // vertex loops
  std::vector<Vec3> facet_normals;            // outward unit normal of each facet
};

}  // namespace pegsim
