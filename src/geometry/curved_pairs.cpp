// Penetration and intersection of pairs with a curved kind (geometry/curved_pairs.hpp).
#include "geometry/curved_pairs.hpp"

#include "geometry/gjk.hpp"
#include "geometry/plane_height.hpp"

#include <algorithm>
#include <limits>
#include <utility>

namespace pegsim {

namespace {

// The plane of a half-space in world: n . x <= offset.
std::pair<Vec3, double> world_plane(const HalfSpace& h, const Pose& ph) {
  const double len = h.normal.norm();
  const Vec3 n = ph.rotate(h.normal / len);
  return {n, h.offset / len + n.dot(ph.position)};
}

Vec3 world_support(const Shape& s, const Pose& pose, const Vec3& d) {
  return pose.to_world(support(s, pose.orientation.conjugate() * d));
}

bool planar(const Shape& s) { return kind_info(s).dims == ShapeDims::Planar; }

// the half-space as A
PenetrationAxis plane_axis(const HalfSpace& h, const Pose& ph, const Shape& b, const Pose& pb) {
  const auto [n, offset] = world_plane(h, ph);
  if (planar(b) && n.z() != 0.0) return {};  // a 3D half-space never touches a planar body
  const double lowest = n.dot(world_support(b, pb, -n));
  return PenetrationAxis{offset - lowest, n, offset, lowest};
}

// whether a world point is in the shape (body frame tests)
bool inside(const Shape& s, const Pose& pose, const Vec3& x) {
  const Vec3 y = pose.to_body(x);
  if (const auto* h = std::get_if<HalfSpace>(&s)) return h->normal.dot(y) <= h->offset;
  if (const auto* p = std::get_if<Polyhedron>(&s)) return plane_height(*p, y) <= 0.0;
  if (const auto* p = std::get_if<Polygon>(&s)) {
    const Vec2 y2(y.x(), y.y());
    for (int e = 0; e < p->size(); ++e)
      if (p->edge_normals[static_cast<std::size_t>(e)].dot(y2 - p->vertices[static_cast<std::size_t>(e)]) > 0.0) return false;
    return true;
  }
  return std::visit(
      [&](const auto& k) {
        if constexpr (requires { contains(k, y); }) return contains(k, y);
        else return false;
      },
      s);
}

}  // namespace

PenetrationAxis curved_penetration(const Shape& a, const Pose& pa, const Shape& b, const Pose& pb) {
  if (const auto* h = std::get_if<HalfSpace>(&a)) return plane_axis(*h, pa, b, pb);
  if (const auto* h = std::get_if<HalfSpace>(&b)) {  // turned round, as penetration.cpp's swapped()
    PenetrationAxis r = plane_axis(*h, pb, a, pa);
    r.normal = -r.normal;
    const double a_max = -r.b_min;
    r.b_min = -r.a_max;
    r.a_max = a_max;
    return r;
  }
  const ConvexDistance d = shape_distance(a, pa, b, pb);
  PenetrationAxis r;
  r.depth = -d.distance;
  r.normal = d.normal;
  r.a_max = d.normal.dot(world_support(a, pa, d.normal));
  r.b_min = d.normal.dot(world_support(b, pb, -d.normal));
  return r;
}

ShapeIntersection curved_intersection(const Shape& a, const Pose& pa, const Shape& b, const Pose& pb) {
  if (!(curved_penetration(a, pa, b, pb).depth > 0.0)) return {};  // apart or touching: exactly 0
  Aabb box = Aabb::everything();
  for (const auto& [s, p] : {std::pair{&a, &pa}, std::pair{&b, &pb}}) {
    const Aabb w = world_bounds(*s, *p);
    box.lo = box.lo.cwiseMax(w.lo);
    box.hi = box.hi.cwiseMin(w.hi);
  }
  const bool flat = planar(a) || planar(b);
  const Vec3 cell = (box.hi - box.lo) / kQuadrature;
  if (!((cell.array() > 0.0).head(flat ? 2 : 3).all())) return {};
  const int nz = flat ? 1 : kQuadrature;
  long count = 0;
  Vec3 sum = Vec3::Zero();
  for (int i = 0; i < kQuadrature; ++i)
    for (int j = 0; j < kQuadrature; ++j)
      for (int k = 0; k < nz; ++k) {
        const Vec3 x = box.lo + Vec3((i + 0.5) * cell.x(), (j + 0.5) * cell.y(), flat ? -box.lo.z() : (k + 0.5) * cell.z());
        if (inside(a, pa, x) && inside(b, pb, x)) ++count, sum += x;
      }
  ShapeIntersection r;
  if (count == 0) return r;
  r.measure = static_cast<double>(count) * cell.x() * cell.y() * (flat ? 1.0 : cell.z());
  r.centroid = sum / static_cast<double>(count);
  return r;
}

}  // namespace pegsim
