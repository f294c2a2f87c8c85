// Mass properties against closed forms, a Monte-Carlo estimate with a
// tolerance derived from its sample count, and translation invariance.
#include "geometry/mass_properties.hpp"
#include "geometry/shape.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <numbers>
#include <random>
#include <string>

namespace pegsim {
namespace {

// std::mt19937_64 with our own uniform mapping (platform-independent draws).
struct Sampler {
  explicit Sampler(std::uint64_t seed) : rng(seed) {}
  double unit() { return static_cast<double>(rng() >> 11) * 0x1.0p-53; }
  double uniform(double lo, double hi) { return lo + (hi - lo) * unit(); }
  Vec3 vec3(double lo, double hi) { return Vec3(uniform(lo, hi), uniform(lo, hi), uniform(lo, hi)); }
  std::mt19937_64 rng;
};

void expect_mat_near(const Mat3& a, const Mat3& b, double tol) {
  EXPECT_LE((a - b).cwiseAbs().maxCoeff(), tol) << "\n" << a << "\nvs\n" << b;
}

std::vector<Vec3> shifted(const std::vector<Vec3>& pts, const Vec3& d) {
  std::vector<Vec3> out;
  for (const Vec3& p : pts) out.push_back(p + d);
  return out;
}

TEST(MassProperties, BoxMatchesClosedForm) {
  const double a = 1.0, b = 2.0, c = 3.0, rho = 7.5;
  const MassProperties m = mass_properties(make_box(Vec3(a, b, c)), rho);
  const double mass = rho * a * b * c;
  EXPECT_NEAR(m.mass, mass, 1e-12 * mass);
  EXPECT_LE(m.centre_of_mass.norm(), 1e-14);
  const Mat3 expected = Vec3(mass * (b * b + c * c) / 12, mass * (a * a + c * c) / 12, mass * (a * a + b * b) / 12).asDiagonal();
  expect_mat_near(m.inertia, expected, 1e-12 * mass * 14);
}

TEST(MassProperties, PlatonicVolumes) {
  const double L = 1.3, L3 = L * L * L, s5 = std::sqrt(5.0);
  EXPECT_NEAR(volume(make_cube(L)), L3, 1e-13);
  EXPECT_NEAR(volume(make_tetrahedron(L)), L3 / (6.0 * std::numbers::sqrt2), 1e-13);
  EXPECT_NEAR(volume(make_octahedron(L)), std::numbers::sqrt2 / 3.0 * L3, 1e-13);
  EXPECT_NEAR(volume(make_dodecahedron(L)), (15.0 + 7.0 * s5) / 4.0 * L3, 1e-12);
  EXPECT_NEAR(volume(make_icosahedron(L)), 5.0 * (3.0 + s5) / 12.0 * L3, 1e-12);
}

TEST(MassProperties, RegularTetrahedronIsIsotropic) {
  // About its centroid a regular tetrahedron has I = m L^2 / 20 on every axis.
  const double L = 0.8;
  const MassProperties m = mass_properties(make_tetrahedron(L), 2.0);
  expect_mat_near(m.inertia, (m.mass * L * L / 20.0) * Mat3::Identity(), 1e-14);
  EXPECT_LE(m.centre_of_mass.norm(), 1e-15);
}

TEST(MassProperties, PrismMatchesClosedForm) {
  // Regular n-gon of circumradius R: polar moment per area (R^2 / 6)(2 + cos(2 pi / n)),
  // split equally between x and y; height h adds h^2 / 12 about x and y.
  const double R = 0.6, h = 1.7;
  for (int n : {3, 4, 6, 17}) {
    const MassProperties m = mass_properties(make_prism(n, R, h), 1.0);
    const double area = 0.5 * n * R * R * std::sin(2.0 * std::numbers::pi / n);
    EXPECT_NEAR(m.mass, area * h, 1e-13);
    const double j = R * R / 6.0 * (2.0 + std::cos(2.0 * std::numbers::pi / n));
    const Mat3 expected = Vec3(m.mass * (j / 2 + h * h / 12), m.mass * (j / 2 + h * h / 12), m.mass * j).asDiagonal();
    expect_mat_near(m.inertia, expected, 1e-13);
  }
}

// Monte-Carlo estimate of the mass properties of the hull of a random cloud:
// uniform samples in the bounding box, each estimate's tolerance 5 standard
// errors of its own sample mean.
TEST(MassProperties, RandomHullMatchesMonteCarlo) {
  Sampler rng(0x3a55);
  std::vector<Vec3> pts;
  for (int i = 0; i < 40; ++i) pts.push_back(rng.vec3(-1, 1).cwiseProduct(Vec3(1.0, 0.6, 0.3)) + Vec3(0.2, 0, 0));
  const Polyhedron p = polyhedron_from_points(pts);
  const MassProperties m = mass_properties(p, 1.0);

  Vec3 lo = p.vertices[0], hi = p.vertices[0];
  for (const Vec3& v : p.vertices) lo = lo.cwiseMin(v), hi = hi.cwiseMax(v);
  const double box = (hi - lo).prod();
  const int n = 400000;
  // Per-sample quantities q (box volume times indicator times f(x)); their
  // means estimate the integrals, with standard error sd(q) / sqrt(n).
  Eigen::Matrix<double, 10, 1> sum = Eigen::Matrix<double, 10, 1>::Zero(), sum2 = sum;
  for (int k = 0; k < n; ++k) {
    const Vec3 x = lo + Vec3(rng.unit(), rng.unit(), rng.unit()).cwiseProduct(hi - lo);
    bool inside = true;
    for (const PolyFace& f : p.faces) inside = inside && f.normal.dot(x) <= f.offset;
    if (!inside) continue;
    const Vec3 r = x - m.centre_of_mass;
    Eigen::Matrix<double, 10, 1> q;
    q << 1.0, r, r.y() * r.y() + r.z() * r.z(), r.x() * r.x() + r.z() * r.z(), r.x() * r.x() + r.y() * r.y(),
        -r.x() * r.y(), -r.x() * r.z(), -r.y() * r.z();
    q *= box;
    sum += q;
    sum2 += q.cwiseProduct(q);
  }
  const Eigen::Matrix<double, 10, 1> mean = sum / n;
  const Eigen::Matrix<double, 10, 1> se = ((sum2 / n - mean.cwiseProduct(mean)) / (n - 1)).cwiseSqrt();
  const Eigen::Matrix<double, 10, 1> exact =
      (Eigen::Matrix<double, 10, 1>() << m.mass, 0, 0, 0, m.inertia(0, 0), m.inertia(1, 1), m.inertia(2, 2),
       m.inertia(0, 1), m.inertia(0, 2), m.inertia(1, 2))
          .finished();
  for (int i = 0; i < 10; ++i) EXPECT_NEAR(mean[i], exact[i], 5.0 * se[i] + 1e-12) << "quantity " << i;
}

TEST(MassProperties, InvariantToTranslatingTheInput) {
  Sampler rng(0x7a7a);
  std::vector<Vec3> pts;
  for (int i = 0; i < 30; ++i) pts.push_back(rng.vec3(-1, 1));
  const Vec3 d(100.0, -250.0, 40.0);
  const MassProperties a = mass_properties(polyhedron_from_points(pts), 3.0);
  const MassProperties b = mass_properties(polyhedron_from_points(shifted(pts, d)), 3.0);
  EXPECT_NEAR(a.mass, b.mass, 1e-12 * a.mass);
  EXPECT_TRUE(b.centre_of_mass.isApprox(a.centre_of_mass + d, 1e-12));
  expect_mat_near(a.inertia, b.inertia, 1e-10 * a.inertia.norm());
  // And translating the built shape to its centre of mass changes nothing but the frame.
  Polyhedron p = polyhedron_from_points(pts);
  p.translate(a.centre_of_mass);
  const MassProperties c = mass_properties(p, 3.0);
  EXPECT_LE(c.centre_of_mass.norm(), 1e-14);
  expect_mat_near(c.inertia, a.inertia, 1e-13 * a.inertia.norm());
}

TEST(MassProperties, RotatedBoxRotatesTheTensor) {
  const Vec3 size(0.4, 1.0, 2.2);
  const Mat3 rot = Eigen::AngleAxisd(0.7, Vec3(1, 2, 3).normalized()).toRotationMatrix();
  const Polyhedron box = make_box(size);
  std::vector<Vec3> pts;
  for (const Vec3& v : box.vertices) pts.push_back(rot * v);
  const MassProperties a = mass_properties(box, 1.0);
  const MassProperties b = mass_properties(polyhedron_from_points(pts), 1.0);
  expect_mat_near(b.inertia, rot * a.inertia * rot.transpose(), 1e-13);
}

TEST(MassProperties, PolygonsMatchClosedForms) {
  const double s = 1.5, rho = 2.0;
  const MassProperties sq = mass_properties(make_polygon({{0, 0}, {s, 0}, {s, s}, {0, s}}), rho);
  EXPECT_NEAR(sq.mass, rho * s * s, 1e-14);
  EXPECT_TRUE(sq.centre_of_mass.isApprox(Vec3(s / 2, s / 2, 0)));
  EXPECT_NEAR(sq.inertia(2, 2), sq.mass * s * s / 6.0, 1e-14);
  EXPECT_NEAR(area(make_polygon({{0, 0}, {s, 0}, {s, s}, {0, s}})), s * s, 1e-15);

  // Right triangle with legs b, h: centroid (b/3, h/3), Izz = m (b^2 + h^2) / 18.
  const double b = 3.0, h = 1.0;
  const MassProperties tri = mass_properties(make_polygon({{0, 0}, {b, 0}, {0, h}}), rho);
  EXPECT_NEAR(tri.mass, rho * b * h / 2, 1e-14);
  EXPECT_TRUE(tri.centre_of_mass.isApprox(Vec3(b / 3, h / 3, 0)));
  EXPECT_NEAR(tri.inertia(2, 2), tri.mass * (b * b + h * h) / 18.0, 1e-14);
  EXPECT_NEAR(tri.inertia(2, 2), tri.inertia(0, 0) + tri.inertia(1, 1), 1e-14);  // perpendicular axes

  // Regular n-gon: Izz = m (R^2 / 6)(2 + cos(2 pi / n)); invariant to translation.
  for (int n : {3, 5, 12}) {
    const Polygon p = make_regular_polygon(n, 0.9);
    const MassProperties m = mass_properties(p, 1.0);
    EXPECT_NEAR(m.inertia(2, 2), m.mass * 0.81 / 6.0 * (2.0 + std::cos(2.0 * std::numbers::pi / n)), 1e-14);
    std::vector<Vec2> moved;
    for (const Vec2& v : p.vertices) moved.push_back(v + Vec2(40, -7));
    const MassProperties t = mass_properties(make_polygon(moved), 1.0);
    EXPECT_NEAR(t.inertia(2, 2), m.inertia(2, 2), 1e-12);
    EXPECT_TRUE(t.centre_of_mass.isApprox(m.centre_of_mass + Vec3(40, -7, 0), 1e-12));
  }
}

TEST(MassProperties, DensityMustBePositive) {
  const Polyhedron cube = make_cube(1.0);
  const Polygon sq = make_rectangle(1.0, 1.0);
  for (double rho : {0.0, -1.0, std::numeric_limits<double>::quiet_NaN(), std::numeric_limits<double>::infinity()}) {
    EXPECT_THROW(mass_properties(cube, rho), GeometryError);
    EXPECT_THROW(mass_properties(sq, rho), GeometryError);
  }
  try {
    mass_properties(cube, 0.0);
  } catch (const GeometryError& e) {
    EXPECT_NE(std::string(e.what()).find("density"), std::string::npos);
  }
}

}  // namespace
}  // namespace pegsim
