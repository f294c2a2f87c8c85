// The check of compare_geometry.hpp.
#include "compare_geometry.hpp"

#include "geometry/shape.hpp"

#include <cmath>
#include <cstdio>

namespace pegsim::bench {

bool check_geometry(std::ostream& out, PeerEngine& engine, const Scene& scene, const ConvertedScene& converted,
                    const std::vector<std::string>& names, double tolerance) {
  engine.load(converted.bench);
  bool ok = true;
  for (std::size_t k = 0; k < converted.dynamic.size(); ++k) {
    const std::size_t index = static_cast<std::size_t>(converted.dynamic[k]);
    const Shape& shape = scene.model.bodies[index].shape;
    const Pose& pose = scene.state.bodies[index].pose;
    for (const BenchPlane& plane : converted.bench.planes) {
      // pegsim's deepest point: the support point along -n (body frame), in the world
      const Vec3 deepest = pose.to_world(support(shape, pose.orientation.conjugate() * (-plane.normal)));
      const double expected = plane.offset - plane.normal.dot(deepest);
      if (expected <= 0) continue;  // not touching this half-space
      Vec3 point = Vec3::Zero();
      double depth = 0.0;
      char line[400];
      if (!engine.deepest_point(static_cast<int>(k), plane, point, depth)) {
        std::snprintf(line, sizeof line, "geometry %-8s %s: pegsim %.3e m deep at (%.5f, %.5f, %.5f); %s: no contact: FAILED\n",
                      engine.name().c_str(), names[k].c_str(), expected, deepest.x(), deepest.y(), deepest.z(),
                      engine.name().c_str());
        out << line;
        ok = false;
        continue;
      }
      const Vec3 apart = point - deepest;
      const double along_plane = (apart - plane.normal.dot(apart) * plane.normal).norm();
      const bool hit = std::abs(depth - expected) <= tolerance && along_plane <= tolerance;
      std::snprintf(line, sizeof line,
                    "geometry %-8s %s: depth %.6e m (pegsim %.6e), deepest point %.3e m from pegsim's along the "
                    "plane (allowed %.1e): %s\n",
                    engine.name().c_str(), names[k].c_str(), depth, expected, along_plane, tolerance,
                    hit ? "ok" : "FAILED");
      out << line;
      ok = ok && hit;
    }
  }
  return ok;
}

}  // namespace pegsim::bench
