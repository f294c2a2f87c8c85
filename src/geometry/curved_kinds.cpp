// The curved kinds' support mappings, world boxes, bounding radii, frames and
// point tests (geometry/curved.hpp). Support points are exact: the farthest
// point of the smooth surface along d (for a direction along which a flat
// part, a cap or a side line, is farthest, one point of it).
#include "geometry/curved.hpp"

#include <algorithm>
#include <cmath>
#include <string>

namespace pegsim {

namespace {

void check(bool ok, const char* what, const char* field, double value) {
  if (!ok)
    throw GeometryError(std::string(what) + ": " + field + " must be " +
                        (std::string(field) == "length" ? "non-negative" : "positive") + " and finite, got " +
                        std::to_string(value));
}
bool positive(double x) { return x > 0.0 && std::isfinite(x); }

// r d / |d| (d of zero length: r along x, one farthest point of a ball)
Vec3 towards(const Vec3& d, double r) {
  const double n = d.norm();
  return n > 0.0 ? Vec3(r * d / n) : Vec3(r, 0.0, 0.0);
}
// the point at radius r of the circle about z farthest along d's (x, y)
Vec3 rim_towards(const Vec3& d, double r) {
  const double n = std::hypot(d.x(), d.y());
  return n > 0.0 ? Vec3(r * d.x() / n, r * d.y() / n, 0.0) : Vec3(r, 0.0, 0.0);
}

// the world box of the solid of revolution about body z between z0 and z1 with radii r0, r1 about c
Aabb revolution_box(const Vec3& c, double z0, double r0, double z1, double r1, const Pose& pose) {
  const Vec3 axis = pose.rotate(Vec3::UnitZ());
  Aabb box = Aabb::empty();
  for (const auto& [z, r] : {std::pair{z0, r0}, std::pair{z1, r1}}) {
    const Vec3 o = pose.to_world(c + Vec3(0.0, 0.0, z));
    // a circle of radius r about axis spans r sqrt(1 - axis_i^2) along world axis i
    const Vec3 reach = r * (Vec3::Ones() - axis.cwiseAbs2()).cwiseMax(0.0).cwiseSqrt();
    box.grow(o - reach);
    box.grow(o + reach);
  }
  return box;
}

}  // namespace

Sphere make_sphere(double radius) {
  check(positive(radius), "sphere", "radius", radius);
  return Sphere{radius, Vec3::Zero()};
}
Capsule make_capsule(double radius, double length) {
  check(positive(radius), "capsule", "radius", radius);
  check(length >= 0.0 && std::isfinite(length), "capsule", "length", length);
  return Capsule{radius, length, Vec3::Zero()};
}
Cylinder make_cylinder(double radius, double height) {
  check(positive(radius), "cylinder", "radius", radius);
  check(positive(height), "cylinder", "height", height);
  return Cylinder{radius, height, Vec3::Zero()};
}
Cone make_cone(double radius, double height) {
  check(positive(radius), "cone", "radius", radius);
  check(positive(height), "cone", "height", height);
  return Cone{radius, height, Vec3::Zero()};
}
Disc make_disc(double radius) {
  check(positive(radius), "disc", "radius", radius);
  return Disc{radius, Vec3::Zero()};
}
Capsule2d make_capsule_2d(double radius, double length) {
  check(positive(radius), "capsule_2d", "radius", radius);
  check(length >= 0.0 && std::isfinite(length), "capsule_2d", "length", length);
  return Capsule2d{radius, length, Vec3::Zero()};
}

// bounding radii: max |x| over the shape, body frame
double bounding_radius(const Sphere& s) { return s.centre.norm() + s.radius; }
double bounding_radius(const Disc& s) { return s.centre.norm() + s.radius; }
double bounding_radius(const Capsule& s) {
  const RoundCore k = core_of(s);
  return std::max(k.p.norm(), k.q.norm()) + s.radius;
}
double bounding_radius(const Capsule2d& s) {
  const RoundCore k = core_of(s);
  return std::max(k.p.norm(), k.q.norm()) + s.radius;
}
double bounding_radius(const Cylinder& s) {
  double r = 0.0;
  for (double z : {-0.5 * s.height, 0.5 * s.height}) {
    const Vec3 c = s.centre + Vec3(0.0, 0.0, z);
    r = std::max(r, std::hypot(std::hypot(c.x(), c.y()) + s.radius, c.z()));
  }
  return r;
}
double bounding_radius(const Cone& s) {
  const Vec3& c = s.centre;
  const double base = std::hypot(std::hypot(c.x(), c.y()) + s.radius, c.z());
  return std::max(base, (c + Vec3(0.0, 0.0, s.height)).norm());
}

// support mappings
Vec3 support(const Sphere& s, const Vec3& d) { return s.centre + towards(d, s.radius); }
Vec3 support(const Disc& s, const Vec3& d) { return s.centre + towards(Vec3(d.x(), d.y(), 0.0), s.radius); }
Vec3 support(const Capsule& s, const Vec3& d) {
  const RoundCore k = core_of(s);
  return (d.z() >= 0.0 ? k.q : k.p) + towards(d, s.radius);
}
Vec3 support(const Capsule2d& s, const Vec3& d) {
  const RoundCore k = core_of(s);
  return (d.x() >= 0.0 ? k.q : k.p) + towards(Vec3(d.x(), d.y(), 0.0), s.radius);
}
Vec3 support(const Cylinder& s, const Vec3& d) {
  const double z = d.z() >= 0.0 ? 0.5 * s.height : -0.5 * s.height;
  return s.centre + Vec3(0.0, 0.0, z) + rim_towards(d, s.radius);
}
Vec3 support(const Cone& s, const Vec3& d) {
  const Vec3 apex = s.centre + Vec3(0.0, 0.0, s.height);
  const Vec3 rim = s.centre + rim_towards(d, s.radius);
  return d.dot(apex) > d.dot(rim) ? apex : rim;
}

// world boxes: exact for every kind
Aabb world_bounds(const Sphere& s, const Pose& pose) {
  const Vec3 c = pose.to_world(s.centre);
  return Aabb{c - Vec3::Constant(s.radius), c + Vec3::Constant(s.radius)};
}
Aabb world_bounds(const Disc& s, const Pose& pose) {
  const Vec3 c = pose.to_world(s.centre);
  const Vec3 r(s.radius, s.radius, 0.0);
  return Aabb{c - r, c + r};
}
Aabb world_bounds(const Capsule& s, const Pose& pose) {
  const RoundCore k = core_of(s);
  Aabb box = Aabb::empty();
  box.grow(pose.to_world(k.p));
  box.grow(pose.to_world(k.q));
  return Aabb{box.lo - Vec3::Constant(s.radius), box.hi + Vec3::Constant(s.radius)};
}
Aabb world_bounds(const Capsule2d& s, const Pose& pose) {
  const RoundCore k = core_of(s);
  Aabb box = Aabb::empty();
  box.grow(pose.to_world(k.p));
  box.grow(pose.to_world(k.q));
  const Vec3 r(s.radius, s.radius, 0.0);
  return Aabb{box.lo - r, box.hi + r};
}
Aabb world_bounds(const Cylinder& s, const Pose& pose) {
  return revolution_box(s.centre, -0.5 * s.height, s.radius, 0.5 * s.height, s.radius, pose);
}
Aabb world_bounds(const Cone& s, const Pose& pose) {
  return revolution_box(s.centre, 0.0, s.radius, s.height, 0.0, pose);
}

void translate(Sphere& s, const Vec3& offset) { s.centre -= offset; }
void translate(Capsule& s, const Vec3& offset) { s.centre -= offset; }
void translate(Cylinder& s, const Vec3& offset) { s.centre -= offset; }
void translate(Cone& s, const Vec3& offset) { s.centre -= offset; }
void translate(Disc& s, const Vec3& offset) { s.centre -= Vec3(offset.x(), offset.y(), 0.0); }
void translate(Capsule2d& s, const Vec3& offset) { s.centre -= Vec3(offset.x(), offset.y(), 0.0); }

namespace {
// squared distance of x from the segment [p, q]
double segment_distance2(const Vec3& p, const Vec3& q, const Vec3& x) {
  const Vec3 d = q - p;
  const double dd = d.squaredNorm();
  const double t = dd > 0.0 ? std::clamp((x - p).dot(d) / dd, 0.0, 1.0) : 0.0;
  return (p + t * d - x).squaredNorm();
}
template <class K>
bool in_core(const K& s, const Vec3& x) {
  const RoundCore k = core_of(s);
  return segment_distance2(k.p, k.q, x) <= k.radius * k.radius;
}
}  // namespace

bool contains(const Sphere& s, const Vec3& x) { return in_core(s, x); }
bool contains(const Capsule& s, const Vec3& x) { return in_core(s, x); }
bool contains(const Disc& s, const Vec3& x) { return in_core(s, Vec3(x.x(), x.y(), 0.0)); }
bool contains(const Capsule2d& s, const Vec3& x) { return in_core(s, Vec3(x.x(), x.y(), 0.0)); }
bool contains(const Cylinder& s, const Vec3& x) {
  const Vec3 r = x - s.centre;
  return std::abs(r.z()) <= 0.5 * s.height && r.x() * r.x() + r.y() * r.y() <= s.radius * s.radius;
}
bool contains(const Cone& s, const Vec3& x) {
  const Vec3 r = x - s.centre;
  if (r.z() < 0.0 || r.z() > s.height) return false;
  const double allowed = s.radius * (1.0 - r.z() / s.height);
  return r.x() * r.x() + r.y() * r.y() <= allowed * allowed;
}

}  // namespace pegsim
