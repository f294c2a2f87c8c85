// Convex polyhedra: adjacency, invariants, and construction from explicit
// facets (thesis section 3.1). The convex hull of a point set is in
// polyhedron_hull.cpp, the primitives in primitives.cpp.
#include "geometry/polyhedron.hpp"

#include "geometry/shape.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <sstream>
#include <utility>

namespace pegsim {

namespace {

// polyhedron_from_faces rejects neighbouring facets whose unit normals make an
// angle with sine |eta_1 x eta_2| below kFlatSine: they are one facet split
// in two and must be given merged. (The sine, unlike 1 - cos, resolves
// angles down to round-off.)
constexpr double kFlatSine = 1e-12;
bool coplanar(const Vec3& n1, const Vec3& n2) { return n1.dot(n2) > 0.0 && n1.cross(n2).norm() <= kFlatSine; }
// Relative tolerances, scaled by the size of the polyhedron or facet.
constexpr double kLengthTol = 1e-9;
constexpr double kTurnTol = 1e-12;  // sine of the smallest corner turn of a facet loop

[[noreturn]] void fail(const std::string& what) { throw GeometryError("polyhedron: " + what); }

template <class... T>
std::string cat(const T&... parts) {
  std::ostringstream os;
  (os << ... << parts);
  return os.str();
}

// Area vector (Newell's method about the loop's mean, so the cross products
// stay well conditioned far from the origin); its direction is the eq. 3.1
// normal of any corner of a planar convex CCW loop.
Vec3 area_vector(const std::vector<Vec3>& v, const std::vector<int>& loop) {
  Vec3 mean = Vec3::Zero();
  for (int i : loop) mean += v[i];
  mean /= static_cast<double>(loop.size());
  Vec3 n = Vec3::Zero();
  for (std::size_t k = 0; k < loop.size(); ++k)
    n += (v[loop[k]] - mean).cross(v[loop[(k + 1) % loop.size()]] - mean);
  return 0.5 * n;
}

// Radius of the vertex set about its mean: the length scale of tolerances.
double size_scale(const std::vector<Vec3>& v) {
  Vec3 mean = Vec3::Zero();
  for (const Vec3& x : v) mean += x;
  mean /= static_cast<double>(std::max<std::size_t>(1, v.size()));
  double r = 0.0;
  for (const Vec3& x : v) r = std::max(r, (x - mean).norm());
  return r;
}

// Signed sine of the turn of the loop at corner k about the normal n:
// > 0 for a convex CCW corner, 0 for collinear, < 0 for a reflex corner.
double corner_turn(const std::vector<Vec3>& v, const std::vector<int>& loop, std::size_t k, const Vec3& n) {
  const std::size_t m = loop.size();
  const Vec3& prev = v[loop[(k + m - 1) % m]];
  const Vec3& cur = v[loop[k]];
  const Vec3& next = v[loop[(k + 1) % m]];
  const Vec3 a = cur - prev, b = next - cur;
  const double len = a.norm() * b.norm();
  return len > 0.0 ? a.cross(b).dot(n) / len : 0.0;
}

// Signed distance of corner k from the chord joining its loop neighbours,
// measured in the facet plane: > 0 for a convex CCW corner, < 0 for a dent.
double corner_bulge(const std::vector<Vec3>& v, const std::vector<int>& loop, std::size_t k, const Vec3& n) {
  const std::size_t m = loop.size();
  const Vec3& prev = v[loop[(k + m - 1) % m]];
  const Vec3& cur = v[loop[k]];
  const Vec3& next = v[loop[(k + 1) % m]];
  const double chord = (next - prev).norm();
  return chord > 0.0 ? (cur - prev).cross(next - cur).dot(n) / chord : 0.0;
}

}  // namespace

void Polyhedron::build_adjacency() {
  const int nv = static_cast<int>(vertices.size());
  edges.clear();
  triangles.clear();
  triangle_face.clear();
  vertex_edges.assign(nv, {});
  vertex_neighbors.assign(nv, {});
  vertex_faces.assign(nv, {});

  // Face planes (eq. 3.1, via the loop's area vector) and the fan triangulation.
  for (int f = 0; f < static_cast<int>(faces.size()); ++f) {
    PolyFace& face = faces[f];
    for (int i : face.loop)
      if (i < 0 || i >= nv) fail(cat("face ", f, " refers to vertex ", i, " of ", nv));
    const Vec3 area = area_vector(vertices, face.loop);
    face.normal = area.norm() > 0.0 ? Vec3(area.normalized()) : Vec3::Zero();
    double offset = 0.0;
    for (int i : face.loop) offset += face.normal.dot(vertices[i]);
    face.offset = face.loop.empty() ? 0.0 : offset / static_cast<double>(face.loop.size());
    for (std::size_t k = 1; k + 1 < face.loop.size(); ++k) {
      triangles.push_back({face.loop[0], face.loop[k], face.loop[k + 1]});
      triangle_face.push_back(f);
    }
  }

  // Edges in order of first appearance (faces in order, loops in order), so
  // face_1 is the lower-numbered facet and its loop runs tail -> head.
  struct Pending {
    PolyEdge edge;
    std::vector<std::pair<int, int>> uses;  // (face, position in loop)
  };
  std::vector<Pending> pending;
  std::map<std::pair<int, int>, int> index;  // undirected key -> pending slot
  for (int f = 0; f < static_cast<int>(faces.size()); ++f) {
    const std::vector<int>& loop = faces[f].loop;
    for (std::size_t k = 0; k < loop.size(); ++k) {
      const int u = loop[k], w = loop[(k + 1) % loop.size()];
      const auto key = std::minmax(u, w);
      auto [it, inserted] = index.try_emplace({key.first, key.second}, static_cast<int>(pending.size()));
      if (inserted) {
        Pending p;
        p.edge.tail = u;
        p.edge.head = w;
        p.edge.face_1 = f;
        pending.push_back(p);
      } else {
        PolyEdge& e = pending[it->second].edge;
        if (e.tail != w || e.head != u || e.face_2 != -1)
          fail(cat("edge (", u, ", ", w, ") of face ", f,
                   " is shared inconsistently (faces not closed, manifold and consistently oriented)"));
        e.face_2 = f;
      }
      pending[it->second].uses.emplace_back(f, static_cast<int>(k));
    }
  }

  // Every edge joins two distinct facets, and facets are merged polygons with
  // distinct normals, so every edge is a feature edge: the flat edges of the
  // thesis's triangle mesh are the fan diagonals, which never become edges.
  for (PolyFace& face : faces) face.edges.assign(face.loop.size(), -1);
  for (Pending& p : pending) {
    PolyEdge& e = p.edge;
    if (e.face_2 < 0) fail(cat("edge (", e.tail, ", ", e.head, ") of face ", e.face_1, " has no neighbouring face"));
    const Vec3& n1 = faces[e.face_1].normal;
    const Vec3& n2 = faces[e.face_2].normal;
    // Eq. 3.2, normalised: t1 points from the edge into face_1, t2 into face_2.
    const Vec3 ev = vertices[e.head] - vertices[e.tail];
    e.t1 = n1.cross(ev).normalized();
    e.t2 = ev.cross(n2).normalized();
    const int id = static_cast<int>(edges.size());
    edges.push_back(e);
    for (auto [f, k] : p.uses) faces[f].edges[k] = id;
    vertex_edges[e.tail].push_back(id);
    vertex_edges[e.head].push_back(id);
    vertex_neighbors[e.tail].push_back(e.head);
    vertex_neighbors[e.head].push_back(e.tail);
  }

  for (int f = 0; f < static_cast<int>(faces.size()); ++f)
    for (int i : faces[f].loop) vertex_faces[i].push_back(f);

  bounding_radius = 0.0;
  for (const Vec3& v : vertices) bounding_radius = std::max(bounding_radius, v.norm());
}

void Polyhedron::validate() const {
  const int nv = static_cast<int>(vertices.size());
  const int nf = static_cast<int>(faces.size());
  if (nv < 4) fail(cat("needs at least 4 vertices, has ", nv));
  for (int i = 0; i < nv; ++i)
    if (!vertices[i].allFinite()) fail(cat("vertex ", i, " is not finite (NaN or inf)"));
  if (nf < 4) fail(cat("needs at least 4 faces, has ", nf));
  if (static_cast<int>(vertex_edges.size()) != nv || static_cast<int>(vertex_neighbors.size()) != nv ||
      static_cast<int>(vertex_faces.size()) != nv || triangles.size() != triangle_face.size())
    fail("derived adjacency is stale (call build_adjacency())");

  const double scale = size_scale(vertices);
  const double tol = kLengthTol * scale;
  std::vector<int> uses(nv, 0);
  for (int f = 0; f < nf; ++f) {
    const PolyFace& face = faces[f];
    const int m = static_cast<int>(face.loop.size());
    if (m < 3) fail(cat("face ", f, " has ", m, " vertices (needs 3)"));
    for (int k = 0; k < m; ++k) {
      const int i = face.loop[k];
      if (i < 0 || i >= nv) fail(cat("face ", f, " refers to vertex ", i, " of ", nv));
      if (std::count(face.loop.begin(), face.loop.end(), i) > 1) fail(cat("face ", f, " repeats vertex ", i));
      ++uses[i];
    }
    if (std::abs(face.normal.norm() - 1.0) > 1e-9) fail(cat("face ", f, " has no unit normal (degenerate face)"));
    // Planar within 1e-9 of the polyhedron's size (merged hull facets are
    // planar to qhull's merge radius, 1e-11 of the extent).
    for (int i : face.loop)
      if (std::abs(face.normal.dot(vertices[i]) - face.offset) > tol)
        fail(cat("face ", f, " is not planar at vertex ", i));
    if (face.edges.size() != face.loop.size()) fail(cat("face ", f, " has stale edges (call build_adjacency())"));
    // Convex and counter-clockwise about eta, to the same length tolerance as
    // the planes. A corner that is collinear within it is accepted here (a
    // hull of noisy points can keep one where a sliver facet meets it);
    // polyhedron_from_faces rejects such a corner in its input.
    for (int k = 0; k < m; ++k)
      if (corner_bulge(vertices, face.loop, k, face.normal) < -tol)
        fail(cat("face ", f, " is not convex (or not counter-clockwise) at vertex ", face.loop[k]));
    // Convexity: every vertex on the inner side of every facet plane.
    for (int i = 0; i < nv; ++i)
      if (face.normal.dot(vertices[i]) > face.offset + tol)
        fail(cat("not convex: vertex ", i, " lies outside the plane of face ", f));
  }
  for (int i = 0; i < nv; ++i)
    if (uses[i] == 0) fail(cat("vertex ", i, " is not on any face"));
  double depth = 0.0;  // the polyhedron must have volume
  for (int i = 0; i < nv; ++i) depth = std::max(depth, faces[0].offset - faces[0].normal.dot(vertices[i]));
  if (depth <= tol) fail("all vertices are coplanar (flat polyhedron)");

  const int ne = static_cast<int>(edges.size());
  for (int k = 0; k < ne; ++k) {
    const PolyEdge& e = edges[k];
    if (e.tail < 0 || e.tail >= nv || e.head < 0 || e.head >= nv || e.face_1 < 0 || e.face_1 >= nf ||
        e.face_2 < 0 || e.face_2 >= nf || e.face_1 == e.face_2)
      fail(cat("edge ", k, " has invalid indices"));
    if ((vertices[e.head] - vertices[e.tail]).norm() <= tol) fail(cat("edge ", k, " has zero length"));
    if (std::abs(e.t1.norm() - 1.0) > 1e-9 || std::abs(e.t2.norm() - 1.0) > 1e-9)
      fail(cat("edge ", k, " has no unit t1/t2"));
    auto runs = [&](int f, int from, int to) {
      const std::vector<int>& loop = faces[f].loop;
      for (std::size_t j = 0; j < loop.size(); ++j)
        if (loop[j] == from && loop[(j + 1) % loop.size()] == to) return true;
      return false;
    };
    if (!runs(e.face_1, e.tail, e.head) || !runs(e.face_2, e.head, e.tail))
      fail(cat("edge ", k, ": face_1 must run tail -> head and face_2 head -> tail"));
  }
  if (nv - ne + nf != 2) fail(cat("Euler characteristic V - E + F = ", nv - ne + nf, " (expected 2)"));
}

void Polyhedron::translate(const Vec3& offset) {
  for (Vec3& v : vertices) v -= offset;
  for (PolyFace& f : faces) f.offset -= f.normal.dot(offset);
  bounding_radius = 0.0;
  for (const Vec3& v : vertices) bounding_radius = std::max(bounding_radius, v.norm());
}

// Checks the facet description in an order that names the actual defect
// (an unclosed surface, a clockwise facet, a dent, ...) before building.
Polyhedron polyhedron_from_faces(const std::vector<Vec3>& vertices, const std::vector<std::vector<int>>& faces) {
  const int nv = static_cast<int>(vertices.size());
  const int nf = static_cast<int>(faces.size());
  if (nv < 4) fail(cat("needs at least 4 vertices, got ", nv));
  if (nf < 4) fail(cat("needs at least 4 faces, got ", nf));
  for (int i = 0; i < nv; ++i)
    if (!vertices[i].allFinite()) fail(cat("vertex ", i, " is not finite (NaN or inf)"));
  const double scale = size_scale(vertices);
  const double tol = kLengthTol * scale;
  if (!(scale > 0.0)) fail("all vertices coincide");

  // Topology: indices, zero-length edges, each directed edge once with its reverse.
  std::map<std::pair<int, int>, int> directed;  // (from, to) -> face
  std::vector<int> uses(nv, 0);
  for (int f = 0; f < nf; ++f) {
    const std::vector<int>& loop = faces[f];
    const int m = static_cast<int>(loop.size());
    if (m < 3) fail(cat("face ", f, " has ", m, " vertices (needs 3)"));
    for (int k = 0; k < m; ++k) {
      const int u = loop[k], w = loop[(k + 1) % m];
      if (u < 0 || u >= nv) fail(cat("face ", f, " refers to vertex ", u, " of ", nv));
      if (std::count(loop.begin(), loop.end(), u) > 1) fail(cat("face ", f, " repeats vertex ", u));
      ++uses[u];
      if (w >= 0 && w < nv && (vertices[w] - vertices[u]).norm() <= tol)
        fail(cat("face ", f, " has a zero-length edge (", u, ", ", w, ")"));
      if (auto [it, ok] = directed.try_emplace({u, w}, f); !ok)
        fail(cat("edge (", u, ", ", w, ") is traversed in the same direction by faces ", it->second, " and ", f,
                 " (inconsistent orientation or non-manifold)"));
    }
  }
  for (const auto& [uw, f] : directed)
    if (!directed.contains({uw.second, uw.first}))
      fail(cat("not closed: edge (", uw.first, ", ", uw.second, ") of face ", f, " has no neighbouring face"));
  for (int i = 0; i < nv; ++i)
    if (uses[i] == 0) fail(cat("vertex ", i, " is not used by any face"));

  // Geometry of each facet: area, planarity, orientation, convexity.
  std::vector<Vec3> normals(nf);
  for (int f = 0; f < nf; ++f) {
    const std::vector<int>& loop = faces[f];
    const Vec3 area = area_vector(vertices, loop);
    if (area.norm() <= tol * tol) fail(cat("face ", f, " is degenerate (zero area)"));
    const Vec3 n = area.normalized();
    normals[f] = n;
    double offset = 0.0;
    for (int i : loop) offset += n.dot(vertices[i]) / static_cast<double>(loop.size());
    for (int i : loop)
      if (std::abs(n.dot(vertices[i]) - offset) > tol)
        fail(cat("face ", f, " is not planar at vertex ", i));
    double above = -std::numeric_limits<double>::infinity();
    double below = std::numeric_limits<double>::infinity();
    int worst = -1;
    for (int i = 0; i < nv; ++i) {
      const double h = n.dot(vertices[i]) - offset;
      if (h > above) {
        above = h;
        worst = i;
      }
      below = std::min(below, h);
    }
    if (above > tol && below >= -tol)
      fail(cat("face ", f, " is clockwise seen from outside (its normal points inward)"));
    if (above > tol) fail(cat("not convex: vertex ", worst, " lies outside the plane of face ", f));
    for (std::size_t k = 0; k < loop.size(); ++k) {
      const double turn = corner_turn(vertices, loop, k, n);
      if (turn < -kTurnTol) fail(cat("face ", f, " is not convex at vertex ", loop[k]));
      if (turn <= kTurnTol) fail(cat("face ", f, " has collinear vertices at vertex ", loop[k]));
    }
  }
  for (const auto& [uw, f] : directed) {
    const int g = directed.at({uw.second, uw.first});
    if (f < g && coplanar(normals[f], normals[g]))
      fail(cat("faces ", f, " and ", g, " are coplanar neighbours: merge them into one facet "
               "(or build with polyhedron_from_points)"));
  }

  Polyhedron p;
  p.vertices = vertices;
  p.faces.resize(nf);
  for (int f = 0; f < nf; ++f) p.faces[f].loop = faces[f];
  p.build_adjacency();
  p.validate();
  return p;
}

}  // namespace pegsim
