// A pegsim scene as the peers' neutral BenchScene (bench_scene.hpp), for
// pegsim_compare: boxes (polyhedra that are boxes in their body frame), the
// ground (a static half-space z <= 0), one friction coefficient, gravity, h and
// the duration. Anything else -- other shapes, a tilted or raised half-space,
// 2D, friction that differs between the material pairs in use -- is named in a
// std::invalid_argument: the peers' scene cannot hold it.
#pragma once

#include "bench_scene.hpp"
#include "io/scene.hpp"

namespace pegsim::bench {

struct ConvertedScene {
  BenchScene bench;
  bool has_ground = false;       // the scene names the ground; the peers always have one
  std::vector<int> dynamic;      // pegsim body index of each dynamic box, in BenchScene order
};

ConvertedScene to_bench_scene(const Scene& scene, double duration);

// Side lengths of a polyhedron that is an axis-aligned box about its body origin; false if it is not one.
bool box_size(const Polyhedron& p, Vec3& size);

}  // namespace pegsim::bench
