// Mass properties of a uniform solid polyhedron or lamina polygon.
//
// Polyhedron (divergence theorem): the solid is the signed union of the
// tetrahedra (r, a, b, c) over the fan triangles (a, b, c) of its facets, CCW
// from outside, with apex r the mean of the vertices (not the body origin, so
// the sums stay well conditioned for a shape far from its frame's origin).
// For a tetrahedron with apex at the origin and d = a . (b x c) = 6 V:
//   volume        V        = d / 6
//   first moment  int x    = V (a + b + c) / 4
//   second moment int x x^T = d / 120 (a a^T + b b^T + c c^T + s s^T),  s = a + b + c
// The covariance C about the centroid g (relative to r) is the sum minus
// V g g^T, and the inertia tensor is rho (tr(C) 1 - C).
//
// Polygon: the same over the triangles (r, a, b) of its edges, d = a x b = 2 A.
#include "geometry/mass_properties.hpp"

#include "geometry/shape.hpp"

#include <cmath>
#include <string>

namespace pegsim {

namespace {

void check_density(double density) {
  if (!(density > 0.0) || !std::isfinite(density))
    throw GeometryError("mass_properties: density must be positive and finite, got " + std::to_string(density));
}

struct Moments3 {
  Vec3 reference = Vec3::Zero();
  double volume = 0.0;
  Vec3 first = Vec3::Zero();   // int (x - r)
  Mat3 second = Mat3::Zero();  // int (x - r)(x - r)^T
};

Moments3 moments(const Polyhedron& p) {
  Moments3 m;
  for (const Vec3& v : p.vertices) m.reference += v;
  if (!p.vertices.empty()) m.reference /= static_cast<double>(p.vertices.size());
  for (const auto& [i, j, k] : p.triangles) {
    const Vec3 a = p.vertices[i] - m.reference;
    const Vec3 b = p.vertices[j] - m.reference;
    const Vec3 c = p.vertices[k] - m.reference;
    const double d = a.dot(b.cross(c));
    const Vec3 s = a + b + c;
    m.volume += d / 6.0;
    m.first += (d / 24.0) * s;
    m.second += (d / 120.0) * (a * a.transpose() + b * b.transpose() + c * c.transpose() + s * s.transpose());
  }
  return m;
}

struct Moments2 {
  Vec2 reference = Vec2::Zero();
  double area = 0.0;
  Vec2 first = Vec2::Zero();    // int (x - r)
  Eigen::Matrix2d second = Eigen::Matrix2d::Zero();  // int (x - r)(x - r)^T
};

// Triangle (0, a, b) with d = a x b: area d / 2, first moment d (a + b) / 6,
// second moment d / 24 (a a^T + b b^T + (a + b)(a + b)^T).
Moments2 moments(const Polygon& p) {
  Moments2 m;
  for (const Vec2& v : p.vertices) m.reference += v;
  if (!p.vertices.empty()) m.reference /= static_cast<double>(p.vertices.size());
  for (int i = 0; i < p.size(); ++i) {
    const Vec2 a = p.vertices[i] - m.reference;
    const Vec2 b = p.vertices[p.next(i)] - m.reference;
    const double d = cross2(a, b);
    const Vec2 s = a + b;
    m.area += d / 2.0;
    m.first += (d / 6.0) * s;
    m.second += (d / 24.0) * (a * a.transpose() + b * b.transpose() + s * s.transpose());
  }
  return m;
}

}  // namespace

double volume(const Polyhedron& p) { return moments(p).volume; }

double area(const Polygon& p) { return moments(p).area; }

MassProperties mass_properties(const Polyhedron& p, double density) {
  check_density(density);
  const Moments3 m = moments(p);
  if (!(m.volume > 0.0)) throw GeometryError("mass_properties: polyhedron has no positive volume (call build_adjacency()?)");
  const Vec3 g = m.first / m.volume;  // centroid relative to the reference point
  const Mat3 cov = m.second - m.volume * g * g.transpose();
  MassProperties out;
  out.mass = density * m.volume;
  out.centre_of_mass = m.reference + g;
  out.inertia = density * (cov.trace() * Mat3::Identity() - cov);
  out.inertia = 0.5 * (out.inertia + out.inertia.transpose());  // exact symmetry
  return out;
}

// A lamina in z = 0: Ixx = rho int y^2, Iyy = rho int x^2, Ixy = -rho int xy,
// Izz = Ixx + Iyy (perpendicular axis theorem), all about the centroid.
MassProperties mass_properties(const Polygon& p, double density) {
  check_density(density);
  const Moments2 m = moments(p);
  if (!(m.area > 0.0)) throw GeometryError("mass_properties: polygon has no positive area (clockwise?)");
  const Vec2 g = m.first / m.area;
  const Eigen::Matrix2d cov = m.second - m.area * g * g.transpose();
  MassProperties out;
  out.mass = density * m.area;
  out.centre_of_mass = lift(m.reference + g);
  out.inertia(0, 0) = density * cov(1, 1);
  out.inertia(1, 1) = density * cov(0, 0);
  out.inertia(0, 1) = out.inertia(1, 0) = -density * 0.5 * (cov(0, 1) + cov(1, 0));
  out.inertia(2, 2) = density * cov.trace();
  return out;
}

}  // namespace pegsim
