// Primitive convex polyhedra, centred at the origin. Boxes and prisms are
// given by explicit facet loops (CCW from outside); the regular polyhedra by
// their classical vertex coordinates, hulled (polyhedron_from_points merges
// the coplanar triangles of the dodecahedron's pentagons).
#include "geometry/polyhedron.hpp"

#include "geometry/shape.hpp"

#include <cmath>
#include <numbers>
#include <string>

namespace pegsim {

namespace {

void require_positive(double x, const char* what) {
  if (!(x > 0.0) || !std::isfinite(x))
    throw GeometryError(std::string(what) + " must be positive and finite, got " + std::to_string(x));
}

// All sign combinations of (x, y, z) in fixed order (duplicates dropped when a
// coordinate is zero), and the three cyclic permutations of each if asked.
std::vector<Vec3> signed_points(double x, double y, double z, bool cyclic) {
  std::vector<Vec3> out;
  auto add = [&](const Vec3& p) {
    for (const Vec3& q : out)
      if (q == p) return;
    out.push_back(p);
  };
  for (int perm = 0; perm < (cyclic ? 3 : 1); ++perm)
    for (int sx : {1, -1})
      for (int sy : {1, -1})
        for (int sz : {1, -1}) {
          const Vec3 p(sx * x, sy * y, sz * z);
          add(Vec3(p[(0 + perm) % 3], p[(1 + perm) % 3], p[(2 + perm) % 3]));
        }
  return out;
}

std::vector<Vec3> scaled(std::vector<Vec3> pts, double s) {
  for (Vec3& p : pts) p *= s;
  return pts;
}

}  // namespace

Polyhedron make_box(const Vec3& size) {
  require_positive(size.x(), "make_box: size.x");
  require_positive(size.y(), "make_box: size.y");
  require_positive(size.z(), "make_box: size.z");
  const Vec3 h = 0.5 * size;
  // Vertex i has x sign from bit 0, y from bit 1, z from bit 2 (0 = negative).
  std::vector<Vec3> v;
  for (int i = 0; i < 8; ++i) v.emplace_back(i & 1 ? h.x() : -h.x(), i & 2 ? h.y() : -h.y(), i & 4 ? h.z() : -h.z());
  return polyhedron_from_faces(v, {{0, 2, 3, 1},    // -z
                                   {4, 5, 7, 6},    // +z
                                   {0, 1, 5, 4},    // -y
                                   {2, 6, 7, 3},    // +y
                                   {0, 4, 6, 2},    // -x
                                   {1, 3, 7, 5}});  // +x
}

Polyhedron make_cube(double edge) {
  require_positive(edge, "make_cube: edge");
  return make_box(Vec3::Constant(edge));
}

// Regular tetrahedron: alternate corners of the cube [-1, 1]^3, edge 2 sqrt 2.
Polyhedron make_tetrahedron(double edge) {
  require_positive(edge, "make_tetrahedron: edge");
  const double s = edge / (2.0 * std::numbers::sqrt2);
  return polyhedron_from_points(scaled({{1, 1, 1}, {1, -1, -1}, {-1, 1, -1}, {-1, -1, 1}}, s));
}

// Regular octahedron: (+-1, 0, 0) and permutations, edge sqrt 2.
Polyhedron make_octahedron(double edge) {
  require_positive(edge, "make_octahedron: edge");
  return polyhedron_from_points(scaled(signed_points(1, 0, 0, true), edge / std::numbers::sqrt2));
}

// Regular icosahedron: cyclic permutations of (0, +-1, +-phi), edge 2.
Polyhedron make_icosahedron(double edge) {
  require_positive(edge, "make_icosahedron: edge");
  return polyhedron_from_points(scaled(signed_points(0, 1, std::numbers::phi, true), edge / 2.0));
}

// Regular dodecahedron: (+-1, +-1, +-1) and cyclic permutations of
// (0, +-1/phi, +-phi), edge 2 / phi.
Polyhedron make_dodecahedron(double edge) {
  require_positive(edge, "make_dodecahedron: edge");
  const double phi = std::numbers::phi;
  std::vector<Vec3> pts = signed_points(1, 1, 1, false);
  for (const Vec3& p : signed_points(0, 1 / phi, phi, true)) pts.push_back(p);
  return polyhedron_from_points(scaled(pts, edge * phi / 2.0));
}

// n-gon prism along z: bottom ring 0..n-1 at z = -h/2, top ring n..2n-1 at
// z = +h/2, vertex i at angle 2 pi i / n on the circumcircle.
Polyhedron make_prism(int sides, double radius, double height) {
  if (sides < 3) throw GeometryError("make_prism: needs at least 3 sides, got " + std::to_string(sides));
  require_positive(radius, "make_prism: radius");
  require_positive(height, "make_prism: height");
  std::vector<Vec3> v;
  for (int ring = 0; ring < 2; ++ring)
    for (int i = 0; i < sides; ++i) {
      const double a = 2.0 * std::numbers::pi * i / sides;
      v.emplace_back(radius * std::cos(a), radius * std::sin(a), ring == 0 ? -0.5 * height : 0.5 * height);
    }
  std::vector<std::vector<int>> faces;
  std::vector<int> bottom, top;
  for (int i = 0; i < sides; ++i) {
    bottom.push_back(sides - 1 - i);  // CCW seen from below
    top.push_back(sides + i);
  }
  faces.push_back(bottom);
  faces.push_back(top);
  for (int i = 0; i < sides; ++i) {
    const int j = (i + 1) % sides;
    faces.push_back({i, j, sides + j, sides + i});
  }
  return polyhedron_from_faces(v, faces);
}

}  // namespace pegsim
