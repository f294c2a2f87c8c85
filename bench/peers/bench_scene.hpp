// The neutral scene description every engine of pegsim_peers loads: boxes
// (size, mass, pose, velocity; static ones are walls), a ground plane z = 0,
// one friction coefficient, the time step and the run's length. Built by
// scenes.cpp; each adapter (peer_engine.hpp) translates it into its engine.
#pragma once

#include "math/pose.hpp"
#include "math/types.hpp"

#include <string>
#include <vector>

namespace pegsim::bench {

struct BenchBox {
  Vec3 size = Vec3::Ones();  // full side lengths (m)
  double mass = 1.0;         // kg, uniform density; ignored when is_static
  Pose pose;                 // centre and orientation, world frame
  Vec3 linear_velocity = Vec3::Zero();
  Vec3 angular_velocity = Vec3::Zero();  // world frame
  bool is_static = false;
};

struct BenchScene {
  std::string name;
  std::vector<BenchBox> boxes;  // dynamic and static, in this order in every engine
  double mu = 0.5;              // friction, every pair (box-box, box-ground)
  double h = 0.005;             // time step (s)
  double duration = 10.0;       // simulated time (s)
  double settle_time = 5.0;     // drift is measured from here to the end (s)
  Vec3 gravity = Vec3(0.0, 0.0, -9.81);
  // per dynamic box, for scenes whose boxes should end at rest where they are
  // placed (stacks, the pyramid): the expected final centre height, NaN where
  // not checked
  std::vector<double> rest_height;

  int steps() const { return static_cast<int>(duration / h + 0.5); }
  int dynamic_count() const;
};

// The scenes, by name: stack10, box-stack-3d, pyramid, pile100, and
// pile<N> for any N (the scaling piles). `duration` < 0 keeps the scene's own.
// Throws std::invalid_argument for an unknown name.
BenchScene make_scene(const std::string& name, double duration = -1.0);
// pile<N>: n random cubes dropped in `layers` layers into a walled container
BenchScene make_pile(int n, int layers);
// A box falling freely from rest, for the free-fall check.
BenchScene make_free_fall(double duration);

}  // namespace pegsim::bench
