// Cylinder and cone against a half-space, a polyhedron's facet or each
// other's flat faces (collision/narrowphase_curved.hpp): the contacts are on
// the rims of their flat faces (and at a cone's apex), in closed form.
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
// Against a polyhedron (decision, issue 15: a can standing on a table; GJK
// alone gave one point, which rocked it): GJK / EPA gives the distance and
// normal; when the polyhedron's closest feature is a facet facing the normal
// (within kFacetAlign), the facet's plane stands for the half-space and only
// rim points over the facet polygon count; a flat face lying on the facet
// adds the facet's vertices over the face's disc (a box on a turntable: its
// corners), so the support polygon is that of the overlap, up to the rim's
// sampling. Otherwise (an edge or a corner of the polyhedron, a rim over the
// facet's border) the one GJK point stands for the pair, as for the other
// curved pairs.
//
// Points are numbered (feature_b): face f's fixed rim points 16 f + k, its
// lowest rim point 16 f + 8 (f = 0 the bottom face, 1 the top), the apex 32,
// a lying cylinder's line clipped by a facet's border 40 and 41, a facet
// vertex 64 + its index, the GJK point 0.
#include "collision/narrowphase_curved.hpp"
#include "geometry/gjk.hpp"

#include <cmath>
#include <numbers>

namespace pegsim {

namespace {

constexpr int kRimPoints = 8;
constexpr double kFlatTilt = 0.05;  // sin of the largest tilt a face standing on kRimPoints may have (2.9 deg)

// The plane a rim stands on; for a polyhedron's facet also its polygon
// (world, counter-clockwise seen from +n), for another flat face its disc:
// only points over it count. corners: A's points that may touch B's flat
// face when it lies on the plane (a facet's vertices, a face's rim points),
// numbered corner_ids.
struct Plane {
  Vec3 n;
  double offset;
  const std::vector<Vec3>* polygon = nullptr;
  Vec3 disc_centre = Vec3::Zero();
  double disc_radius = -1.0;  // >= 0: over the disc
  const std::vector<Vec3>* corners = nullptr;
  const std::vector<int>* corner_ids = nullptr;
};

bool over(const Plane& p, const Vec3& x) {
  if (p.disc_radius >= 0.0) {
    const Vec3 r = x - p.disc_centre;
    return (r - r.dot(p.n) * p.n).norm() <= p.disc_radius * (1.0 + 1e-9);
  }
  if (!p.polygon) return true;
  const std::vector<Vec3>& v = *p.polygon;
  for (std::size_t i = 0; i < v.size(); ++i) {
    const Vec3& s = v[i];
    const Vec3& e = v[(i + 1) % v.size()];
    if ((e - s).cross(x - s).dot(p.n) < 0.0) return false;
  }
  return true;
}

Plane world_plane(const BodyGeometry& a, const HalfSpace& plane) {
  const double len = plane.normal.norm();
  const Vec3 n = a.pose.rotate(plane.normal / len);
  return {n, plane.offset / len + n.dot(a.pose.position)};
}

void point_contact(const BodyGeometry& a, const BodyGeometry& b, const Plane& p, const Vec3& x, int id,
                   const NarrowphaseParams& params, std::vector<Contact>& out) {
  const double gap = p.n.dot(x) - p.offset;
  if (gap <= params.eps && over(p, x)) out.push_back(curved_contact(a, b, x - gap * p.n, p.n, gap, id));
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
    if (!p.corners) return;
    // A's corners over the face's disc, their gap along n to the face's plane;
    // against A's own disc strictly inside (two equal rims stacked: B's rim
    // points above, over() with round-off room, and not A's again)
    const double along = p.n.dot(axis);
    const double reach = p.disc_radius >= 0.0 ? r * (1.0 - 1e-9) : r;
    for (std::size_t i = 0; i < p.corners->size(); ++i) {
      const Vec3& v = (*p.corners)[i];
      const double gap = (centre - v).dot(axis) / along;
      if (gap <= params.eps && (v + gap * p.n - centre).norm() <= reach)
        out.push_back(curved_contact(a, b, v, p.n, gap, (*p.corner_ids)[i]));
    }
    return;
  }
  point_contact(a, b, p, centre - (r / tilt) * in_face, 16 * face + 8, params, out);
}

// How far below the GJK / EPA distance a face's separation may be and still
// realise it: eps_feasible (round-off of resting contact) plus EPA's stop,
// 1e-9 of the scale (geometry/gjk.hpp), with room.
double realised_tolerance(const NarrowphaseParams& params, double reach) {
  return params.eps_feasible + 1e-8 * (1.0 + reach);
}

// The facet of pa that realises the pair's signed distance: B's separation
// from the facet's plane (B's support point along -n) equals the GJK / EPA
// distance to within realised_tolerance (no facet plane separates more: the
// distance is the largest separation over all directions). Found from the
// facets' planes, not from GJK's normal, which is arbitrary when the shapes
// touch exactly (resting contact: distance 0). As a Plane over its polygon;
// false if no facet realises it (an edge or a corner of pa is closest).
bool facing_facet(const BodyGeometry& a, const Polyhedron& pa, const BodyGeometry& b, double distance,
                  double tolerance, std::vector<Vec3>& polygon, Plane& p) {
  int best = -1;
  double best_separation = -INFINITY;
  for (std::size_t f = 0; f < pa.faces.size(); ++f) {
    const PolyFace& face = pa.faces[f];
    const Vec3 n = a.pose.rotate(face.normal);
    const Vec3 low = b.pose.to_world(support(*b.shape, b.pose.orientation.conjugate() * (-n)));
    const double separation = n.dot(low) - (face.offset + n.dot(a.pose.position));
    if (separation > best_separation) best_separation = separation, best = static_cast<int>(f);
  }
  if (best < 0 || best_separation < distance - tolerance) return false;
  const PolyFace& face = pa.faces[best];
  thread_local std::vector<int> ids;
  polygon.clear();
  ids.clear();
  for (int v : face.loop) {
    polygon.push_back(a.pose.to_world(pa.vertices[v]));
    ids.push_back(64 + v);
  }
  p.n = a.pose.rotate(face.normal);
  p.offset = p.n.dot(polygon.front());
  p.polygon = &polygon;
  p.corners = &polygon;
  p.corner_ids = &ids;
  return true;
}

// A cylinder lying on a facet (its side within eps of parallel to the plane)
// touches along the segment between its rims' lowest points: that segment
// clipped to the facet polygon (Cyrus-Beck), its ends the contacts (numbered
// as the rims' lowest points where not clipped, 40 and 41 where clipped), so
// a can lying across a table's edge is held up to the edge. False if the
// cylinder is not lying.
bool lying_on_facet(const BodyGeometry& a, const BodyGeometry& b, const Plane& p, const Cylinder& cb,
                    const NarrowphaseParams& params, std::vector<Contact>& out) {
  const Mat3 R = b.pose.orientation.toRotationMatrix();
  const Vec3 axis = R.col(2);
  const double along = p.n.dot(axis);
  if (std::abs(along) * cb.height > params.eps || std::abs(along) > kFlatTilt) return false;
  const Vec3 in_face = p.n - along * axis;
  const Vec3 low = -(cb.radius / in_face.norm()) * in_face;  // from a face's centre to its lowest rim point
  const Vec3 half(0.0, 0.0, 0.5 * cb.height);
  const Vec3 x0 = b.pose.to_world(cb.centre - half) + low, x1 = b.pose.to_world(cb.centre + half) + low;
  double lo = 0.0, hi = 1.0;
  const std::vector<Vec3>& v = *p.polygon;
  for (std::size_t i = 0; i < v.size() && lo <= hi; ++i) {
    const Vec3 inward = p.n.cross(v[(i + 1) % v.size()] - v[i]);
    const double f0 = inward.dot(x0 - v[i]), f1 = inward.dot(x1 - v[i]);
    if (f0 < 0.0 && f1 < 0.0) return true;  // the whole segment is off the facet
    if (f0 < 0.0) lo = std::max(lo, f0 / (f0 - f1));
    else if (f1 < 0.0) hi = std::min(hi, f0 / (f0 - f1));
  }
  if (lo > hi) return true;
  const Plane whole{p.n, p.offset};
  point_contact(a, b, whole, x0 + lo * (x1 - x0), lo == 0.0 ? 8 : 40, params, out);
  if (hi > lo) point_contact(a, b, whole, x0 + hi * (x1 - x0), hi == 1.0 ? 24 : 41, params, out);
  return true;
}

// A cylinder's flat faces (bottom 0, top 1) or a cone's base (0): centre,
// outward normal (world), radius.
struct FlatFace {
  Vec3 centre, out;
  double radius;
  int face;
};

int flat_faces(const BodyGeometry& g, FlatFace faces[2]) {
  const Vec3 axis = g.pose.rotate(Vec3::UnitZ());
  if (const auto* c = std::get_if<Cylinder>(g.shape)) {
    const Vec3 half(0.0, 0.0, 0.5 * c->height);
    faces[0] = {g.pose.to_world(c->centre - half), -axis, c->radius, 0};
    faces[1] = {g.pose.to_world(c->centre + half), axis, c->radius, 1};
    return 2;
  }
  const Cone& k = std::get<Cone>(*g.shape);
  faces[0] = {g.pose.to_world(k.centre), -axis, k.radius, 0};
  return 1;
}

// B's rims (and a cone's apex) on the plane p of A's half-space, facet or face.
void rims_of(const BodyGeometry& a, const BodyGeometry& b, const Plane& p, const NarrowphaseParams& params,
             std::vector<Contact>& out) {
  if (const auto* c = std::get_if<Cylinder>(b.shape)) {
    const Vec3 half(0.0, 0.0, 0.5 * c->height);
    rim(a, b, p, c->centre - half, c->radius, 0, params, out);
    rim(a, b, p, c->centre + half, c->radius, 1, params, out);
    return;
  }
  const Cone& k = std::get<Cone>(*b.shape);
  rim(a, b, p, k.centre, k.radius, 0, params, out);
  point_contact(a, b, p, b.pose.to_world(k.centre + Vec3(0.0, 0.0, k.height)), 32, params, out);
}

// The pair's distance by GJK / EPA; within eps, manifold(d, reach) adds the
// contacts of the face that realises it, and the GJK point stands for the
// pair when it adds none.
template <class Manifold>
void manifold_or_gjk(const BodyGeometry& a, const BodyGeometry& b, const NarrowphaseParams& params,
                     std::vector<Contact>& out, Manifold manifold) {
  const double reach = bounding_radius(*a.shape) + bounding_radius(*b.shape);
  if ((a.pose.position - b.pose.position).norm() > reach + params.eps) return;  // bounding spheres apart
  const ConvexDistance d = shape_distance(*a.shape, a.pose, *b.shape, b.pose);
  if (d.distance > params.eps) return;
  const std::size_t first = out.size();
  manifold(d, reach);
  if (out.size() == first) out.push_back(curved_contact(a, b, d.point_a, d.normal, d.distance, 0));
}

// A cylinder or cone against a polyhedron: rim points over the facet it faces
// (a lying cylinder's clipped line), else the GJK point.
void facet_rims(const BodyGeometry& a, const Polyhedron& pa, const BodyGeometry& b, const NarrowphaseParams& params,
                std::vector<Contact>& out) {
  manifold_or_gjk(a, b, params, out, [&](const ConvexDistance& d, double reach) {
    thread_local std::vector<Vec3> polygon;
    Plane p{};
    if (!facing_facet(a, pa, b, d.distance, realised_tolerance(params, reach), polygon, p)) return;
    const auto* cylinder = std::get_if<Cylinder>(b.shape);
    if (!cylinder || !lying_on_facet(a, b, p, *cylinder, params, out)) rims_of(a, b, p, params, out);
  });
}

// Flat faces of two curved kinds (cylinders, cones): the face, of either body,
// whose plane realises the pair's distance (as facing_facet) is the plane; the
// other body's rim points over its disc and, lying flat on it, the face's own
// rim points under the other's face count (a can on a can: the smaller rim).
// The contacts name the face's body as A. Else the GJK point.
void flat_on_flat(const BodyGeometry& a, const BodyGeometry& b, const NarrowphaseParams& params,
                  std::vector<Contact>& out) {
  manifold_or_gjk(a, b, params, out, [&](const ConvexDistance& d, double reach) {
    FlatFace faces[2][2];
    const int count[2] = {flat_faces(a, faces[0]), flat_faces(b, faces[1])};
    const BodyGeometry* body[2] = {&a, &b};
    int best_body = -1, best_face = -1;
    double best_separation = -INFINITY;
    for (int i = 0; i < 2; ++i)
      for (int f = 0; f < count[i]; ++f) {
        const BodyGeometry& other = *body[1 - i];
        const Vec3& n = faces[i][f].out;
        const Vec3 low = other.pose.to_world(support(*other.shape, other.pose.orientation.conjugate() * (-n)));
        const double separation = n.dot(low - faces[i][f].centre);
        // B's face must beat A's by eps_feasible: a tie (a can on a can) keeps A's from step to step
        if (separation > best_separation + (i == 1 ? params.eps_feasible : 0.0))
          best_separation = separation, best_body = i, best_face = f;
      }
    if (best_body < 0 || best_separation < d.distance - realised_tolerance(params, reach)) return;
    const FlatFace& face = faces[best_body][best_face];
    const BodyGeometry& base = *body[best_body];
    const Mat3 R = base.pose.orientation.toRotationMatrix();
    thread_local std::vector<Vec3> corners;
    thread_local std::vector<int> ids;
    corners.clear();
    ids.clear();
    for (int k = 0; k < kRimPoints; ++k) {
      const double angle = 2.0 * std::numbers::pi * k / kRimPoints;
      corners.push_back(face.centre + face.radius * (std::cos(angle) * R.col(0) + std::sin(angle) * R.col(1)));
      ids.push_back(64 + 16 * face.face + k);
    }
    Plane p{face.out, face.out.dot(face.centre)};
    p.disc_centre = face.centre;
    p.disc_radius = face.radius;
    p.corners = &corners;
    p.corner_ids = &ids;
    rims_of(base, *body[1 - best_body], p, params, out);
  });
}

// A cylinder or cone against a half-space: its rims on the plane.
void plane_rims(const BodyGeometry& a, const HalfSpace& plane, const BodyGeometry& b, const NarrowphaseParams& params,
                std::vector<Contact>& out) {
  const Plane p = world_plane(a, plane);
  if (p.n.dot(b.pose.position) - p.offset > bounding_radius(*b.shape) + params.eps) return;
  rims_of(a, b, p, params, out);
}

}  // namespace

void find_contacts_flat(const BodyGeometry& a, const Cylinder&, const BodyGeometry& b, const Cylinder&,
                        const NarrowphaseParams& params, std::vector<Contact>& out) {
  flat_on_flat(a, b, params, out);
}
void find_contacts_flat(const BodyGeometry& a, const Cylinder&, const BodyGeometry& b, const Cone&,
                        const NarrowphaseParams& params, std::vector<Contact>& out) {
  flat_on_flat(a, b, params, out);
}
void find_contacts_flat(const BodyGeometry& a, const Cone&, const BodyGeometry& b, const Cone&,
                        const NarrowphaseParams& params, std::vector<Contact>& out) {
  flat_on_flat(a, b, params, out);
}

void find_contacts_rim(const BodyGeometry& a, const Polyhedron& pa, const BodyGeometry& b, const Cylinder&,
                       const NarrowphaseParams& params, std::vector<Contact>& out) {
  facet_rims(a, pa, b, params, out);
}

void find_contacts_rim(const BodyGeometry& a, const Polyhedron& pa, const BodyGeometry& b, const Cone&,
                       const NarrowphaseParams& params, std::vector<Contact>& out) {
  facet_rims(a, pa, b, params, out);
}

void find_contacts_rim(const BodyGeometry& a, const HalfSpace& plane, const BodyGeometry& b, const Cylinder&,
                       const NarrowphaseParams& params, std::vector<Contact>& out) {
  plane_rims(a, plane, b, params, out);
}

void find_contacts_rim(const BodyGeometry& a, const HalfSpace& plane, const BodyGeometry& b, const Cone&,
                       const NarrowphaseParams& params, std::vector<Contact>& out) {
  plane_rims(a, plane, b, params, out);
}

}  // namespace pegsim
