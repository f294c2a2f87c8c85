// 3D contact determination between two convex polyhedra (thesis 3.6):
// vertex-face (Algorithm 6) in both directions and edge-edge (Algorithm 7 with
// the applicability of eq. 3.5 and the orientation of eq. 3.6).
//
// Decisions recorded here:
//
// * Distances. A vertex is near a facet when its distance to the convex facet
//   polygon (not to the facet's plane) is <= eps; the gap is the signed plane
//   distance psi = eta . (v - x_face) of Algorithm 6. Two edges are near when
//   their segment distance (Algorithm 7) is <= eps.
//
// * Edge-edge contacts whose nearest points lie at an edge end point ARE
//   reported. Section 3.6.2 notes that vertex-edge is a subset of edge-edge
//   detection, and PEG (4.4.3-4.4.4, Algorithms 14 and 16) builds its
//   vertex-edge and vertex-vertex X-constraints from exactly these contacts:
//   C(e_a, e_b) for the edges e_a incident to a vertex v_a that is near e_b, and
//   C(e_a1, e_b1) for edges incident to two nearby vertices. Algorithm 17's
//   edge-edge loop likewise runs over every edge pair within eps. Dropping them
//   here would leave the contact model unable to form those constraints;
//   classifying the configuration (vertex-edge, vertex-vertex) is the contact
//   model's job, and the primary flag already marks the ones that can carry
//   a force. Their gap is the distance between the edges' lines along n
//   (n is perpendicular to both lines, so n . (c_b - c_a) does not depend on
//   where the nearest points lie on the lines).
//
// * Contact points of an edge-edge contact: with c_a, c_b the nearest points of
//   the two segments and m their midpoint, point_a = m - gap/2 n and
//   point_b = m + gap/2 n, so point_b = point_a + gap n holds exactly as the
//   Contact convention requires. When the nearest points are interior to both
//   edges, c_b - c_a is parallel to n and the points are c_a and c_b.
//
// * (Near-)parallel edges, |e_a x e_b| <= 1e-6 |e_a| |e_b| (sine of the angle
//   below 1e-6), are skipped: eq. 3.6's special case, where the vertex-face
//   contacts of the edges' end points carry the constraint. At that threshold
//   the rounding error of the normal e_a x e_b / |e_a x e_b| is at most about
//   1e-16 / 1e-6 = 1e-10 rad, so every reported normal is well conditioned,
//   while edges that are skipped are so close to parallel that over an edge of
//   length L their end points lie within L * 1e-6 of the other edge's line,
//   i.e. the end points' vertex-face contacts are within eps whenever the
//   edges are (up to L * 1e-6, far below any sensible eps).
//
// * Orientation (eq. 3.6): n = +-(e_a x e_b) / |e_a x e_b| with the sign of
//   e_a . O_eb, O_eb = e_b x -(eta_b1 + eta_b2). The thesis's "e_a . O_eb = 0"
//   case is wider than parallel edges: it also holds when e_a x e_b is
//   perpendicular to the bisector of e_b's facets. There the sign is taken from
//   A's edge instead (n . (eta_a1 + eta_a2) > 0, n leaves A); such a normal is
//   far outside e_b's normal cone, so the contact is inapplicable either way.
//
// * Feasibility (thesis 3.3) with phi = theta: the relaxation angle of
//   applicability (sin(phi) = -eps_theta, 0 for eps_theta >= 0) is used as the
//   angle of the feasibility region, and eps_feasible as its depth. A vertex v
//   with nearest facet point p is feasible iff, with w = v - (p - eps_f eta),
//   eta . w >= -sin(phi) |w|. Inside the facet's Voronoi prism p = v - psi eta,
//   and the test reduces to the thesis's psi >= -eps_f; outside it, it is the
//   region "phi below the point eps below the nearest point on f" (Fig. 3.7).
//   The thesis defines no edge-edge feasibility; the same region is used with
//   eta = n, p = c_a, v = c_b (for interior nearest points: gap >= -eps_f).
//
// Output order: vertex-face contacts with A's facets (facet index, then vertex
// index), then with B's facets, then edge-edge (A's edge, then B's edge).
#include "collision/narrowphase.hpp"
#include "geometry/distance.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace pegsim {
namespace {

constexpr double kParallelSine = 1e-6;

// Working data of one body for one call: world vertices and rotation.
struct WorldPolyhedron {
  const BodyGeometry* body = nullptr;
  const Polyhedron* poly = nullptr;
  Mat3 rotation;
  std::vector<Vec3>* vertices = nullptr;  // world frame

  void fill(const BodyGeometry& b, const Polyhedron& p, std::vector<Vec3>& buffer) {
    body = &b;
    poly = &p;
    rotation = b.pose.orientation.toRotationMatrix();
    buffer.resize(p.vertices.size());
    for (std::size_t i = 0; i < p.vertices.size(); ++i)
      buffer[i] = rotation * p.vertices[i] + b.pose.position;
    vertices = &buffer;
  }
  const Vec3& v(int i) const { return (*vertices)[static_cast<std::size_t>(i)]; }
  Vec3 centre() const { return body->pose.position; }
  double radius() const { return poly->bounding_radius; }
};

double feasibility_sine(const NarrowphaseParams& params) { return std::max(0.0, -params.eps_theta); }

// Thesis 3.3 feasibility region (see the header comment).
bool feasible(const Vec3& eta, const Vec3& nearest, const Vec3& v, const NarrowphaseParams& params) {
  const Vec3 w = v - nearest + params.eps_feasible * eta;
  const double h = eta.dot(w);
  if (h >= 0.0) return true;
  return h >= -feasibility_sine(params) * w.norm();
}

// Eq. 3.4: min over the vertex's neighbours v_k of eta . (v_k - v) / |v_k - v|.
double vertex_applicability(const WorldPolyhedron& body, int vertex, const Vec3& eta) {
  double appl = std::numeric_limits<double>::infinity();
  const Vec3& v = body.v(vertex);
  for (int k : body.poly->vertex_neighbors[static_cast<std::size_t>(vertex)]) {
    const Vec3 d = body.v(k) - v;
    const double len = d.norm();
    if (len > 0.0) appl = std::min(appl, eta.dot(d) / len);
  }
  return appl;
}

// Distance from p to the convex facet polygon of `face` (world vertices),
// given psi = eta . (p - x_face). Returns false as soon as it is certain that
// the distance exceeds eps; otherwise the nearest facet point and squared
// distance.
bool near_facet(const WorldPolyhedron& body, const PolyFace& face, const Vec3& eta, const Vec3& p,
                double psi, double eps, Vec3& nearest, double& dist2) {
  const Vec3 q = p - psi * eta;  // projection onto the facet's plane
  const std::size_t n = face.loop.size();
  bool inside = true;
  double best = std::numeric_limits<double>::infinity();
  for (std::size_t i = 0; i < n; ++i) {
    const Vec3& a = body.v(face.loop[i]);
    const Vec3& b = body.v(face.loop[i + 1 == n ? 0 : i + 1]);
    const Vec3 e = b - a;
    // Outward in-plane normal of the loop edge (CCW seen from outside).
    const Vec3 m = e.cross(eta);
    const double s = m.dot(q - a);
    if (s <= 0.0) continue;
    inside = false;
    // q lies outside this edge's line: the whole convex facet is on the other
    // side, so the in-plane distance is at least s / |m|.
    const double mlen2 = m.squaredNorm();
    if (s * s > eps * eps * mlen2) return false;
    // For a point outside a convex polygon the nearest point lies on an edge
    // whose line it is outside of, so only these edges are searched.
    const Vec3 c = closest_point_on_segment(a, b, p);
    const double d2 = (p - c).squaredNorm();
    if (d2 < best) {
      best = d2;
      nearest = c;
    }
  }
  if (inside) {
    nearest = q;
    best = psi * psi;
  }
  dist2 = best;
  return best <= eps * eps;
}

// Vertices of `vb` (those in `candidates`) against the facets of `fa`.
void vertex_face(const WorldPolyhedron& fa, const WorldPolyhedron& vb, const std::vector<int>& candidates,
                 const NarrowphaseParams& params, std::vector<Contact>& out) {
  if (candidates.empty()) return;
  const double eps = params.eps;
  // vb's centre in fa's body frame: cull facets whose plane is farther than
  // vb's bounding sphere (every vertex of vb then has |psi| > eps).
  const Vec3 centre_local = fa.body->pose.to_body(vb.centre());
  const double reach = vb.radius() + eps;
  const std::vector<PolyFace>& faces = fa.poly->faces;
  for (std::size_t f = 0; f < faces.size(); ++f) {
    const PolyFace& face = faces[f];
    const double centre_distance = face.normal.dot(centre_local) - face.offset;
    if (centre_distance > reach || centre_distance < -reach) continue;
    const Vec3 eta = fa.rotation * face.normal;
    const Vec3& x_face = fa.v(face.loop[0]);
    for (int vi : candidates) {
      const Vec3& p = vb.v(vi);
      const double psi = eta.dot(p - x_face);
      if (psi > eps || psi < -eps) continue;
      Vec3 nearest;
      double dist2 = 0.0;
      if (!near_facet(fa, face, eta, p, psi, eps, nearest, dist2)) continue;
      Contact c;
      c.body_a = fa.body->index;
      c.body_b = vb.body->index;
      c.kind = FeatureKind::VertexFace;
      c.features.feature_a = static_cast<int>(f);
      c.features.feature_b = vi;
      c.normal = eta;
      c.gap = psi;
      c.point_b = p;
      c.point_a = p - psi * eta;
      c.features.applicability = vertex_applicability(vb, vi, eta);
      c.features.primary = c.features.applicability >= params.eps_theta && feasible(eta, nearest, p, params);
      out.push_back(c);
    }
  }
}

// Vertices of `body` within `reach` of `centre`.
void near_vertices(const WorldPolyhedron& body, const Vec3& centre, double reach, std::vector<int>& out) {
  out.clear();
  const double r2 = reach * reach;
  const int n = static_cast<int>(body.vertices->size());
  for (int i = 0; i < n; ++i)
    if ((body.v(i) - centre).squaredNorm() <= r2) out.push_back(i);
}

// Feature edges of `body` whose segment comes within `reach` of `centre`.
void near_edges(const WorldPolyhedron& body, const Vec3& centre, double reach, std::vector<int>& out) {
  out.clear();
  const double r2 = reach * reach;
  const int n = static_cast<int>(body.poly->edges.size());
  for (int i = 0; i < n; ++i) {
    const PolyEdge& e = body.poly->edges[static_cast<std::size_t>(i)];
    const Vec3 c = closest_point_on_segment(body.v(e.tail), body.v(e.head), centre);
    if ((c - centre).squaredNorm() <= r2) out.push_back(i);
  }
}

void edge_edge(const WorldPolyhedron& A, const std::vector<int>& edges_a, const WorldPolyhedron& B,
               const std::vector<int>& edges_b, const NarrowphaseParams& params, std::vector<Contact>& out) {
  const double eps = params.eps;
  for (int ia : edges_a) {
    const PolyEdge& ea = A.poly->edges[static_cast<std::size_t>(ia)];
    const Vec3& pa = A.v(ea.tail);
    const Vec3& qa = A.v(ea.head);
    const Vec3 da = qa - pa;
    const double la2 = da.squaredNorm();
    const Vec3 mid_a = 0.5 * (pa + qa);
    const double half_a = 0.5 * std::sqrt(la2);
    for (int ib : edges_b) {
      const PolyEdge& eb = B.poly->edges[static_cast<std::size_t>(ib)];
      const Vec3& pb = B.v(eb.tail);
      const Vec3& qb = B.v(eb.head);
      const Vec3 db = qb - pb;
      const double lb2 = db.squaredNorm();
      // Bounding spheres of the two segments.
      const double reach = half_a + 0.5 * std::sqrt(lb2) + eps;
      if ((0.5 * (pb + qb) - mid_a).squaredNorm() > reach * reach) continue;
      const Vec3 cross = da.cross(db);
      const double cross2 = cross.squaredNorm();
      if (cross2 <= kParallelSine * kParallelSine * la2 * lb2) continue;  // eq. 3.6 special case
      const SegmentPair sp = closest_points_segments(pa, qa, pb, qb);
      if (!(sp.distance <= eps)) continue;

      // Eq. 3.6 orientation.
      const Vec3 eta_b1 = B.rotation * B.poly->faces[static_cast<std::size_t>(eb.face_1)].normal;
      const Vec3 eta_b2 = B.rotation * B.poly->faces[static_cast<std::size_t>(eb.face_2)].normal;
      const Vec3 orient_b = db.cross(-(eta_b1 + eta_b2));
      const double side = da.dot(orient_b);
      Vec3 n = cross / std::sqrt(cross2);
      const double side_scale = std::sqrt(la2) * orient_b.norm();
      if (std::abs(side) > 1e-12 * side_scale) {
        if (side < 0.0) n = -n;
      } else {
        const Vec3 eta_a1 = A.rotation * A.poly->faces[static_cast<std::size_t>(ea.face_1)].normal;
        const Vec3 eta_a2 = A.rotation * A.poly->faces[static_cast<std::size_t>(ea.face_2)].normal;
        if (n.dot(eta_a1 + eta_a2) < 0.0) n = -n;
      }

      // Eq. 3.5 applicability (independent of the sign of n).
      const double d_a1 = n.dot(A.rotation * ea.t1);
      const double d_a2 = n.dot(A.rotation * ea.t2);
      const double d_b1 = -n.dot(B.rotation * eb.t1);
      const double d_b2 = -n.dot(B.rotation * eb.t2);
      const double appl = std::max(std::min(std::min(d_a1, d_a2), std::min(d_b1, d_b2)),
                                   std::min(std::min(-d_a1, -d_a2), std::min(-d_b1, -d_b2)));

      const double gap = n.dot(sp.c2 - sp.c1);
      const Vec3 mid = 0.5 * (sp.c1 + sp.c2);
      Contact c;
      c.body_a = A.body->index;
      c.body_b = B.body->index;
      c.kind = FeatureKind::EdgeEdge;
      c.features.feature_a = ia;
      c.features.feature_b = ib;
      c.normal = n;
      c.gap = gap;
      c.point_a = mid - (0.5 * gap) * n;
      c.point_b = mid + (0.5 * gap) * n;
      c.features.applicability = appl;
      c.features.primary = appl >= params.eps_theta && feasible(n, sp.c1, sp.c2, params);
      out.push_back(c);
    }
  }
}

}  // namespace

void find_contacts_polyhedra(const BodyGeometry& a, const Polyhedron& pa, const BodyGeometry& b,
                             const Polyhedron& pb, const NarrowphaseParams& params,
                             std::vector<Contact>& out) {
  const double eps = params.eps;
  // Bounding spheres (about each body frame's origin) grown by eps.
  const double reach = pa.bounding_radius + pb.bounding_radius + eps;
  if ((a.pose.position - b.pose.position).squaredNorm() > reach * reach) return;

  // Scratch buffers reused across calls: no allocation once they have grown.
  thread_local std::vector<Vec3> world_a, world_b;
  thread_local std::vector<int> near_a, near_b;
  WorldPolyhedron A, B;
  A.fill(a, pa, world_a);
  B.fill(b, pb, world_b);

  // Vertex-face: vertices of B against facets of A, then vertices of A
  // against facets of B. Only vertices inside the other body's bounding
  // sphere grown by eps can be within eps of one of its facets.
  near_vertices(B, A.centre(), pa.bounding_radius + eps, near_b);
  vertex_face(A, B, near_b, params, out);
  near_vertices(A, B.centre(), pb.bounding_radius + eps, near_a);
  vertex_face(B, A, near_a, params, out);

  // Edge-edge: only edges that reach the other body's grown bounding sphere.
  near_edges(A, B.centre(), pb.bounding_radius + eps, near_a);
  if (near_a.empty()) return;
  near_edges(B, A.centre(), pa.bounding_radius + eps, near_b);
  edge_edge(A, near_a, B, near_b, params, out);
}

}  // namespace pegsim
