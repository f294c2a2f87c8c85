// Contacts of the round kinds (sphere, capsule, disc, 2D capsule: a core
// point or segment and a radius) with each other, half-spaces and polytopes
// (collision/narrowphase_curved.hpp says what a curved contact is).
//
// A round shape's distance to anything is its core's distance minus its
// radius, exactly, along the same normal (the shape is the core's radius
// neighbourhood); so each routine finds the core's closest points and moves
// A's (or B's) point out by the radius. Output order: core end 0, end 1, then
// the interior point.
#include "collision/narrowphase_curved.hpp"
#include "geometry/distance.hpp"
#include "geometry/gjk.hpp"
#include "geometry/plane_height.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace pegsim {

RoundCore world_core(const RoundCore& k, const Pose& pose) {
  return RoundCore{pose.to_world(k.p), pose.to_world(k.q), k.radius};
}

Contact curved_contact(const BodyGeometry& a, const BodyGeometry& b, const Vec3& point_a, const Vec3& normal,
                       double gap, int point) {
  Contact c;
  c.body_a = a.index;
  c.body_b = b.index;
  c.kind = FeatureKind::Curved;
  c.normal = normal;
  c.gap = gap;
  c.point_a = point_a;
  c.point_b = point_a + gap * normal;
  c.features.feature_a = -1;
  c.features.feature_b = point;
  c.features.applicability = 1.0;
  c.features.primary = true;
  return c;
}

namespace {

bool degenerate(const RoundCore& k) { return k.p == k.q; }

// Closest points of the segments [p1, q1] and [p2, q2] (thesis Algorithm 7,
// geometry/distance.hpp), as parameters s, t in [0, 1]; a degenerate segment
// is a point.
void closest_parameters(const Vec3& p1, const Vec3& q1, const Vec3& p2, const Vec3& q2, double& s, double& t) {
  const SegmentPair pair = closest_points_segments(p1, q1, p2, q2);
  s = pair.s, t = pair.t;
}

// A unit vector from x towards y; when they coincide, one perpendicular to
// the cores (in the plane for 2D shapes), so that the contact still has a normal.
Vec3 direction(const Vec3& x, const Vec3& y, const Vec3& along, bool planar) {
  const Vec3 d = y - x;
  const double n = d.norm();
  if (n > 0.0) return d / n;
  if (planar) return along.squaredNorm() > 0.0 ? Vec3(-along.y(), along.x(), 0.0).normalized() : Vec3::UnitY();
  if (along.squaredNorm() == 0.0) return Vec3::UnitZ();
  const Vec3 u = along.cross(std::abs(along.z()) < 0.9 * along.norm() ? Vec3::UnitZ() : Vec3::UnitX());
  return u.normalized();
}

// The contact between the core points x (of A) and y (of B).
void core_points(const BodyGeometry& a, const RoundCore& ca, const BodyGeometry& b, const RoundCore& cb,
                 const Vec3& x, const Vec3& y, int point, const NarrowphaseParams& params, std::vector<Contact>& out) {
  const bool planar = x.z() == 0.0 && y.z() == 0.0 && (ca.q - ca.p).z() == 0.0 && (cb.q - cb.p).z() == 0.0;
  const Vec3 n = direction(x, y, (ca.q - ca.p) + (cb.q - cb.p), planar);
  const double gap = (y - x).norm() - ca.radius - cb.radius;
  if (gap <= params.eps) out.push_back(curved_contact(a, b, x + ca.radius * n, n, gap, point));
}

// sin of the angle below which two capsules' axes count as parallel
constexpr double kParallel = 1e-6;

}  // namespace

void round_round(const BodyGeometry& a, const RoundCore& ca, const BodyGeometry& b, const RoundCore& cb,
                 const NarrowphaseParams& params, std::vector<Contact>& out) {
  const Vec3 d1 = ca.q - ca.p, d2 = cb.q - cb.p;
  if (!degenerate(ca) && !degenerate(cb) && d1.cross(d2).norm() <= kParallel * d1.norm() * d2.norm()) {
    // parallel cores: B's span along A's axis, clipped to A's, held at both ends
    const double len2 = d1.squaredNorm();
    double t0 = (cb.p - ca.p).dot(d1) / len2, t1 = (cb.q - ca.p).dot(d1) / len2;
    if (t0 > t1) std::swap(t0, t1);
    const double lo = std::clamp(t0, 0.0, 1.0), hi = std::clamp(t1, 0.0, 1.0);
    if (hi - lo > 1e-9) {
      int point = 0;
      for (double s : {lo, hi}) {
        const Vec3 x = ca.p + s * d1;
        const double t = std::clamp((x - cb.p).dot(d2) / d2.squaredNorm(), 0.0, 1.0);
        core_points(a, ca, b, cb, x, cb.p + t * d2, point++, params, out);
      }
      return;
    }
  }
  double s = 0.0, t = 0.0;
  closest_parameters(ca.p, ca.q, cb.p, cb.q, s, t);
  const Vec3 x = ca.p + s * d1, y = cb.p + t * d2;
  const double scale = d1.norm() + d2.norm() + ca.radius + cb.radius;
  if (degenerate(ca) || degenerate(cb) || (y - x).norm() > 1e-12 * scale)
    return core_points(a, ca, b, cb, x, y, 0, params, out);
  // crossing cores: separated along their common normal in 3D; in 2D along
  // the nearest side of the parallelogram A - B (EPA on the extruded cores)
  Vec3 n = d1.cross(d2).normalized();
  double depth = 0.0;
  Vec3 from = x;
  const bool planar = d1.z() == 0.0 && d2.z() == 0.0 && x.z() == 0.0;
  if (planar) {
    const double h = 10.0 * scale;
    SupportMapping sa = SupportMapping::segment(ca.p, ca.q), sb = SupportMapping::segment(cb.p, cb.q);
    const ConvexDistance d = convex_distance(sa.extruded(h), sb.extruded(h));
    n = Vec3(d.normal.x(), d.normal.y(), 0.0).normalized();
    depth = -d.distance;
    from = Vec3(d.point_a.x(), d.point_a.y(), 0.0);
  } else if (n.dot((cb.p + cb.q) - (ca.p + ca.q)) < 0.0) {
    n = -n;
  }
  const double gap = -depth - ca.radius - cb.radius;
  if (gap <= params.eps) out.push_back(curved_contact(a, b, from + ca.radius * n, n, gap, 0));
}

void round_half_space(const BodyGeometry& a, const HalfSpace& plane, const BodyGeometry& b, const RoundCore& cb,
                      bool planar, const NarrowphaseParams& params, std::vector<Contact>& out) {
  const double len = plane.normal.norm();
  const Vec3 n = a.pose.rotate(plane.normal / len);
  if (planar && std::abs(n.z()) > 1e-9) return;  // a 3D half-space never touches a planar body
  const double offset = plane.offset / len + n.dot(a.pose.position);
  const int ends = degenerate(cb) ? 1 : 2;
  for (int e = 0; e < ends; ++e) {
    const Vec3& x = e == 0 ? cb.p : cb.q;
    const double gap = n.dot(x) - offset - cb.radius;
    if (gap <= params.eps) out.push_back(curved_contact(a, b, x - (cb.radius + gap) * n, n, gap, e));
  }
}

namespace {

struct SurfacePoint {
  double distance = 0.0;  // signed: < 0 inside
  Vec3 point = Vec3::Zero();   // on the surface, body frame
  Vec3 normal = Vec3::UnitZ(); // unit, outward (towards x), body frame
};

// the point of segment [p, q] nearest x
Vec3 nearest_on_segment(const Vec3& p, const Vec3& q, const Vec3& x) {
  const Vec3 d = q - p;
  const double dd = d.squaredNorm();
  return dd > 0.0 ? Vec3(p + std::clamp((x - p).dot(d) / dd, 0.0, 1.0) * d) : p;
}

// The signed distance of x from a convex polyhedron (body frame): outside,
// the nearest point over every facet polygon (its plane's foot when inside
// the polygon, else the nearest point of its edges); inside, the shallowest
// facet plane. Exact: a convex solid's nearest surface point is on one facet.
SurfacePoint nearest_on_polyhedron(const Polyhedron& p, const Vec3& x) {
  SurfacePoint best;
  std::size_t shallowest = 0;
  const double height = plane_height(p, x, &shallowest);
  if (height <= 0.0) {
    const PolyFace& f = p.faces[shallowest];
    return SurfacePoint{height, x - height * f.normal, f.normal};
  }
  best.distance = std::numeric_limits<double>::infinity();
  for (const PolyFace& f : p.faces) {
    const double h = f.normal.dot(x) - f.offset;
    if (h < 0.0) continue;  // x is behind this facet: its nearest point is on a facet x sees
    const Vec3 foot = x - h * f.normal;
    bool inside = true;
    for (std::size_t i = 0; i < f.loop.size() && inside; ++i) {
      const Vec3& u = p.vertices[static_cast<std::size_t>(f.loop[i])];
      const Vec3& v = p.vertices[static_cast<std::size_t>(f.loop[(i + 1) % f.loop.size()])];
      inside = (v - u).cross(foot - u).dot(f.normal) >= 0.0;
    }
    Vec3 nearest = foot;
    if (!inside) {
      double d2 = std::numeric_limits<double>::infinity();
      for (std::size_t i = 0; i < f.loop.size(); ++i) {
        const Vec3 y = nearest_on_segment(p.vertices[static_cast<std::size_t>(f.loop[i])],
                                          p.vertices[static_cast<std::size_t>(f.loop[(i + 1) % f.loop.size()])], x);
        if ((y - x).squaredNorm() < d2) d2 = (y - x).squaredNorm(), nearest = y;
      }
    }
    const double d = (x - nearest).norm();
    if (d < best.distance) best = SurfacePoint{d, nearest, d > 0.0 ? Vec3((x - nearest) / d) : f.normal};
  }
  return best;
}

// The same for a convex polygon in z = 0 (body frame): its edges.
SurfacePoint nearest_on_polygon(const Polygon& p, const Vec3& x3) {
  const Vec2 x(x3.x(), x3.y());
  double height = -std::numeric_limits<double>::infinity();
  int shallowest = 0;
  for (int e = 0; e < p.size(); ++e) {
    const double h = p.edge_normals[static_cast<std::size_t>(e)].dot(x - p.vertices[static_cast<std::size_t>(e)]);
    if (h > height) height = h, shallowest = e;
  }
  if (height <= 0.0) {
    const Vec3 n = lift(p.edge_normals[static_cast<std::size_t>(shallowest)]);
    return SurfacePoint{height, lift(x) - height * n, n};
  }
  SurfacePoint best;
  best.distance = std::numeric_limits<double>::infinity();
  for (int e = 0; e < p.size(); ++e) {
    const Vec3 y = nearest_on_segment(lift(p.vertices[static_cast<std::size_t>(e)]),
                                      lift(p.vertices[static_cast<std::size_t>(p.next(e))]), lift(x));
    const double d = (lift(x) - y).norm();
    if (d < best.distance) best = SurfacePoint{d, y, d > 0.0 ? Vec3((lift(x) - y) / d) : lift(p.edge_normals[static_cast<std::size_t>(e)])};
  }
  return best;
}

// Contacts of core ends (and the interior point `inner`, when nearer than
// both ends) against a polytope of body a; `surface` gives the body-frame
// signed nearest point.
template <class Nearest>
void core_against(const BodyGeometry& a, const BodyGeometry& b, const RoundCore& cb, Nearest&& surface,
                  const NarrowphaseParams& params, std::vector<Contact>& out,
                  const ConvexDistance* inner) {
  const int ends = degenerate(cb) ? 1 : 2;
  double nearest_end = std::numeric_limits<double>::infinity();
  for (int e = 0; e < ends; ++e) {
    const SurfacePoint s = surface(a.pose.to_body(e == 0 ? cb.p : cb.q));
    const double gap = s.distance - cb.radius;
    nearest_end = std::min(nearest_end, gap);
    if (gap <= params.eps) out.push_back(curved_contact(a, b, a.pose.to_world(s.point), a.pose.rotate(s.normal), gap, e));
  }
  if (!inner) return;
  const double gap = inner->distance - cb.radius;
  const double margin = 1e-9 * std::max(1.0, (cb.q - cb.p).norm());  // not an end's contact again
  if (gap <= params.eps && gap < nearest_end - margin)
    out.push_back(curved_contact(a, b, inner->point_a, inner->normal, gap, 2));
}

}  // namespace

void round_polyhedron(const BodyGeometry& a, const Polyhedron& pa, const BodyGeometry& b, const RoundCore& cb,
                      const NarrowphaseParams& params, std::vector<Contact>& out) {
  const double reach = pa.bounding_radius + cb.radius + params.eps;
  const Vec3 o = a.pose.position;
  if ((nearest_on_segment(cb.p, cb.q, o) - o).norm() > reach) return;  // bounding spheres apart
  ConvexDistance inner;
  if (!degenerate(cb))  // the segment's closest approach: GJK, exact for a segment and a polytope
    inner = convex_distance(SupportMapping::shape(*a.shape, a.pose), SupportMapping::segment(cb.p, cb.q));
  core_against(a, b, cb, [&](const Vec3& x) { return nearest_on_polyhedron(pa, x); }, params, out,
               degenerate(cb) ? nullptr : &inner);
}

void round_polygon(const BodyGeometry& a, const Polygon& pa, const BodyGeometry& b, const RoundCore& cb,
                   const NarrowphaseParams& params, std::vector<Contact>& out) {
  const double reach = pa.bounding_radius + cb.radius + params.eps;
  const Vec3 o = a.pose.position;
  if ((nearest_on_segment(cb.p, cb.q, o) - o).norm() > reach) return;
  ConvexDistance inner;
  if (!degenerate(cb)) {
    // the segment's closest approach to the polygon: over its edges (2D), or
    // the separating axis of least overlap when the segment crosses it
    inner.distance = std::numeric_limits<double>::infinity();
    const Vec3 pl = a.pose.to_body(cb.p), ql = a.pose.to_body(cb.q);
    for (int e = 0; e < pa.size(); ++e) {
      const Vec3 u = lift(pa.vertices[static_cast<std::size_t>(e)]), v = lift(pa.vertices[static_cast<std::size_t>(pa.next(e))]);
      double s = 0.0, t = 0.0;
      closest_parameters(u, v, pl, ql, s, t);
      const Vec3 x = u + s * (v - u), y = pl + t * (ql - pl);
      const double d = (y - x).norm();
      if (d < inner.distance) {
        inner.distance = d;
        inner.normal = d > 0.0 ? Vec3((y - x) / d) : lift(pa.edge_normals[static_cast<std::size_t>(e)]);
        inner.point_a = x;
      }
    }
    // the faces of polygon - segment have the polygon's outward normals and the
    // core's two sides: the core crosses the polygon when the support of the
    // difference is positive along all of them, and then the least is its depth
    double least = std::numeric_limits<double>::infinity();
    Vec3 least_axis = Vec3::UnitX(), least_at = pl;
    const Vec3 side = Vec3(-(ql - pl).y(), (ql - pl).x(), 0.0).normalized();
    std::vector<Vec3> axes{side, -side};
    for (const Vec2& n : pa.edge_normals) axes.push_back(lift(n));
    for (const Vec3& axis : axes) {
      double a_max = -std::numeric_limits<double>::infinity();
      for (const Vec2& w : pa.vertices) a_max = std::max(a_max, axis.dot(lift(w)));
      const Vec3& at = axis.dot(pl) <= axis.dot(ql) ? pl : ql;
      const double depth = a_max - axis.dot(at);
      if (depth < least) least = depth, least_axis = axis, least_at = at;
    }
    if (least > 0.0) {
      inner.distance = -least;
      inner.normal = least_axis;
      inner.point_a = least_at + least * least_axis;
    }
    inner.point_a = a.pose.to_world(inner.point_a);
    inner.normal = a.pose.rotate(inner.normal);
  }
  core_against(a, b, cb, [&](const Vec3& x) { return nearest_on_polygon(pa, x); }, params, out,
               degenerate(cb) ? nullptr : &inner);
}

}  // namespace pegsim
