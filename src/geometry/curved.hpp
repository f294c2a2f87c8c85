// The curved shape kinds (geometry/shape_kind.hpp): true smooth geometry, not
// polytope stand-ins (issue 15).
//
//   3D: sphere, capsule (a segment swept by a ball), cylinder, cone
//   2D: disc, capsule_2d (a segment swept by a disc, the "stadium")
//
// Each is given in its own frame by a `centre` (a body-frame point) and the
// body frame's axes: a capsule's and a cylinder's axis is body z (3D), a 2D
// capsule's is body x; a cone's base is the disc of radius `radius` about
// `centre` in the plane z = centre.z, its apex at centre + height z. translate
// moves `centre`, so the scene loader can put the centre of mass at the body
// origin as for every kind (geometry/mass_properties.hpp).
//
// Sphere, capsule, disc and capsule_2d are a core (a point or a segment) and
// a radius: the set of points within `radius` of the core. Contact
// determination works on the cores (collision/curved_contact.hpp), the exact
// way to get the distance of such shapes. Cylinder and cone have no such
// core: contact with them is found from their support mappings (GJK,
// geometry/gjk.hpp), except against a half-space, where their rims give the
// contacts in closed form (collision/narrowphase_rim.cpp).
//
// The meshes (append_mesh) are tessellations for recordings and the viewer
// only: no geometric computation of pegsim reads them.
#pragma once

#include "geometry/aabb.hpp"
#include "geometry/mass_properties.hpp"
#include "geometry/shape_kind.hpp"
#include "math/pose.hpp"

namespace pegsim {

struct Sphere {
  double radius = 0.5;
  Vec3 centre = Vec3::Zero();
  static constexpr ShapeKindInfo kind_info{"sphere", ShapeDims::Spatial, true};
};

// The points within radius of the segment centre +- (length / 2) z.
struct Capsule {
  double radius = 0.25;
  double length = 1.0;  // of the core segment (the cylindrical part)
  Vec3 centre = Vec3::Zero();
  static constexpr ShapeKindInfo kind_info{"capsule", ShapeDims::Spatial, true};
};

// Axis body z, from centre - (height / 2) z to centre + (height / 2) z.
struct Cylinder {
  double radius = 0.5;
  double height = 1.0;
  Vec3 centre = Vec3::Zero();
  static constexpr ShapeKindInfo kind_info{"cylinder", ShapeDims::Spatial, true};
};

// Base disc about centre in z = centre.z, apex at centre + height z.
struct Cone {
  double radius = 0.5;
  double height = 1.0;
  Vec3 centre = Vec3::Zero();  // the base's centre
  static constexpr ShapeKindInfo kind_info{"cone", ShapeDims::Spatial, true};
};

// A lamina in z = 0 (2D scenes).
struct Disc {
  double radius = 0.5;
  Vec3 centre = Vec3::Zero();  // z = 0
  static constexpr ShapeKindInfo kind_info{"disc", ShapeDims::Planar, true};
};

// A lamina in z = 0: the points within radius of the segment centre +- (length / 2) x.
struct Capsule2d {
  double radius = 0.25;
  double length = 1.0;
  Vec3 centre = Vec3::Zero();  // z = 0
  static constexpr ShapeKindInfo kind_info{"capsule_2d", ShapeDims::Planar, true};
};

// Checked constructors: positive finite dimensions (length >= 0 for the
// capsules: 0 is a sphere / disc). Throw GeometryError.
Sphere make_sphere(double radius);
Capsule make_capsule(double radius, double length);
Cylinder make_cylinder(double radius, double height);
Cone make_cone(double radius, double height);
Disc make_disc(double radius);
Capsule2d make_capsule_2d(double radius, double length);

// The shape-kind operations (curved_kinds.cpp, curved_mass.cpp, curved_mesh.cpp).
#define PEGSIM_CURVED_KIND_OPS(K)                         \
  double bounding_radius(const K& s);                     \
  Vec3 support(const K& s, const Vec3& direction);        \
  Aabb world_bounds(const K& s, const Pose& pose);        \
  MassProperties mass_properties(const K& s, double density); \
  void translate(K& s, const Vec3& offset);               \
  void append_mesh(const K& s, ShapeMesh& mesh);
PEGSIM_CURVED_KIND_OPS(Sphere)
PEGSIM_CURVED_KIND_OPS(Capsule)
PEGSIM_CURVED_KIND_OPS(Cylinder)
PEGSIM_CURVED_KIND_OPS(Cone)
PEGSIM_CURVED_KIND_OPS(Disc)
PEGSIM_CURVED_KIND_OPS(Capsule2d)
#undef PEGSIM_CURVED_KIND_OPS

// The core of a sphere, capsule, disc or 2D capsule: the segment [p, q]
// (p == q for a point), body frame, and the radius swept around it.
struct RoundCore {
  Vec3 p = Vec3::Zero(), q = Vec3::Zero();
  double radius = 0.0;
};
inline RoundCore core_of(const Sphere& s) { return {s.centre, s.centre, s.radius}; }
inline RoundCore core_of(const Disc& s) { return {s.centre, s.centre, s.radius}; }
inline RoundCore core_of(const Capsule& s) {
  const Vec3 half(0.0, 0.0, 0.5 * s.length);
  return {s.centre - half, s.centre + half, s.radius};
}
inline RoundCore core_of(const Capsule2d& s) {
  const Vec3 half(0.5 * s.length, 0.0, 0.0);
  return {s.centre - half, s.centre + half, s.radius};
}

// Whether a body-frame point is inside (or on) the shape: the overlap
// quadrature (geometry/curved_overlap.cpp) and the tests' brute force.
bool contains(const Sphere& s, const Vec3& x);
bool contains(const Capsule& s, const Vec3& x);
bool contains(const Cylinder& s, const Vec3& x);
bool contains(const Cone& s, const Vec3& x);
bool contains(const Disc& s, const Vec3& x);
bool contains(const Capsule2d& s, const Vec3& x);

}  // namespace pegsim
