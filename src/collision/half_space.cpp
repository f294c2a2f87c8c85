// Vertex-plane contacts: every vertex of a polyhedron or polygon whose signed
// distance to a half-space's plane is <= eps (penetrating vertices included).
//
// Contact: body_a = the half-space's owner, feature_a = 0 (its one facet),
// feature_b = the vertex, normal = the plane's outward normal in world,
// gap = signed plane distance, point_b = the vertex, point_a its projection.
//
// Applicability is eq. 3.4 (3D) / eq. 3.3 (2D) with the plane normal. A
// half-space is always feasible: its facet's Voronoi region is all of space
// and it has no other feature that a penetrating vertex could be against, so
// thesis 3.3's reason for marking deep vertices infeasible (they belong to
// another facet) does not arise; primary = applicable.
//
// A half-space whose normal leaves the z = 0 plane has no contact with a
// planar body (planar contacts must have normal.z() == 0).
//
// Output order: vertex index.
#include "collision/narrowphase.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <utility>

namespace pegsim {
namespace {

Contact plane_contact(const BodyGeometry& a, const BodyGeometry& b, int vertex, const Vec3& n,
                      const Vec3& p, double psi, double appl, const NarrowphaseParams& params) {
  Contact c;
  c.body_a = a.index;
  c.body_b = b.index;
  c.kind = FeatureKind::VertexPlane;
  c.features.feature_a = 0;
  c.features.feature_b = vertex;
  c.normal = n;
  c.gap = psi;
  c.point_b = p;
  c.point_a = p - psi * n;
  c.features.applicability = appl;
  c.features.primary = appl >= params.eps_theta;
  return c;
}

void polyhedron_vertices(const BodyGeometry& a, const Vec3& n, double offset, const BodyGeometry& b,
                         const Polyhedron& poly, const NarrowphaseParams& params,
                         std::vector<Contact>& out) {
  const Mat3 R = b.pose.orientation.toRotationMatrix();
  thread_local std::vector<Vec3> world;
  world.resize(poly.vertices.size());
  for (std::size_t i = 0; i < poly.vertices.size(); ++i) world[i] = R * poly.vertices[i] + b.pose.position;
  for (std::size_t i = 0; i < world.size(); ++i) {
    const double psi = n.dot(world[i]) - offset;
    if (!(psi <= params.eps)) continue;
    double appl = std::numeric_limits<double>::infinity();  // eq. 3.4
    for (int k : poly.vertex_neighbors[i]) {
      const Vec3 d = world[static_cast<std::size_t>(k)] - world[i];
      const double len = d.norm();
      if (len > 0.0) appl = std::min(appl, n.dot(d) / len);
    }
    out.push_back(plane_contact(a, b, static_cast<int>(i), n, world[i], psi, appl, params));
  }
}

void polygon_vertices(const BodyGeometry& a, const Vec3& n3, double offset, const BodyGeometry& b,
                      const Polygon& poly, const NarrowphaseParams& params, std::vector<Contact>& out) {
  const Vec2 n(n3.x(), n3.y());
  thread_local std::vector<Vec2> world;
  world.resize(poly.vertices.size());
  for (std::size_t i = 0; i < poly.vertices.size(); ++i) world[i] = b.pose.to_world_2d(poly.vertices[i]);
  for (int i = 0; i < poly.size(); ++i) {
    const Vec2& v = world[static_cast<std::size_t>(i)];
    const double psi = n.dot(v) - offset;
    if (!(psi <= params.eps)) continue;
    double appl = std::numeric_limits<double>::infinity();  // eq. 3.3
    for (int k : {poly.prev(i), poly.next(i)}) {
      const Vec2 d = world[static_cast<std::size_t>(k)] - v;
      const double len = d.norm();
      if (len > 0.0) appl = std::min(appl, n.dot(d) / len);
    }
    out.push_back(plane_contact(a, b, i, lift(n), lift(v), psi, appl, params));
  }
}

}  // namespace

namespace {

// The plane in world: n . x = offset.
std::pair<Vec3, double> world_plane(const BodyGeometry& a, const HalfSpace& plane) {
  const double len = plane.normal.norm();
  const Vec3 n = a.pose.rotate(plane.normal / len);
  return {n, plane.offset / len + n.dot(a.pose.position)};
}

}  // namespace

void find_contacts_half_space(const BodyGeometry& a, const HalfSpace& plane, const BodyGeometry& b,
                              const Polyhedron& poly, const NarrowphaseParams& params, std::vector<Contact>& out) {
  const auto [n, offset] = world_plane(a, plane);
  // b's bounding sphere entirely beyond eps: nothing.
  if (n.dot(b.pose.position) - offset > poly.bounding_radius + params.eps) return;
  polyhedron_vertices(a, n, offset, b, poly, params, out);
}

void find_contacts_half_space(const BodyGeometry& a, const HalfSpace& plane, const BodyGeometry& b,
                              const Polygon& polygon, const NarrowphaseParams& params, std::vector<Contact>& out) {
  const auto [n, offset] = world_plane(a, plane);
  if (std::abs(n.z()) > 1e-9) return;
  if (n.dot(b.pose.position) - offset > polygon.bounding_radius + params.eps) return;
  polygon_vertices(a, n, offset, b, polygon, params, out);
}

}  // namespace pegsim
