#include "scene_convert.hpp"

#include <cmath>
#include <set>
#include <stdexcept>
#include <string>

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

ConvertedScene to_bench_scene(const Scene& scene, double duration) {
  const Model& m = scene.model;
  if (m.options.dimension != Dimension::Spatial)
    throw std::invalid_argument("the peers' scenes are 3D; " + scene.name + " is 2D");
  ConvertedScene out;
  BenchScene& b = out.bench;
  b.name = scene.name;
  b.h = m.options.h;
  b.duration = duration;
  b.settle_time = duration / 2;
  b.gravity = m.options.gravity;
  std::set<std::uint32_t> materials;
  for (std::size_t i = 0; i < m.bodies.size(); ++i) {
    const BodyModel& body = m.bodies[i];
    const BodyState& s = scene.state.bodies[i];
    materials.insert(body.material.index);
    if (const auto* h = std::get_if<HalfSpace>(&body.shape)) {
      // the world plane n.x <= offset + n.p of the static body at its pose
      const Vec3 n = s.pose.rotate(h->normal);
      const double offset = h->offset + n.dot(s.pose.position);
      if (!body.is_static || (n - Vec3::UnitZ()).norm() > 1e-12 || std::abs(offset) > 1e-12 || out.has_ground)
        throw std::invalid_argument("body '" + body.name + "': the peers' scenes have one ground, z <= 0; "
                                    "this half-space is another");
      out.has_ground = true;
      continue;
    }
    const auto* p = std::get_if<Polyhedron>(&body.shape);
    BenchBox box;
    if (!p || !box_size(*p, box.size))
      throw std::invalid_argument("body '" + body.name + "': a " + std::string(shape_kind_name(body.shape)) +
                                  (p ? " that is not a box" : "") + "; the peers' scenes hold boxes and the ground only");
    box.is_static = body.is_static;
    box.mass = body.mass;
    box.pose = s.pose;
    box.linear_velocity = s.linear_velocity;
    box.angular_velocity = s.angular_velocity;
    b.boxes.push_back(box);
    if (!body.is_static) out.dynamic.push_back(static_cast<int>(i));
  }
  // one coefficient for every pair of the materials in use
  bool first = true;
  for (std::uint32_t x : materials)
    for (std::uint32_t y : materials) {
      const double mu = m.mu(MaterialId{x}, MaterialId{y});
      if (first) b.mu = mu;
      first = false;
      if (mu != b.mu)
        throw std::invalid_argument("friction differs between material pairs (" + std::to_string(b.mu) + ", " +
                                    std::to_string(mu) + "); the peers' scenes have one coefficient");
    }
  // the neutral scene lists dynamic boxes first in each engine's pose output; keep pegsim's order of them
  return out;
}

}  // namespace pegsim::bench
