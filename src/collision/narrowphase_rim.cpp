// Cylinder and cone against a half-space (collision/narrowphase_curved.hpp):
// the contacts are on the rims of their flat faces (and at a cone's apex),
// in closed form.
//
// A cylinder or cone meets a plane where its support along -n is: a point of
// a rim circle, the apex, or, when a flat face lies parallel to the plane, the
// whole face (a disc). Decision (issue 15): like a polytope's face standing
// on the ground, which has a contact at each of its vertices, a flat face
// within eps of parallel stands on kRimPoints points of its rim, fixed in the
// body (at angles 2 pi k / kRimPoints from body x), so a standing cylinder has
// a support polygon and a persistent contact set (warm starts by point). A
// face counts as parallel when its rim's height above the plane varies by at
// most eps (2 r sin(tilt) <= eps) and it is tilted by less than 2.9 degrees
// (sin(tilt) <= 0.05, so that a large eps does not stand a face that is
// clearly tipped on its whole rim); otherwise the rim touches at one point,
// its lowest, found exactly: c - r u with u the plane normal's direction
// within the face's plane. A cylinder lying on its side thus has two
// contacts, the lowest points of its two rims, the ends of its line of
// contact, and rolls on them without the bumps a polygonal rim would give.
//
// Points are numbered (feature_b): face f's fixed rim points 16 f + k, its
// lowest rim point 16 f + 8 (f = 0 the bottom face, 1 the top), the apex 32.
#include "collision/narrowphase_curved.hpp"

#include <cmath>
#include <numbers>

namespace pegsim {

namespace {

constexpr int kRimPoints = 8;
constexpr double kFlatTilt = 0.05;  // sin of the largest tilt a face standing on kRimPoints may have (2.9 deg)

struct Plane {
  Vec3 n;
  double offset;
};

Plane world_plane(const BodyGeometry& a, const HalfSpace& plane) {
  const double len = plane.normal.norm();
  const Vec3 n = a.pose.rotate(plane.normal / len);
  return {n, plane.offset / len + n.dot(a.pose.position)};
}

void point_contact(const BodyGeometry& a, const BodyGeometry& b, const Plane& p, const Vec3& x, int id,
                   const NarrowphaseParams& params, std::vector<Contact>& out) {
  const double gap = p.n.dot(x) - p.offset;
  if (gap <= params.eps) out.push_back(curved_contact(a, b, x - gap * p.n, p.n, gap, id));
}

// The rim of face `face` (centre c in the body frame, radius r).
void rim(const BodyGeometry& a, const BodyGeometry& b, const Plane& p, const Vec3& c, double r, int face,
         const NarrowphaseParams& params, std::vector<Contact>& out) {
  const Mat3 R = b.pose.orientation.toRotationMatrix();
  const Vec3 axis = R.col(2), centre = b.pose.to_world(c);
  const Vec3 in_face = p.n - p.n.dot(axis) * axis;  // |in_face| = sin(tilt)
  const double tilt = in_face.norm();
  if (2.0 * r * tilt <= params.eps && tilt <= kFlatTilt) {
    for (int k = 0; k < kRimPoints; ++k) {
      const double angle = 2.0 * std::numbers::pi * k / kRimPoints;
      const Vec3 x = centre + r * (std::cos(angle) * R.col(0) + std::sin(angle) * R.col(1));
      point_contact(a, b, p, x, 16 * face + k, params, out);
    }
    return;
  }
  point_contact(a, b, p, centre - (r / tilt) * in_face, 16 * face + 8, params, out);
}

}  // namespace

void find_contacts_rim(const BodyGeometry& a, const HalfSpace& plane, const BodyGeometry& b, const Cylinder& cb,
                       const NarrowphaseParams& params, std::vector<Contact>& out) {
  const Plane p = world_plane(a, plane);
  if (p.n.dot(b.pose.position) - p.offset > bounding_radius(cb) + params.eps) return;
  const Vec3 half(0.0, 0.0, 0.5 * cb.height);
  rim(a, b, p, cb.centre - half, cb.radius, 0, params, out);
  rim(a, b, p, cb.centre + half, cb.radius, 1, params, out);
}

void find_contacts_rim(const BodyGeometry& a, const HalfSpace& plane, const BodyGeometry& b, const Cone& cb,
                       const NarrowphaseParams& params, std::vector<Contact>& out) {
  const Plane p = world_plane(a, plane);
  if (p.n.dot(b.pose.position) - p.offset > bounding_radius(cb) + params.eps) return;
  rim(a, b, p, cb.centre, cb.radius, 0, params, out);
  point_contact(a, b, p, b.pose.to_world(cb.centre + Vec3(0.0, 0.0, cb.height)), 32, params, out);
}

}  // namespace pegsim
