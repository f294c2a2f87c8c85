// Exact mass properties of the curved kinds (geometry/curved.hpp), uniform
// density, about the centre of mass, body axes. The closed forms (standard
// tables, e.g. Meriam & Kraige, Appendix D):
//   solid sphere     m = rho 4/3 pi r^3       I = 2/5 m r^2
//   solid cylinder   m = rho pi r^2 h         Izz = 1/2 m r^2, Ixx = Iyy = m (3 r^2 + h^2) / 12
//   solid cone       m = rho pi r^2 h / 3     centroid h/4 above the base;
//                    Izz = 3/10 m r^2, Ixx = Iyy = 3/20 m r^2 + 3/80 m h^2
//   capsule          a cylinder (r, L) and two hemispheres (m_h = rho 2/3 pi r^3 each,
//                    centroid 3r/8 from the flat face, transverse I about it 83/320 m_h r^2),
//                    each moved L/2 + 3r/8 off the centre (parallel axis theorem)
//   disc (lamina)    m = rho pi r^2           Izz = 1/2 m r^2, Ixx = Iyy = 1/4 m r^2
//   2D capsule       a rectangle (L x 2r) and two half-discs (m_s = rho pi r^2 / 2,
//                    centroid 4r / (3 pi) from the flat edge, polar I about it
//                    1/2 m_s r^2 - m_s (4r / 3pi)^2), moved L/2 + 4r / (3 pi) along x
// tests/geometry/test_curved_shapes.cpp checks each against the divergence
// theorem over a fine inscribed polytope (an independent path).
#include "geometry/curved.hpp"

#include <cmath>
#include <numbers>
#include <string>

namespace pegsim {

namespace {

constexpr double kPi = std::numbers::pi;

void check_density(double density) {
  if (!(density > 0.0) || !std::isfinite(density))
    throw GeometryError("mass_properties: density must be positive and finite, got " + std::to_string(density));
}

MassProperties axial(double mass, const Vec3& centroid, double transverse, double axial_moment) {
  MassProperties out;
  out.mass = mass;
  out.centre_of_mass = centroid;
  out.inertia = Vec3(transverse, transverse, axial_moment).asDiagonal();
  return out;
}

}  // namespace

MassProperties mass_properties(const Sphere& s, double density) {
  check_density(density);
  const double r = s.radius, m = density * 4.0 / 3.0 * kPi * r * r * r;
  return axial(m, s.centre, 0.4 * m * r * r, 0.4 * m * r * r);
}

MassProperties mass_properties(const Cylinder& s, double density) {
  check_density(density);
  const double r = s.radius, h = s.height, m = density * kPi * r * r * h;
  return axial(m, s.centre, m * (3.0 * r * r + h * h) / 12.0, 0.5 * m * r * r);
}

MassProperties mass_properties(const Cone& s, double density) {
  check_density(density);
  const double r = s.radius, h = s.height, m = density * kPi * r * r * h / 3.0;
  return axial(m, s.centre + Vec3(0.0, 0.0, 0.25 * h), 0.15 * m * r * r + 0.0375 * m * h * h, 0.3 * m * r * r);
}

MassProperties mass_properties(const Capsule& s, double density) {
  check_density(density);
  const double r = s.radius, L = s.length;
  const double mc = density * kPi * r * r * L, mh = density * 2.0 / 3.0 * kPi * r * r * r;
  const double arm = 0.5 * L + 0.375 * r;  // hemisphere centroid from the centre
  const double transverse = mc * (3.0 * r * r + L * L) / 12.0 + 2.0 * (83.0 / 320.0 * mh * r * r + mh * arm * arm);
  const double along = 0.5 * mc * r * r + 2.0 * 0.4 * mh * r * r;
  return axial(mc + 2.0 * mh, s.centre, transverse, along);
}

MassProperties mass_properties(const Disc& s, double density) {
  check_density(density);
  const double r = s.radius, m = density * kPi * r * r;
  return axial(m, s.centre, 0.25 * m * r * r, 0.5 * m * r * r);
}

// Ixx = rho int y^2, Iyy = rho int x^2, Izz their sum (as for a polygon, mass_properties.cpp)
MassProperties mass_properties(const Capsule2d& s, double density) {
  check_density(density);
  const double r = s.radius, L = s.length;
  const double mr = density * 2.0 * r * L, ms = density * 0.5 * kPi * r * r;
  const double offset = 4.0 * r / (3.0 * kPi), arm = 0.5 * L + offset;
  const double int_y2 = mr * r * r / 3.0 + 2.0 * 0.25 * ms * r * r;
  const double polar = mr * (L * L + 4.0 * r * r) / 12.0 + 2.0 * (0.5 * ms * r * r - ms * offset * offset + ms * arm * arm);
  MassProperties out;
  out.mass = mr + 2.0 * ms;
  out.centre_of_mass = s.centre;
  out.inertia(0, 0) = int_y2;
  out.inertia(1, 1) = polar - int_y2;
  out.inertia(2, 2) = polar;
  return out;
}

}  // namespace pegsim
