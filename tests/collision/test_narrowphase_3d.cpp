// 3D contact determination on random convex polyhedra: agreement with a
// brute-force enumeration of every feature pair, determinism, and the
// edge-edge orientation of eq. 3.6.
#include "collision/narrowphase.hpp"
#include "geometry/distance.hpp"
#include "geometry/polyhedron.hpp"

#include <gtest/gtest.h>

#include "common/sampler.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <limits>
#include <map>
#include <random>
#include <tuple>
#include <vector>

namespace pegsim {
namespace {

// ---------------------------------------------------------------- sampling

using Rng = test::Sampler;

std::vector<Polyhedron> polyhedron_pool() {
  std::vector<Polyhedron> pool;
  Rng rng(20240611);
  for (int i = 0; i < 36; ++i) {
    const int n = rng.integer(4, 22);
    const Vec3 scale(rng.uniform(0.2, 0.7), rng.uniform(0.2, 0.7), rng.uniform(0.2, 0.7));
    // Some bodies have their frame origin away from the centroid (even
    // outside the hull), which the bounding-sphere culling must tolerate.
    const Vec3 shift = (i % 4 == 3) ? rng.in_ball(0.6) : Vec3::Zero();
    for (;;) {
      std::vector<Vec3> pts;
      for (int k = 0; k < n; ++k) pts.push_back(rng.in_ball(1.0).cwiseProduct(scale) + shift);
      try {
        pool.push_back(polyhedron_from_points(pts));
        break;
      } catch (const std::exception&) {
      }
    }
  }
  pool.push_back(make_box(Vec3(1.0, 1.0, 1.0)));
  pool.push_back(make_box(Vec3(1.2, 0.4, 0.7)));
  pool.push_back(make_box(Vec3(0.5, 0.5, 0.5)));
  return pool;
}

// ------------------------------------------------------ brute-force reference
// Independent of the implementation: world-frame features, point-facet
// distance over the facet's triangles, segment distance from the end-point
// distances and the interior stationary point, gaps from facet centroids and
// edge tails.

Vec3 world(const Pose& p, const Vec3& v) { return p.orientation * v + p.position; }

double point_segment_distance(const Vec3& a, const Vec3& b, const Vec3& p, Vec3* nearest = nullptr) {
  const Vec3 ab = b - a;
  double t = ab.dot(p - a) / ab.dot(ab);
  t = std::min(1.0, std::max(0.0, t));
  const Vec3 c = a + t * ab;
  if (nearest) *nearest = c;
  return (p - c).norm();
}

struct SegDist {
  double d;
  Vec3 ca, cb;
  bool interior;
};

SegDist segment_distance(const Vec3& p1, const Vec3& q1, const Vec3& p2, const Vec3& q2) {
  SegDist best{std::numeric_limits<double>::infinity(), Vec3::Zero(), Vec3::Zero(), false};
  auto consider = [&best](double d, const Vec3& ca, const Vec3& cb, bool interior) {
    if (d < best.d) best = SegDist{d, ca, cb, interior};
  };
  Vec3 c;
  consider(point_segment_distance(p2, q2, p1, &c), p1, c, false);
  consider(point_segment_distance(p2, q2, q1, &c), q1, c, false);
  consider(point_segment_distance(p1, q1, p2, &c), c, p2, false);
  consider(point_segment_distance(p1, q1, q2, &c), c, q2, false);
  // Interior stationary point of |p1 + s u - p2 - t v|^2 by Cramer's rule.
  const Vec3 u = q1 - p1, v = q2 - p2, w = p1 - p2;
  const double a = u.dot(u), b = u.dot(v), cc = v.dot(v), d = u.dot(w), e = v.dot(w);
  const double det = a * cc - b * b;
  if (det > 1e-13 * a * cc) {
    const double s = (b * e - cc * d) / det;
    const double t = (a * e - b * d) / det;
    if (s > 0.0 && s < 1.0 && t > 0.0 && t < 1.0) {
      const Vec3 ca = p1 + s * u, cb = p2 + t * v;
      consider((ca - cb).norm(), ca, cb, true);
    }
  }
  return best;
}

struct Key {
  int group;  // 0: facets of A, 1: facets of B, 2: edge-edge
  int fa, fb;
  auto operator<=>(const Key&) const = default;
};

struct Expected {
  double distance = 0.0;
  Vec3 normal = Vec3::Zero();
  double gap = 0.0;
  double applicability = 0.0;
  double feasibility_margin = 0.0;  // >= 0 feasible
  bool parallel = false;
  Vec3 mid = Vec3::Zero();  // edge-edge: midpoint of the nearest points
};

double feas_margin(const Vec3& eta, const Vec3& nearest, const Vec3& v, const NarrowphaseParams& params) {
  const Vec3 w = v - nearest + params.eps_feasible * eta;
  return eta.dot(w) + std::max(0.0, -params.eps_theta) * w.norm();
}

void brute_vertex_face(const Polyhedron& F, const Pose& pf, const Polyhedron& V, const Pose& pv, int group,
                       const NarrowphaseParams& params, std::map<Key, Expected>& out) {
  for (std::size_t f = 0; f < F.faces.size(); ++f) {
    const Vec3 eta = pf.orientation * F.faces[f].normal;
    Vec3 centroid = Vec3::Zero();
    for (int k : F.faces[f].loop) centroid += world(pf, F.vertices[k]);
    centroid /= static_cast<double>(F.faces[f].loop.size());
    for (std::size_t vi = 0; vi < V.vertices.size(); ++vi) {
      const Vec3 p = world(pv, V.vertices[vi]);
      double best = std::numeric_limits<double>::infinity();
      Vec3 nearest = Vec3::Zero();
      for (std::size_t t = 0; t < F.triangles.size(); ++t) {
        if (F.triangle_face[t] != static_cast<int>(f)) continue;
        const auto& tri = F.triangles[t];
        const Vec3 c = closest_point_on_triangle(world(pf, F.vertices[tri[0]]), world(pf, F.vertices[tri[1]]),
                                                 world(pf, F.vertices[tri[2]]), p);
        if ((c - p).norm() < best) {
          best = (c - p).norm();
          nearest = c;
        }
      }
      Expected e;
      e.distance = best;
      e.normal = eta;
      e.gap = eta.dot(p - centroid);
      double appl = 1e300;
      for (int k : V.vertex_neighbors[vi]) appl = std::min(appl, eta.dot((world(pv, V.vertices[k]) - p).normalized()));
      e.applicability = appl;
      e.feasibility_margin = feas_margin(eta, nearest, p, params);
      out[Key{group, static_cast<int>(f), static_cast<int>(vi)}] = e;
    }
  }
}

Vec3 face_normal_world(const Polyhedron& P, const Pose& pose, int face) {
  return pose.orientation * P.faces[static_cast<std::size_t>(face)].normal;
}

void brute_edge_edge(const Polyhedron& A, const Pose& pa, const Polyhedron& B, const Pose& pb,
                     const NarrowphaseParams& params, std::map<Key, Expected>& out) {
  for (std::size_t i = 0; i < A.edges.size(); ++i) {
    const PolyEdge& ea = A.edges[i];
    const Vec3 a0 = world(pa, A.vertices[ea.tail]), a1 = world(pa, A.vertices[ea.head]);
    for (std::size_t j = 0; j < B.edges.size(); ++j) {
      const PolyEdge& eb = B.edges[j];
      const Vec3 b0 = world(pb, B.vertices[eb.tail]), b1 = world(pb, B.vertices[eb.head]);
      const Vec3 u = a1 - a0, v = b1 - b0;
      Expected e;
      const SegDist sd = segment_distance(a0, a1, b0, b1);
      e.distance = sd.d;
      e.mid = 0.5 * (sd.ca + sd.cb);
      const double sine = u.cross(v).norm() / (u.norm() * v.norm());
      e.parallel = sine <= 1e-6;
      if (!e.parallel) {
        // eq. 3.6, with the orientation vector of B's edge
        const Vec3 orient = v.cross(-(face_normal_world(B, pb, eb.face_1) + face_normal_world(B, pb, eb.face_2)));
        Vec3 n = u.cross(v).normalized();
        if (u.dot(orient) < 0.0) n = -n;
        e.normal = n;
        e.gap = n.dot(b0 - a0);
        const double d[4] = {n.dot(pa.orientation * ea.t1), n.dot(pa.orientation * ea.t2),
                             -n.dot(pb.orientation * eb.t1), -n.dot(pb.orientation * eb.t2)};
        e.applicability = std::max(std::min({d[0], d[1], d[2], d[3]}), std::min({-d[0], -d[1], -d[2], -d[3]}));
        e.feasibility_margin = feas_margin(n, sd.ca, sd.cb, params);
      }
      out[Key{2, static_cast<int>(i), static_cast<int>(j)}] = e;
    }
  }
}

struct CompareStats {
  int matched = 0;
  int primary = 0;
  int edge_edge = 0;
  int band = 0;
};

// Compares one call of find_contacts_polyhedra with the brute force.
void compare(const Polyhedron& A, const Pose& pa, const Polyhedron& B, const Pose& pb,
             const NarrowphaseParams& params, CompareStats& stats, const char* what) {
  const std::uint32_t ia = 3, ib = 7;
  const BodyGeometry ga{ia, nullptr, pa}, gb{ib, nullptr, pb};
  std::vector<Contact> found;
  find_contacts_polyhedra(ga, A, gb, B, params, found);

  std::map<Key, Expected> all;
  brute_vertex_face(A, pa, B, pb, 0, params, all);
  brute_vertex_face(B, pb, A, pa, 1, params, all);
  brute_edge_edge(A, pa, B, pb, params, all);

  const double band = 1e-9;
  std::map<Key, const Contact*> got;
  Key previous{-1, -1, -1};
  for (const Contact& c : found) {
    Key k{};
    if (c.kind == FeatureKind::VertexFace && c.body_a == ia) k = Key{0, c.features.feature_a, c.features.feature_b};
    else if (c.kind == FeatureKind::VertexFace && c.body_a == ib) k = Key{1, c.features.feature_a, c.features.feature_b};
    else if (c.kind == FeatureKind::EdgeEdge && c.body_a == ia) k = Key{2, c.features.feature_a, c.features.feature_b};
    else FAIL() << what << ": unexpected contact kind/owner";
    // documented order: group, then feature_a, then feature_b; no duplicates
    ASSERT_LT(previous, k) << what;
    previous = k;
    got[k] = &c;
    ASSERT_EQ(c.body_b, k.group == 1 ? ia : ib);
  }

  for (const auto& [k, e] : all) {
    const bool expected = !e.parallel && e.distance <= params.eps;
    const auto it = got.find(k);
    const bool present = it != got.end();
    if (present != expected) {
      // disagreement only allowed right at the eps boundary
      ASSERT_LT(std::abs(e.distance - params.eps), band)
          << what << " group " << k.group << " features " << k.fa << "," << k.fb << " distance " << e.distance
          << " present " << present;
      ++stats.band;
      continue;
    }
    if (!present) continue;
    const Contact& c = *it->second;
    ++stats.matched;
    if (k.group == 2) ++stats.edge_edge;
    if (c.features.primary) ++stats.primary;
    EXPECT_NEAR((c.normal - e.normal).norm(), 0.0, 1e-9) << what;
    EXPECT_NEAR(c.normal.norm(), 1.0, 1e-12);
    EXPECT_NEAR(c.gap, e.gap, 1e-9) << what << " group " << k.group;
    EXPECT_NEAR((c.point_b - c.point_a - c.gap * c.normal).norm(), 0.0, 1e-12);
    EXPECT_NEAR(c.features.applicability, e.applicability, 1e-9) << what;
    if (k.group < 2) {
      const Polyhedron& V = k.group == 0 ? B : A;
      const Pose& pv = k.group == 0 ? pb : pa;
      EXPECT_NEAR((c.point_b - world(pv, V.vertices[k.fb])).norm(), 0.0, 1e-12);
    } else {
      EXPECT_NEAR((0.5 * (c.point_a + c.point_b) - e.mid).norm(), 0.0, 1e-8) << what;
    }
    const bool primary = e.applicability >= params.eps_theta && e.feasibility_margin >= 0.0;
    const bool near_boundary =
        std::abs(e.applicability - params.eps_theta) < band || std::abs(e.feasibility_margin) < band;
    if (!near_boundary) {
      EXPECT_EQ(c.features.primary, primary) << what << " group " << k.group;
    }
  }
  for (const auto& [k, c] : got) ASSERT_TRUE(all.count(k)) << what;
}

Pose random_pose(Rng& rng, bool aligned) {
  Pose p;
  if (aligned) {
    p.orientation = rng.axis_rotation();
    p.position = Vec3(rng.integer(-4, 4), rng.integer(-4, 4), rng.integer(-4, 4)) * 0.125;
  } else {
    p.orientation = rng.rotation();
    p.position = rng.in_ball(1.0);
  }
  return p;
}

// Places B so that its support gap to A along a random direction u is g.
Pose place_near(Rng& rng, const Polyhedron& A, const Pose& pa, const Polyhedron& B, Quat qb, double g) {
  const Vec3 u = rng.direction();
  double sa = -1e300, sb = 1e300;
  for (const Vec3& v : A.vertices) sa = std::max(sa, u.dot(world(pa, v)));
  for (const Vec3& v : B.vertices) sb = std::min(sb, u.dot(qb * v));
  Vec3 t = rng.in_ball(0.3);
  t -= u.dot(t) * u;
  Pose pb;
  pb.orientation = qb;
  pb.position = (sa - sb + g) * u + t;
  return pb;
}

TEST(Narrowphase3d, MatchesBruteForceOnRandomPolyhedra) {
  const std::vector<Polyhedron> pool = polyhedron_pool();
  Rng rng(7);
  CompareStats stats;
  const int configs = 3000;
  for (int i = 0; i < configs; ++i) {
    NarrowphaseParams params;
    params.eps = (i % 3 == 0) ? 0.2 : 0.05;
    const Polyhedron& A = pool[static_cast<std::size_t>(rng.integer(0, static_cast<int>(pool.size()) - 1))];
    const Polyhedron& B = pool[static_cast<std::size_t>(rng.integer(0, static_cast<int>(pool.size()) - 1))];
    Pose pa, pb;
    if (i % 5 == 4) {  // lattice poses: exact parallels, coplanar facets, coincident vertices
      pa = random_pose(rng, true);
      pb = random_pose(rng, true);
      pb.position = pa.position + Vec3(rng.integer(-6, 6), rng.integer(-6, 6), rng.integer(-6, 6)) * 0.125;
    } else {
      pa = random_pose(rng, false);
      pb = place_near(rng, A, pa, B, rng.rotation(), rng.uniform(-0.01, 0.08));
    }
    char what[64];
    std::snprintf(what, sizeof what, "config %d", i);
    compare(A, pa, B, pb, params, stats, what);
    if (HasFatalFailure()) return;
  }
  // the configurations must exercise every feature kind
  EXPECT_GT(stats.matched, 4 * configs);
  EXPECT_GT(stats.edge_edge, 2 * configs);
  EXPECT_GT(stats.primary, configs / 3);
  EXPECT_GT(stats.matched - stats.primary, configs);
  std::printf("matched %d contacts (%d edge-edge, %d primary), %d at the eps boundary\n", stats.matched,
              stats.edge_edge, stats.primary, stats.band);
}

TEST(Narrowphase3d, DeterministicAndIndependentOfHistory) {
  const std::vector<Polyhedron> pool = polyhedron_pool();
  Rng rng(11);
  for (int i = 0; i < 200; ++i) {
    const Polyhedron& A = pool[static_cast<std::size_t>(rng.integer(0, 38))];
    const Polyhedron& B = pool[static_cast<std::size_t>(rng.integer(0, 38))];
    const Pose pa = random_pose(rng, false);
    const Pose pb = place_near(rng, A, pa, B, rng.rotation(), rng.uniform(-0.1, 0.1));
    NarrowphaseParams params;
    params.eps = 0.1;
    const BodyGeometry ga{0, nullptr, pa}, gb{1, nullptr, pb};
    std::vector<Contact> first, second;
    find_contacts_polyhedra(ga, A, gb, B, params, first);
    // an unrelated call in between (scratch buffers are reused)
    std::vector<Contact> other;
    find_contacts_polyhedra(gb, pool[0], ga, pool[1], params, other);
    second.push_back(Contact{});  // appends, never clears
    find_contacts_polyhedra(ga, A, gb, B, params, second);
    ASSERT_EQ(second.size(), first.size() + 1);
    for (std::size_t k = 0; k < first.size(); ++k) {
      EXPECT_EQ(first[k].kind, second[k + 1].kind);
      EXPECT_EQ(first[k].features.feature_a, second[k + 1].features.feature_a);
      EXPECT_EQ(first[k].features.feature_b, second[k + 1].features.feature_b);
      EXPECT_EQ(first[k].gap, second[k + 1].gap);  // bitwise
    }
  }
}

// True distance between two separated convex polyhedra: the minimum over
// vertex-facet pairs (both ways) and edge pairs (parallel ones included).
double true_distance(const Polyhedron& A, const Pose& pa, const Polyhedron& B, const Pose& pb) {
  double best = std::numeric_limits<double>::infinity();
  auto vertex_faces = [&best](const Polyhedron& F, const Pose& pf, const Polyhedron& V, const Pose& pv) {
    for (const Vec3& v : V.vertices) {
      const Vec3 p = world(pv, v);
      for (const auto& tri : F.triangles) {
        const Vec3 c = closest_point_on_triangle(world(pf, F.vertices[tri[0]]), world(pf, F.vertices[tri[1]]),
                                                 world(pf, F.vertices[tri[2]]), p);
        best = std::min(best, (c - p).norm());
      }
    }
  };
  vertex_faces(A, pa, B, pb);
  vertex_faces(B, pb, A, pa);
  for (const PolyEdge& ea : A.edges)
    for (const PolyEdge& eb : B.edges)
      best = std::min(best, segment_distance(world(pa, A.vertices[ea.tail]), world(pa, A.vertices[ea.head]),
                                             world(pb, B.vertices[eb.tail]), world(pb, B.vertices[eb.head]))
                                .d);
  return best;
}

// Eq. 3.6 orients edge-edge normals from A onto B: for every primary
// edge-edge contact whose nearest points are interior to both edges (a genuine
// edge-edge configuration), moving B along +n must increase the true
// separation of the (separated) bodies. Contacts whose nearest points are at
// an edge end are vertex-edge / vertex-vertex configurations: their line-line
// normal need not be a separating direction, and PEG pairs them with the
// vertex-face contacts of that vertex (thesis 4.4.3-4.4.4).
TEST(Narrowphase3d, EdgeEdgeNormalPointsFromAToB) {
  const std::vector<Polyhedron> pool = polyhedron_pool();
  Rng rng(99);
  int checked = 0;
  for (int i = 0; i < 3000; ++i) {
    const Polyhedron& A = pool[static_cast<std::size_t>(rng.integer(0, 38))];
    const Polyhedron& B = pool[static_cast<std::size_t>(rng.integer(0, 38))];
    const Pose pa = random_pose(rng, false);
    const Pose pb = place_near(rng, A, pa, B, rng.rotation(), rng.uniform(0.001, 0.03));
    NarrowphaseParams params;
    params.eps = 0.2;
    const BodyGeometry ga{0, nullptr, pa}, gb{1, nullptr, pb};
    std::vector<Contact> found;
    find_contacts_polyhedra(ga, A, gb, B, params, found);
    const double d0 = true_distance(A, pa, B, pb);
    ASSERT_GT(d0, 0.0);
    for (const Contact& c : found) {
      if (c.kind != FeatureKind::EdgeEdge || !c.features.primary) continue;
      const PolyEdge& ea = A.edges[static_cast<std::size_t>(c.features.feature_a)];
      const PolyEdge& eb = B.edges[static_cast<std::size_t>(c.features.feature_b)];
      const SegDist sd = segment_distance(world(pa, A.vertices[ea.tail]), world(pa, A.vertices[ea.head]),
                                          world(pb, B.vertices[eb.tail]), world(pb, B.vertices[eb.head]));
      if (!sd.interior) continue;
      EXPECT_GT(c.gap, 0.0) << "config " << i;
      Pose moved = pb;
      moved.position += 1e-4 * c.normal;
      EXPECT_GT(true_distance(A, pa, B, moved), d0) << "config " << i;
      ++checked;
    }
  }
  EXPECT_GT(checked, 200);
  std::printf("checked %d edge-edge normals\n", checked);
}

}  // namespace
}  // namespace pegsim
