// A BenchScene as MuJoCo's MJCF text (MuJoCo 2.2): each dynamic body a body
// with a free joint, its mass and principal moments given (an <inertial> at its
// origin, so MuJoCo's estimates from the geoms are not used), one geom per
// part: a box, a sphere, capsule or cylinder (MuJoCo's own, exact: its axis
// is the geom's z, as ours), or a mesh of a hull's vertices (MuJoCo collides
// with a mesh's convex hull; a cone, which MuJoCo lacks, is the mesh of
// cone_hull's 32-sided hull); static bodies are world geoms; each half-space a plane geom
// whose z axis is the outward normal. Friction: mu on every geom when one
// coefficient serves every pair (MuJoCo takes the pair's maximum); otherwise
// the geoms collide only through one explicit <pair> per pair of geoms, each
// with its materials' coefficient (explicit pairs ignore contype/conaffinity,
// which are set to 0 to switch the automatic ones off). Its constraint buffers
// are sized up front (njmax, nconmax; capped, see mujoco_mjcf.cpp).
#pragma once

#include "bench_scene.hpp"

#include <string>

namespace pegsim::bench {

std::string mjcf(const BenchScene& scene);

}  // namespace pegsim::bench
