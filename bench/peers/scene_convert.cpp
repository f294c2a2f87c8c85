#include "scene_convert.hpp"

#include <Eigen/Eigenvalues>

#include <map>
#include <set>
#include <stdexcept>
#include <string>
#include <variant>

namespace pegsim::bench {

bool box_size(const Polyhedron& p, Vec3& size) {
  if (p.vertices.size() != 8) return false;
  const Vec3 half = p.vertices[0].cwiseAbs();
  std::set<int> corners;  // the sign pattern of each vertex: all eight, once each
  for (const Vec3& v : p.vertices) {
    // 1e-12 relative: the loader writes +-size/2 exactly; a box moved to its centroid may round
    if (((v.cwiseAbs() - half).array().abs() > 1e-12 * (1.0 + half.norm())).any()) return false;
    corners.insert((v.x() > 0) + 2 * (v.y() > 0) + 4 * (v.z() > 0));
  }
  if (corners.size() != 8 || (half.array() <= 0).any()) return false;
  size = 2.0 * half;
  return true;
}

namespace {

// The parts of one shape, by kind, in the body's principal frame (R: principal
// to body frame). A kind with no overload here is refused by name.
struct PartsOf {
  Mat3 r;  // v_body = r v_principal

  std::vector<BenchPart> operator()(const Polyhedron& p) const {
    BenchPart part;
    Vec3 centroid = Vec3::Zero();
    for (const Vec3& v : p.vertices) centroid += v;
    centroid /= static_cast<double>(p.vertices.size());
    Polyhedron centred = p;
    for (Vec3& v : centred.vertices) v -= centroid;
    if (box_size(centred, part.size)) {  // a box along the body axes, anywhere in the body
      part.kind = BenchPart::Kind::Box;
      part.offset.position = r.transpose() * centroid;
      part.offset.orientation = Quat(r.transpose()).normalized();
      return {part};
    }
    part.kind = BenchPart::Kind::Hull;
    for (const Vec3& v : p.vertices) part.vertices.push_back(r.transpose() * v);
    for (const PolyFace& f : p.faces) {
      part.faces.push_back(f.loop);
      part.face_normals.push_back(r.transpose() * f.normal);
      part.face_offsets.push_back(f.offset);  // n . x is the same in either frame
    }
    return {part};
  }

  // the round kinds: their centre and pegsim's axis (body z) in the principal frame
  BenchPart round(BenchPart::Kind kind, const Vec3& centre, double radius, double length) const {
    BenchPart part;
    part.kind = kind;
    part.radius = radius;
    part.length = length;
    part.offset.position = r.transpose() * centre;
    part.offset.orientation = Quat(r.transpose()).normalized();
    return part;
  }
  std::vector<BenchPart> operator()(const Sphere& s) const { return {round(BenchPart::Kind::Sphere, s.centre, s.radius, 0)}; }
  std::vector<BenchPart> operator()(const Capsule& c) const {
    return {round(BenchPart::Kind::Capsule, c.centre, c.radius, c.length)};
  }
  std::vector<BenchPart> operator()(const Cylinder& c) const {
    return {round(BenchPart::Kind::Cylinder, c.centre, c.radius, c.height)};
  }
  std::vector<BenchPart> operator()(const Cone& c) const { return {round(BenchPart::Kind::Cone, c.centre, c.radius, c.height)}; }

  std::vector<BenchPart> operator()(const Compound& c) const {
    std::vector<BenchPart> parts;
    for (const Shape& s : c.parts) {
      std::vector<BenchPart> more = std::visit(*this, s);
      parts.insert(parts.end(), more.begin(), more.end());
    }
    return parts;
  }

  template <class Kind>
  std::vector<BenchPart> operator()(const Kind&) const {
    throw std::invalid_argument(std::string("a ") + Kind::kind_info.name +
                                ", which has no conversion to the peers' scenes (polyhedra, compounds, half-spaces, spheres, capsules, "
                                "cylinders, cones)");
  }
};

// The principal axes of a body-frame inertia, as the rotation R (columns the
// axes, det +1) and the moments. A diagonal inertia keeps R = identity, so a
// box's axes stay its own.
void principal_axes(const Mat3& inertia, Mat3& r, Vec3& moments) {
  const double off = std::abs(inertia(0, 1)) + std::abs(inertia(0, 2)) + std::abs(inertia(1, 2));
  if (off <= 1e-12 * inertia.trace()) {
    r = Mat3::Identity();
    moments = inertia.diagonal();
    return;
  }
  const Eigen::SelfAdjointEigenSolver<Mat3> eigen(inertia);
  r = eigen.eigenvectors();
  moments = eigen.eigenvalues();
  if (r.determinant() < 0) r.col(2) = -r.col(2);
}

}  // namespace

ConvertedScene to_bench_scene(const Scene& scene, double duration) {
  const Model& m = scene.model;
  if (m.options.dimension != Dimension::Spatial)
    throw std::invalid_argument("the peers' scenes are 3D; " + scene.name + " is 2D");
  if (!m.joints.empty() || !m.controllers.empty())
    throw std::invalid_argument(scene.name + " has joints or controllers; the conversion holds free bodies only");
  ConvertedScene out;
  BenchScene& b = out.bench;
  b.name = scene.name;
  b.h = m.options.h;
  b.duration = duration;
  b.settle_time = duration / 2;
  b.gravity = m.options.gravity;
  b.planes.clear();
  // the materials in use, numbered in order of first use
  std::map<std::uint32_t, int> material;
  for (const BodyModel& body : m.bodies) material.emplace(body.material.index, static_cast<int>(material.size()));
  std::vector<std::uint32_t> used(material.size());
  for (const auto& [index, k] : material) used[static_cast<std::size_t>(k)] = index;
  b.materials = static_cast<int>(used.size());
  for (std::uint32_t x : used)
    for (std::uint32_t y : used) b.friction.push_back(m.mu(MaterialId{x}, MaterialId{y}));
  b.mu = b.friction.front();

  for (std::size_t i = 0; i < m.bodies.size(); ++i) {
    const BodyModel& body = m.bodies[i];
    const BodyState& s = scene.state.bodies[i];
    const int mat = material.at(body.material.index);
    if (const auto* h = std::get_if<HalfSpace>(&body.shape)) {
      if (!body.is_static)
        throw std::invalid_argument("body '" + body.name + "': a dynamic half-space; the peers' planes are static");
      // the world half-space n.x <= offset + n.p of the static body at its pose
      const Vec3 n = s.pose.rotate(h->normal);
      b.planes.push_back({n, h->offset + n.dot(s.pose.position), mat});
      continue;
    }
    PartsOf parts{Mat3::Identity()};
    Vec3 moments = Vec3::Zero();
    if (!body.is_static) principal_axes(body.inertia, parts.r, moments);
    BenchBody out_body;
    try {
      out_body.parts = std::visit(parts, body.shape);
    } catch (const std::invalid_argument& e) {
      throw std::invalid_argument("body '" + body.name + "': " + e.what());
    }
    // one box about the centre of mass, along the principal axes: the engines' own box
    const BenchPart& first = out_body.parts.front();
    if (out_body.parts.size() == 1 && first.kind == BenchPart::Kind::Box && first.offset.position.norm() < 1e-12 &&
        first.offset.orientation.angularDistance(Quat::Identity()) < 1e-12) {
      out_body.size = first.size;
      out_body.parts.clear();
    }
    const Quat r(parts.r);
    out_body.is_static = body.is_static;
    out_body.mass = body.mass;
    out_body.inertia = moments;
    out_body.material = mat;
    out_body.pose.position = s.pose.position;
    out_body.pose.orientation = (s.pose.orientation * r).normalized();
    out_body.linear_velocity = s.linear_velocity;
    out_body.angular_velocity = s.angular_velocity;
    b.bodies.push_back(std::move(out_body));
    if (!body.is_static) {
      out.dynamic.push_back(static_cast<int>(i));
      out.principal.push_back(r.normalized());
    }
  }
  return out;
}

}  // namespace pegsim::bench
