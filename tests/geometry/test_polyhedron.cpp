// Polyhedra: hulls of random point clouds, primitives, and malformed inputs.
// Every property is checked from the geometry itself (planes, orientations,
// incidences), independently of how build_adjacency() derives it.
#include "geometry/polyhedron.hpp"
#include "geometry/shape.hpp"

#include <gtest/gtest.h>

#include "common/sampler.hpp"

#include <algorithm>
#include <functional>
#include <cmath>
#include <limits>
#include <cstdint>
#include <random>
#include <numbers>
#include <set>
#include <string>

namespace pegsim {
namespace {

using Sampler = test::Sampler;

Vec3 face_centroid(const Polyhedron& p, int f) {
  Vec3 c = Vec3::Zero();
  for (int i : p.faces[f].loop) c += p.vertices[i];
  return c / static_cast<double>(p.faces[f].loop.size());
}

bool loop_runs(const std::vector<int>& loop, int from, int to) {
  for (std::size_t k = 0; k < loop.size(); ++k)
    if (loop[k] == from && loop[(k + 1) % loop.size()] == to) return true;
  return false;
}

// Checks every documented invariant of a polyhedron. `tol` is absolute.
void expect_well_formed(const Polyhedron& p, double tol = 1e-9) {
  SCOPED_TRACE("polyhedron with " + std::to_string(p.vertices.size()) + " vertices");
  ASSERT_NO_THROW(p.validate());
  const int nv = static_cast<int>(p.vertices.size());
  const int ne = static_cast<int>(p.edges.size());
  const int nf = static_cast<int>(p.faces.size());
  EXPECT_EQ(nv - ne + nf, 2) << "Euler";

  int expected_triangles = 0;
  for (int f = 0; f < nf; ++f) {
    const PolyFace& face = p.faces[f];
    ASSERT_GE(face.loop.size(), 3u);
    expected_triangles += static_cast<int>(face.loop.size()) - 2;
    EXPECT_NEAR(face.normal.norm(), 1.0, 1e-12);
    for (int i : face.loop) EXPECT_NEAR(face.normal.dot(p.vertices[i]), face.offset, tol);
    // CCW from outside and strictly convex: every corner turns left about eta.
    const std::size_t m = face.loop.size();
    for (std::size_t k = 0; k < m; ++k) {
      const Vec3& a = p.vertices[face.loop[k]];
      const Vec3& b = p.vertices[face.loop[(k + 1) % m]];
      const Vec3& c = p.vertices[face.loop[(k + 2) % m]];
      EXPECT_GT((b - a).cross(c - b).dot(face.normal), 0.0) << "face " << f << " corner " << k;
    }
    // Outward: every vertex behind the plane.
    for (const Vec3& v : p.vertices) EXPECT_LE(face.normal.dot(v), face.offset + tol);
    // Edges listed in loop order.
    ASSERT_EQ(face.edges.size(), m) << "face " << f;
    for (std::size_t k = 0; k < m; ++k) {
      const PolyEdge& e = p.edges[face.edges[k]];
      const int a = face.loop[k], b = face.loop[(k + 1) % m];
      EXPECT_TRUE((e.tail == a && e.head == b) || (e.tail == b && e.head == a)) << "face " << f << " edge " << k;
    }
  }

  std::set<std::pair<int, int>> seen;
  for (int k = 0; k < ne; ++k) {
    const PolyEdge& e = p.edges[k];
    EXPECT_TRUE(seen.insert(std::minmax(e.tail, e.head)).second) << "duplicate edge " << k;
    EXPECT_TRUE(loop_runs(p.faces[e.face_1].loop, e.tail, e.head)) << "edge " << k;
    EXPECT_TRUE(loop_runs(p.faces[e.face_2].loop, e.head, e.tail)) << "edge " << k;
    const Vec3& n1 = p.faces[e.face_1].normal;
    const Vec3& n2 = p.faces[e.face_2].normal;
    EXPECT_GT(n1.cross(n2).norm(), 1e-12) << "edge " << k << " joins coplanar faces";
    const Vec3 ev = p.vertices[e.head] - p.vertices[e.tail];
    const Vec3 mid = 0.5 * (p.vertices[e.head] + p.vertices[e.tail]);
    // Eq. 3.2: unit, perpendicular to e, in the face plane, pointing into the face.
    EXPECT_NEAR(e.t1.norm(), 1.0, 1e-12);
    EXPECT_NEAR(e.t2.norm(), 1.0, 1e-12);
    EXPECT_NEAR(e.t1.dot(ev), 0.0, 1e-9 * ev.norm());
    EXPECT_NEAR(e.t2.dot(ev), 0.0, 1e-9 * ev.norm());
    EXPECT_NEAR(e.t1.dot(n1), 0.0, 1e-12);
    EXPECT_NEAR(e.t2.dot(n2), 0.0, 1e-12);
    EXPECT_GT(e.t1.dot(face_centroid(p, e.face_1) - mid), 0.0) << "t1 of edge " << k << " points out of face_1";
    EXPECT_GT(e.t2.dot(face_centroid(p, e.face_2) - mid), 0.0) << "t2 of edge " << k << " points out of face_2";
    EXPECT_TRUE(e.t1.isApprox(n1.cross(ev).normalized(), 1e-12));
    EXPECT_TRUE(e.t2.isApprox(ev.cross(n2).normalized(), 1e-12));
  }

  // Vertex incidences, recomputed by brute force.
  ASSERT_EQ(static_cast<int>(p.vertex_edges.size()), nv);
  for (int v = 0; v < nv; ++v) {
    std::vector<int> es, nb, fs;
    for (int k = 0; k < ne; ++k)
      if (p.edges[k].tail == v || p.edges[k].head == v) {
        es.push_back(k);
        nb.push_back(p.edges[k].tail == v ? p.edges[k].head : p.edges[k].tail);
      }
    for (int f = 0; f < nf; ++f)
      if (std::count(p.faces[f].loop.begin(), p.faces[f].loop.end(), v)) fs.push_back(f);
    EXPECT_EQ(p.vertex_edges[v], es) << "vertex " << v;
    EXPECT_EQ(p.vertex_neighbors[v], nb) << "vertex " << v;
    EXPECT_EQ(p.vertex_faces[v], fs) << "vertex " << v;
    EXPECT_GE(es.size(), 3u);
    EXPECT_EQ(es.size(), fs.size()) << "a convex vertex has as many edges as facets";
  }

  ASSERT_EQ(static_cast<int>(p.triangles.size()), expected_triangles);
  ASSERT_EQ(p.triangle_face.size(), p.triangles.size());
  for (std::size_t t = 0; t < p.triangles.size(); ++t) {
    const auto& [a, b, c] = p.triangles[t];
    const Vec3 n = (p.vertices[b] - p.vertices[a]).cross(p.vertices[c] - p.vertices[a]);  // eq. 3.1
    EXPECT_TRUE(n.normalized().isApprox(p.faces[p.triangle_face[t]].normal, 1e-9)) << "triangle " << t;
  }

  double r = 0.0;
  for (const Vec3& v : p.vertices) r = std::max(r, v.norm());
  EXPECT_DOUBLE_EQ(p.bounding_radius, r);
}

void expect_contains(const Polyhedron& p, const std::vector<Vec3>& points, double tol) {
  for (std::size_t i = 0; i < points.size(); ++i)
    for (std::size_t f = 0; f < p.faces.size(); ++f)
      ASSERT_LE(p.faces[f].normal.dot(points[i]), p.faces[f].offset + tol) << "point " << i << " face " << f;
}

std::vector<Vec3> random_cloud(Sampler& rng, int kind, int n) {
  std::vector<Vec3> pts;
  for (int i = 0; i < n; ++i) {
    switch (kind) {
      case 0:  // uniform in a box, off-centre
        pts.push_back(rng.vec3(-1, 1) + Vec3(3, -2, 1));
        break;
      case 1:  // on a sphere: every point extreme
        pts.push_back(2.0 * rng.direction());
        break;
      case 2:  // lattice: many coplanar and collinear points, duplicates
        pts.push_back(rng.lattice3(-2, 2));
        break;
      default:  // a cube's corners, points on its faces and edges, and inside
        if (i < 8) pts.emplace_back(i & 1 ? 1 : -1, i & 2 ? 1 : -1, i & 4 ? 1 : -1);
        else {
          Vec3 x = rng.vec3(-1, 1);
          const int snap = rng.integer(0, 3);  // snap 0..3 coordinates to the surface
          for (int k = 0; k < snap; ++k) x[rng.integer(0, 2)] = rng.unit() < 0.5 ? -1.0 : 1.0;
          pts.push_back(x);
        }
    }
  }
  return pts;
}

TEST(Polyhedron, HullsOfRandomCloudsAreWellFormed) {
  Sampler rng(0x6011);
  for (int trial = 0; trial < 200; ++trial) {
    const int kind = trial % 4;
    const int n = (kind == 3 ? 8 : 4) + rng.integer(0, 120);
    const std::vector<Vec3> pts = random_cloud(rng, kind, n);
    SCOPED_TRACE("trial " + std::to_string(trial) + " kind " + std::to_string(kind));
    Polyhedron p;
    try {
      p = polyhedron_from_points(pts);
    } catch (const GeometryError& e) {
      // Only a flat lattice sample may be rejected.
      ASSERT_EQ(kind, 2) << e.what();
      continue;
    }
    expect_well_formed(p);
    expect_contains(p, pts, 1e-9);
    // Hull vertices are input points.
    for (const Vec3& v : p.vertices) EXPECT_NE(std::find(pts.begin(), pts.end(), v), pts.end());
    if (kind == 1) {
      EXPECT_EQ(p.vertices.size(), pts.size()) << "points on a sphere are all extreme";
    }
    if (kind == 3) {
      EXPECT_EQ(p.vertices.size(), 8u);
      EXPECT_EQ(p.faces.size(), 6u);
      EXPECT_EQ(p.edges.size(), 12u);
    }
  }
}

TEST(Polyhedron, HullIsDeterministic) {
  Sampler rng(0xde7);
  const std::vector<Vec3> pts = random_cloud(rng, 0, 200);
  const Polyhedron a = polyhedron_from_points(pts);
  const Polyhedron b = polyhedron_from_points(pts);
  ASSERT_EQ(a.vertices, b.vertices);
  ASSERT_EQ(a.faces.size(), b.faces.size());
  for (std::size_t f = 0; f < a.faces.size(); ++f) EXPECT_EQ(a.faces[f].loop, b.faces[f].loop);
  // Vertices come in input order; each loop starts at its smallest index and
  // the faces are sorted by loop.
  for (std::size_t i = 1; i < a.vertices.size(); ++i) {
    const auto ia = std::find(pts.begin(), pts.end(), a.vertices[i - 1]) - pts.begin();
    const auto ib = std::find(pts.begin(), pts.end(), a.vertices[i]) - pts.begin();
    EXPECT_LT(ia, ib);
  }
  for (std::size_t f = 0; f < a.faces.size(); ++f) {
    EXPECT_EQ(a.faces[f].loop[0], *std::min_element(a.faces[f].loop.begin(), a.faces[f].loop.end()));
    if (f > 0) {
      EXPECT_LT(a.faces[f - 1].loop, a.faces[f].loop);
    }
  }
}

void expect_counts(const Polyhedron& p, std::size_t v, std::size_t e, std::size_t f) {
  EXPECT_EQ(p.vertices.size(), v);
  EXPECT_EQ(p.edges.size(), e);
  EXPECT_EQ(p.faces.size(), f);
}

void expect_edge_lengths(const Polyhedron& p, double edge) {
  for (const PolyEdge& e : p.edges) EXPECT_NEAR((p.vertices[e.head] - p.vertices[e.tail]).norm(), edge, 1e-12 * edge);
}

TEST(Polyhedron, PlatonicSolids) {
  const double L = 0.7;
  const Polyhedron tet = make_tetrahedron(L), cube = make_cube(L), oct = make_octahedron(L);
  const Polyhedron dod = make_dodecahedron(L), ico = make_icosahedron(L);
  expect_counts(tet, 4, 6, 4);
  expect_counts(cube, 8, 12, 6);
  expect_counts(oct, 6, 12, 8);
  expect_counts(dod, 20, 30, 12);
  expect_counts(ico, 12, 30, 20);
  for (const Polyhedron* p : {&tet, &cube, &oct, &dod, &ico}) {
    expect_well_formed(*p);
    expect_edge_lengths(*p, L);
    Vec3 c = Vec3::Zero();
    for (const Vec3& v : p->vertices) c += v;
    EXPECT_LT((c / p->vertices.size()).norm(), 1e-12) << "centred at the origin";
  }
  for (const PolyFace& f : dod.faces) EXPECT_EQ(f.loop.size(), 5u) << "pentagons merged from qhull triangles";
  // Every vertex of a regular solid is on the circumsphere.
  EXPECT_NEAR(tet.bounding_radius, L * std::sqrt(6.0) / 4.0, 1e-12);
  EXPECT_NEAR(ico.bounding_radius, L * std::sin(2.0 * std::numbers::pi / 5.0), 1e-12);
}

TEST(Polyhedron, BoxAndPrisms) {
  const Polyhedron box = make_box(Vec3(1, 2, 3));
  expect_counts(box, 8, 12, 6);
  expect_well_formed(box);
  std::set<std::pair<int, int>> normals;  // (axis, sign) of each face normal
  for (const PolyFace& f : box.faces) {
    int axis = 0;
    f.normal.cwiseAbs().maxCoeff(&axis);
    EXPECT_NEAR(std::abs(f.normal[axis]), 1.0, 1e-15);
    EXPECT_NEAR(f.offset, 0.5 * Vec3(1, 2, 3)[axis], 1e-15);
    normals.insert({axis, f.normal[axis] > 0 ? 1 : -1});
  }
  EXPECT_EQ(normals.size(), 6u);
  for (int n : {3, 4, 5, 7, 12, 64, 256}) {
    SCOPED_TRACE("prism " + std::to_string(n));
    const Polyhedron prism = make_prism(n, 0.5, 2.0);
    expect_counts(prism, 2 * n, 3 * n, n + 2);
    expect_well_formed(prism);
  }
}

TEST(Polyhedron, TranslateKeepsPlanesConsistent) {
  Polyhedron p = make_dodecahedron(1.0);
  const Polyhedron before = p;
  const Vec3 shift(0.3, -1.2, 2.5);
  p.translate(shift);
  for (std::size_t i = 0; i < p.vertices.size(); ++i) EXPECT_TRUE(p.vertices[i].isApprox(before.vertices[i] - shift));
  for (const PolyFace& f : p.faces)
    for (int i : f.loop) EXPECT_NEAR(f.normal.dot(p.vertices[i]), f.offset, 1e-12);
  expect_well_formed(p);
}

TEST(Polyhedron, FromFacesKeepsInputOrder) {
  const std::vector<Vec3> v = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {0, 0, 1}};
  const std::vector<std::vector<int>> faces = {{0, 2, 1}, {0, 1, 3}, {0, 3, 2}, {1, 2, 3}};
  const Polyhedron p = polyhedron_from_faces(v, faces);
  expect_well_formed(p);
  EXPECT_EQ(p.vertices, v);
  for (std::size_t f = 0; f < faces.size(); ++f) EXPECT_EQ(p.faces[f].loop, faces[f]);
  EXPECT_TRUE(p.faces[3].normal.isApprox(Vec3(1, 1, 1).normalized()));
}

void expect_error(const std::function<void()>& build, const std::string& needle) {
  try {
    build();
    ADD_FAILURE() << "no GeometryError; expected one mentioning \"" << needle << "\"";
  } catch (const GeometryError& e) {
    EXPECT_NE(std::string(e.what()).find(needle), std::string::npos) << "message: " << e.what();
  }
}

TEST(Polyhedron, MalformedPointSetsThrow) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  expect_error([] { polyhedron_from_points({{0, 0, 0}, {1, 0, 0}, {0, 1, 0}}); }, "at least 4");
  expect_error([] { polyhedron_from_points({{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {1, 1, 0}, {0.3, 0.2, 0}}); },
               "coplanar");
  expect_error([] { polyhedron_from_points({{0, 0, 0}, {1, 1, 1}, {2, 2, 2}, {3, 3, 3}}); }, "collinear");
  expect_error([] { polyhedron_from_points({{1, 1, 1}, {1, 1, 1}, {1, 1, 1}, {1, 1, 1}}); }, "coincide");
  expect_error([nan] { polyhedron_from_points({{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {0, 0, nan}}); }, "not finite");
  expect_error([] { polyhedron_from_points({{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {0, 0, INFINITY}}); }, "not finite");
}

TEST(Polyhedron, MalformedFacetsThrow) {
  const Polyhedron box = make_cube(2.0);
  std::vector<std::vector<int>> loops;
  for (const PolyFace& f : box.faces) loops.push_back(f.loop);
  const std::vector<Vec3>& v = box.vertices;

  {  // open: one facet missing
    auto open = loops;
    open.pop_back();
    expect_error([&] { polyhedron_from_faces(v, open); }, "not closed");
  }
  {  // every facet reversed: closed and consistent, but clockwise from outside
    auto cw = loops;
    for (auto& l : cw) std::reverse(l.begin(), l.end());
    expect_error([&] { polyhedron_from_faces(v, cw); }, "clockwise");
  }
  {  // one facet reversed: inconsistent orientation
    auto flipped = loops;
    std::reverse(flipped[2].begin(), flipped[2].end());
    expect_error([&] { polyhedron_from_faces(v, flipped); }, "same direction");
  }
  {  // a corner pushed inside: closed but dented
    auto dented = v;
    dented[7] *= 0.2;
    expect_error([&] { polyhedron_from_faces(dented, loops); }, "not");  // non-planar or not convex
  }
  {  // octahedron with its apex pushed through the middle: not convex
    std::vector<Vec3> o = {{1, 0, 0}, {0, 1, 0}, {-1, 0, 0}, {0, -1, 0}, {0, 0, 1}, {0, 0, -0.2}};
    // apex 5 pulled up to z = +0.2 while the upper apex stays: the lower cone is dented.
    o[5] = Vec3(0, 0, 0.2);
    const std::vector<std::vector<int>> f = {{0, 1, 4}, {1, 2, 4}, {2, 3, 4}, {3, 0, 4},
                                             {1, 0, 5}, {2, 1, 5}, {3, 2, 5}, {0, 3, 5}};
    expect_error([&] { polyhedron_from_faces(o, f); }, "not convex");
  }
  {  // a corner lifted: facets no longer planar
    auto lifted = v;
    lifted[7].z() += 0.1;
    expect_error([&] { polyhedron_from_faces(lifted, loops); }, "not planar");
  }
  {  // two vertices at the same place: zero-length edge
    std::vector<Vec3> t = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {0, 0, 1}, {0, 0, 1}};
    const std::vector<std::vector<int>> f = {{0, 2, 1}, {0, 1, 3, 4}, {0, 4, 3, 2}, {1, 2, 3}};
    expect_error([&] { polyhedron_from_faces(t, f); }, "zero-length edge");
  }
  {  // a square facet split into two triangles
    auto split = loops;
    const std::vector<int> q = split[0];
    split[0] = {q[0], q[1], q[2]};
    split.push_back({q[0], q[2], q[3]});
    expect_error([&] { polyhedron_from_faces(v, split); }, "coplanar neighbours");
  }
  expect_error([&] { polyhedron_from_faces({v[0], v[1], v[2]}, {{0, 1, 2}}); }, "at least 4");
  expect_error([] { make_prism(2, 1.0, 1.0); }, "at least 3 sides");
  expect_error([] { make_box(Vec3(1, -1, 1)); }, "positive");
  expect_error([] { make_cube(std::numeric_limits<double>::quiet_NaN()); }, "positive");
}

}  // namespace
}  // namespace pegsim
