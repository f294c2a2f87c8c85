// Tessellations of the curved kinds for recordings and the viewer
// (geometry/shape_kind.hpp, append_mesh). FOR DRAWING ONLY: no geometry of
// pegsim (support, contact, mass, penetration, overlap) reads these meshes;
// they use the exact shapes of geometry/curved.hpp.
//
// 3D kinds are surfaces of revolution about body z, meshed ring by ring from
// a profile of (z, r) points: kSectors sectors around, each band quad (a
// triangle at a pole) one facet, so the viewer's facet outlines draw a
// latitude-longitude grid that shows the body turn; flat caps are one facet.
// 2D kinds are one facet, their outline (kSectors points round a disc).
#include "geometry/curved.hpp"

#include <cmath>
#include <numbers>
#include <utility>
#include <vector>

namespace pegsim {

namespace {

constexpr int kSectors = 24;  // around the axis
constexpr int kRings = 6;     // per quarter circle of a sphere's profile

struct ProfilePoint {
  double z, r;
};

// Appends the surface of revolution of `profile` (bottom to top) about the z
// axis through `centre`: caps where the profile ends off the axis.
void append_revolution(const std::vector<ProfilePoint>& profile, const Vec3& centre, ShapeMesh& mesh) {
  std::vector<std::vector<int>> rings;
  for (const ProfilePoint& p : profile) {
    std::vector<int>& ring = rings.emplace_back();
    const int count = p.r > 0.0 ? kSectors : 1;
    for (int j = 0; j < count; ++j) {
      const double theta = 2.0 * std::numbers::pi * j / kSectors;
      ring.push_back(static_cast<int>(mesh.vertices.size()));
      mesh.vertices.push_back(centre + Vec3(p.r * std::cos(theta), p.r * std::sin(theta), p.z));
    }
  }
  auto at = [&](const std::vector<int>& ring, int j) { return ring[static_cast<std::size_t>(j % static_cast<int>(ring.size()))]; };
  auto vertex = [&](int i) { return mesh.vertices[static_cast<std::size_t>(i)]; };
  for (std::size_t k = 0; k + 1 < rings.size(); ++k) {
    for (int j = 0; j < kSectors; ++j) {
      const int a = at(rings[k], j), b = at(rings[k], j + 1), c = at(rings[k + 1], j + 1), d = at(rings[k + 1], j);
      std::vector<int> loop;
      for (int v : {a, b, c, d})
        if (loop.empty() || (loop.back() != v && loop.front() != v)) loop.push_back(v);
      if (loop.size() < 3) continue;
      mesh.triangles.push_back({loop[0], loop[1], loop[2]});
      if (loop.size() == 4) mesh.triangles.push_back({loop[0], loop[2], loop[3]});
      mesh.facet_normals.push_back((vertex(c) - vertex(a)).cross(vertex(d) - vertex(b)).normalized());
      mesh.facets.push_back(std::move(loop));
    }
  }
  auto cap = [&](const std::vector<int>& ring, bool top) {
    if (ring.size() < 3) return;
    std::vector<int> loop(ring.begin(), ring.end());
    if (!top) loop.assign(ring.rbegin(), ring.rend());
    for (std::size_t i = 2; i < loop.size(); ++i) mesh.triangles.push_back({loop[0], loop[i - 1], loop[i]});
    mesh.facets.push_back(std::move(loop));
    mesh.facet_normals.push_back(top ? Vec3::UnitZ() : Vec3(-Vec3::UnitZ()));
  };
  cap(rings.front(), false);
  cap(rings.back(), true);
}

// a quarter circle of radius r about height z0, from the pole (below when down) to the equator
void append_quarter(std::vector<ProfilePoint>& profile, double z0, double r, bool down) {
  for (int k = 0; k <= kRings; ++k) {
    const double phi = 0.5 * std::numbers::pi * k / kRings;  // from the pole
    const ProfilePoint p{down ? z0 - r * std::cos(phi) : z0 + r * std::sin(phi),
                         down ? r * std::sin(phi) : r * std::cos(phi)};
    if (!profile.empty() && profile.back().z == p.z && profile.back().r == p.r) continue;
    profile.push_back(p);
  }
}

void append_outline(const std::vector<Vec2>& outline, const Vec3& centre, ShapeMesh& mesh) {
  const int base = static_cast<int>(mesh.vertices.size());
  std::vector<int>& loop = mesh.facets.emplace_back();
  for (std::size_t i = 0; i < outline.size(); ++i) {
    mesh.vertices.push_back(centre + lift(outline[i]));
    loop.push_back(base + static_cast<int>(i));
    if (i >= 2) mesh.triangles.push_back({base, base + static_cast<int>(i) - 1, base + static_cast<int>(i)});
  }
  mesh.facet_normals.push_back(Vec3::UnitZ());
}

// the arc of radius r about c from angle a0 through a0 + pi, counter-clockwise
void append_arc(std::vector<Vec2>& out, const Vec2& c, double r, double a0) {
  for (int k = 0; k <= kSectors / 2; ++k) {
    const double a = a0 + std::numbers::pi * k / (kSectors / 2);
    out.push_back(c + r * Vec2(std::cos(a), std::sin(a)));
  }
}

}  // namespace

void append_mesh(const Sphere& s, ShapeMesh& mesh) {
  std::vector<ProfilePoint> profile;
  append_quarter(profile, 0.0, s.radius, true);
  append_quarter(profile, 0.0, s.radius, false);
  append_revolution(profile, s.centre, mesh);
}

void append_mesh(const Capsule& s, ShapeMesh& mesh) {
  std::vector<ProfilePoint> profile;
  append_quarter(profile, -0.5 * s.length, s.radius, true);
  append_quarter(profile, 0.5 * s.length, s.radius, false);
  append_revolution(profile, s.centre, mesh);
}

void append_mesh(const Cylinder& s, ShapeMesh& mesh) {
  append_revolution({{-0.5 * s.height, s.radius}, {0.5 * s.height, s.radius}}, s.centre, mesh);
}

void append_mesh(const Cone& s, ShapeMesh& mesh) {
  append_revolution({{0.0, s.radius}, {s.height, 0.0}}, s.centre, mesh);
}

void append_mesh(const Disc& s, ShapeMesh& mesh) {
  std::vector<Vec2> outline;
  for (int k = 0; k < kSectors; ++k) {
    const double a = 2.0 * std::numbers::pi * k / kSectors;
    outline.push_back(s.radius * Vec2(std::cos(a), std::sin(a)));
  }
  append_outline(outline, s.centre, mesh);
}

void append_mesh(const Capsule2d& s, ShapeMesh& mesh) {
  std::vector<Vec2> outline;
  append_arc(outline, Vec2(0.5 * s.length, 0.0), s.radius, -0.5 * std::numbers::pi);
  append_arc(outline, Vec2(-0.5 * s.length, 0.0), s.radius, 0.5 * std::numbers::pi);
  std::vector<Vec2> distinct;  // a zero length: the arcs' ends meet
  for (const Vec2& v : outline)
    if (distinct.empty() || (v - distinct.back()).norm() > 1e-12 * s.radius) distinct.push_back(v);
  if ((distinct.front() - distinct.back()).norm() <= 1e-12 * s.radius) distinct.pop_back();
  append_outline(distinct, s.centre, mesh);
}

}  // namespace pegsim
