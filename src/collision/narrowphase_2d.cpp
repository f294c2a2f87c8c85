// 2D contact determination between two convex polygons (thesis 3.5,
// Algorithm 5): vertices of each polygon against the edges of the other.
//
// A vertex is near an edge when its distance to the edge segment (Algorithm 3)
// is <= eps; the gap is the signed line distance psi = eta . (v - v_b1) of
// eq. 3.7. Applicability is eq. 3.3 over the vertex's two neighbours;
// feasibility is the region of thesis 3.3 with phi = theta (see
// narrowphase_3d.cpp): with p the nearest point of the edge segment and
// w = v - (p - eps_f eta), feasible iff eta . w >= -sin(phi) |w|.
//
// Output order: vertex-edge contacts on A's edges (edge index, then vertex
// index), then on B's edges. Normals and points lie in the z = 0 plane.
#include "collision/narrowphase.hpp"
#include "geometry/distance.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace pegsim {
namespace {

struct WorldPolygon {
  const BodyGeometry* body = nullptr;
  const Polygon* poly = nullptr;
  Vec2 centre;
  double c = 1.0, s = 0.0;  // rotation about z
  std::vector<Vec2>* vertices = nullptr;

  void fill(const BodyGeometry& b, const Polygon& p, std::vector<Vec2>& buffer) {
    body = &b;
    poly = &p;
    centre = Vec2(b.pose.position.x(), b.pose.position.y());
    const Vec2 x_axis = b.pose.rotate_2d(Vec2::UnitX());
    c = x_axis.x();
    s = x_axis.y();
    buffer.resize(p.vertices.size());
    for (std::size_t i = 0; i < p.vertices.size(); ++i) buffer[i] = rotate(p.vertices[i]) + centre;
    vertices = &buffer;
  }
  Vec2 rotate(const Vec2& d) const { return Vec2(c * d.x() - s * d.y(), s * d.x() + c * d.y()); }
  const Vec2& v(int i) const { return (*vertices)[static_cast<std::size_t>(i)]; }
};

bool feasible(const Vec2& eta, const Vec2& nearest, const Vec2& v, const NarrowphaseParams& params) {
  const Vec2 w = v - nearest + params.eps_feasible * eta;
  const double h = eta.dot(w);
  if (h >= 0.0) return true;
  return h >= -std::max(0.0, -params.eps_theta) * w.norm();
}

// Eq. 3.3.
double vertex_applicability(const WorldPolygon& body, int vertex, const Vec2& eta) {
  const Vec2& v = body.v(vertex);
  double appl = std::numeric_limits<double>::infinity();
  for (int k : {body.poly->prev(vertex), body.poly->next(vertex)}) {
    const Vec2 d = body.v(k) - v;
    const double len = d.norm();
    if (len > 0.0) appl = std::min(appl, eta.dot(d) / len);
  }
  return appl;
}

// Vertices of `vb` against the edges of `ea`.
void vertex_edge(const WorldPolygon& ea, const WorldPolygon& vb, const NarrowphaseParams& params,
                 std::vector<Contact>& out) {
  const double eps = params.eps;
  // Candidate vertices: inside ea's bounding circle grown by eps.
  thread_local std::vector<int> candidates;
  candidates.clear();
  const double r = ea.poly->bounding_radius + eps;
  for (int i = 0; i < vb.poly->size(); ++i)
    if ((vb.v(i) - ea.centre).squaredNorm() <= r * r) candidates.push_back(i);
  if (candidates.empty()) return;

  const double reach = vb.poly->bounding_radius + eps;
  const int n = ea.poly->size();
  for (int e = 0; e < n; ++e) {
    const Vec2 eta = ea.rotate(ea.poly->edge_normals[static_cast<std::size_t>(e)]);
    const Vec2& a = ea.v(e);
    const Vec2& b = ea.v(ea.poly->next(e));
    // Every vertex of vb is farther than eps from this edge's line.
    const double centre_distance = eta.dot(vb.centre - a);
    if (centre_distance > reach || centre_distance < -reach) continue;
    for (int vi : candidates) {
      const Vec2& p = vb.v(vi);
      const double psi = eta.dot(p - a);  // eq. 3.7
      if (psi > eps || psi < -eps) continue;
      const Vec2 nearest = closest_point_on_segment(a, b, p);
      if (!((p - nearest).squaredNorm() <= eps * eps)) continue;
      Contact c;
      c.body_a = ea.body->index;
      c.body_b = vb.body->index;
      c.kind = FeatureKind::VertexEdge;
      c.features.feature_a = e;
      c.features.feature_b = vi;
      c.normal = lift(eta);
      c.gap = psi;
      c.point_b = lift(p);
      c.point_a = lift(p - psi * eta);
      c.features.applicability = vertex_applicability(vb, vi, eta);
      c.features.primary = c.features.applicability >= params.eps_theta && feasible(eta, nearest, p, params);
      out.push_back(c);
    }
  }
}

}  // namespace

void find_contacts_polygons(const BodyGeometry& a, const Polygon& pa, const BodyGeometry& b,
                            const Polygon& pb, const NarrowphaseParams& params,
                            std::vector<Contact>& out) {
  const double reach = pa.bounding_radius + pb.bounding_radius + params.eps;
  const Vec3 d = a.pose.position - b.pose.position;
  if (d.x() * d.x() + d.y() * d.y() > reach * reach) return;
  thread_local std::vector<Vec2> world_a, world_b;
  WorldPolygon A, B;
  A.fill(a, pa, world_a);
  B.fill(b, pb, world_b);
  vertex_edge(A, B, params, out);
  vertex_edge(B, A, params, out);
}

}  // namespace pegsim
