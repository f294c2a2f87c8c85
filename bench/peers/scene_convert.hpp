// A pegsim scene as the peers' neutral BenchScene (bench_scene.hpp), for
// pegsim_compare. Each body's shape is converted by its kind (one function per
// kind, scene_convert.cpp): a polyhedron is a box part when it is an
// axis-aligned box about its centroid, else a hull part; a sphere, capsule,
// cylinder or cone is a part of that kind (its centre, or a cone's base
// centre, and its axes: axis z, as pegsim's); a compound is its parts, each
// converted by its own kind; a static half-space at any pose is a plane.
// Mass and principal moments are pegsim's exact ones (the round kinds' closed
// forms, geometry/curved_mass.cpp), never the engines' estimates; they,
// the pose, velocities, friction per pair of the materials in use, gravity, h and
// the duration are carried over. Each dynamic body's frame becomes its
// principal frame (bench_scene.hpp); `principal` turns the engines' poses
// back into pegsim's body frames.
//
// What no peer's scene can hold is named in a std::invalid_argument: 2D
// scenes, joints and controllers, a dynamic half-space, and any shape kind
// without a conversion here (by its name: a kind added to the Shape variant
// later is refused until it gets one). What one peer lacks is that peer's to
// say (PeerEngine::unsupported).
#pragma once

#include "bench_scene.hpp"
#include "io/scene.hpp"

#include <vector>

namespace pegsim::bench {

struct ConvertedScene {
  BenchScene bench;
  std::vector<int> dynamic;     // pegsim body index of each dynamic body, in BenchScene order
  // per dynamic body: the rotation R from the principal frame to pegsim's body
  // frame (v_body = R v_principal), so q_engine = q_pegsim R
  std::vector<Quat> principal;

  // an engine's pose of dynamic body k in pegsim's body frame
  Pose to_pegsim(int k, const Pose& engine_pose) const {
    Pose p = engine_pose;
    p.orientation = (engine_pose.orientation * principal[static_cast<std::size_t>(k)].conjugate()).normalized();
    return p;
  }
};

ConvertedScene to_bench_scene(const Scene& scene, double duration);

// Side lengths of a polyhedron that is an axis-aligned box about its body origin; false if it is not one.
bool box_size(const Polyhedron& p, Vec3& size);

}  // namespace pegsim::bench
