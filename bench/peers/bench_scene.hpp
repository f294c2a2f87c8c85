// The neutral scene description every engine of pegsim_peers and
// pegsim_compare loads: rigid bodies made of convex parts (boxes and convex
// hulls; static bodies are walls and obstacles), static half-spaces at any
// orientation, friction per material pair, the time step and the run's
// length. Built in code by scenes.cpp (the boxes of the speed bench) or from a
// pegsim scene by scene_convert.cpp; each adapter (peer_engine.hpp) translates
// it into its engine.
//
// A body's frame is its principal frame: origin at the centre of mass, axes
// along the principal axes of inertia, so that every engine (Bullet wants a
// diagonal inertia) gets the same mass properties from `inertia`.
#pragma once

#include "math/pose.hpp"
#include "math/types.hpp"

#include <string>
#include <vector>

namespace pegsim::bench {

// The pose b given in the frame of pose a, in a's parent frame.
inline Pose compose(const Pose& a, const Pose& b) {
  Pose p;
  p.position = a.to_world(b.position);
  p.orientation = (a.orientation * b.orientation).normalized();
  return p;
}

// One convex piece of a body, in the body frame. The round kinds follow
// pegsim's conventions (geometry/curved.hpp): the axis of a capsule, cylinder
// and cone is the z axis of its `offset` frame; each engine turns that into
// its own axis and origin (Bullet's cone, say, is centred at half its height).
struct BenchPart {
  enum class Kind { Box, Hull, Sphere, Capsule, Cylinder, Cone };
  Kind kind = Kind::Box;
  Vec3 size = Vec3::Ones();    // Box: full side lengths (m)
  // Box: its centre and axes in the body frame; Sphere, Capsule, Cylinder: the
  // centre and the axes (axis z); Cone: the centre of its base, apex at +z
  Pose offset;
  double radius = 0.0;  // Sphere, Capsule, Cylinder, Cone (m)
  // Capsule: the length of its core segment (between the centres of its end
  // caps); Cylinder: its height, end face to end face; Cone: base to apex (m)
  double length = 0.0;
  std::vector<Vec3> vertices;  // Hull: the corners, body frame
  // Hull: its facets, each a counter-clockwise vertex loop seen from outside,
  // with the outward unit normal and offset (normal . x = offset on the facet)
  std::vector<std::vector<int>> faces;
  std::vector<Vec3> face_normals;
  std::vector<double> face_offsets;

  bool is_round() const { return kind != Kind::Box && kind != Kind::Hull; }
};

// A cone as the hull of its apex and `sides` points on its rim (the rim
// polygon inscribed: the hull lies inside the cone, at most
// radius (1 - cos(pi / sides)) from its curved surface), in the body frame,
// for the engines without a cone (cone_hull.cpp).
BenchPart cone_hull(const BenchPart& cone, int sides = 32);

struct BenchBody {
  Vec3 size = Vec3::Ones();  // the one box when `parts` is empty: full side lengths (m)
  std::vector<BenchPart> parts;  // empty: one box of `size` at the body origin
  double mass = 1.0;         // kg; ignored when is_static
  // principal moments of inertia (kg m^2) about the body axes; zero: those of
  // a uniform box of `size`
  Vec3 inertia = Vec3::Zero();
  Pose pose;                 // centre of mass and principal axes, world frame
  Vec3 linear_velocity = Vec3::Zero();
  Vec3 angular_velocity = Vec3::Zero();  // world frame
  bool is_static = false;
  int material = 0;

  bool is_box() const { return parts.empty(); }
  Vec3 principal_inertia() const;  // `inertia`, or the box's when it is zero
};

// The static half-space normal . x <= offset (world frame); its boundary is the plane.
struct BenchPlane {
  Vec3 normal = Vec3::UnitZ();
  double offset = 0.0;
  int material = 0;
};

struct BenchScene {
  std::string name;
  std::vector<BenchBody> bodies;  // dynamic and static, in this order in every engine
  std::vector<BenchPlane> planes{BenchPlane{}};  // default: the ground z <= 0
  double mu = 0.5;              // friction of every pair when `friction` is empty
  // friction per material pair, materials x materials, symmetric (empty: mu everywhere)
  int materials = 1;
  std::vector<double> friction;
  double h = 0.005;             // time step (s)
  double duration = 10.0;       // simulated time (s)
  double settle_time = 5.0;     // drift is measured from here to the end (s)
  Vec3 gravity = Vec3(0.0, 0.0, -9.81);
  // per dynamic body, for scenes whose bodies should end at rest where they are
  // placed (stacks, the pyramid): the expected final centre height, NaN where
  // not checked
  std::vector<double> rest_height;

  int steps() const { return static_cast<int>(duration / h + 0.5); }
  int dynamic_count() const;
  double mu_between(int material_a, int material_b) const {
    return friction.empty() ? mu : friction[static_cast<std::size_t>(material_a * materials + material_b)];
  }
  bool uniform_friction() const;  // one coefficient for every pair
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
