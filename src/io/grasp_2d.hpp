// grasp-2d (thesis 5.2.5-5.2.6, Figs. 5.17-5.22): a planar five-link,
// two-fingered gripper under PD joint torques closes on a random convex
// polygon resting on a surface. The thesis gives no numbers; these are
// RPIsim's (robotArm2D.m and its driver, read in shared/notes/
// joints-and-grasp.md 3.5 and 2.2):
//   - ground: a static 0.3 x 0.03 rectangle at (0, 0.14), top at y = 0.155;
//   - palm: a static 0.05 x 0.01 rectangle at (0, 0.25) (the fifth link);
//   - phalanges f1 (0.05, 0.25), f2 (-0.05, 0.25), f3 (0.10, 0.25),
//     f4 (-0.10, 0.25): 0.05 x 0.01 rectangles of 0.2 kg with RPIsim's
//     J = 0.005 kg m^2 (uniform density would give 4.3e-5; with that the
//     explicit derivative term diverges above h ~ 0.004, guide 2.5);
//   - revolute joints palm-f1 at (0.025, 0.25), palm-f2 (-0.025, 0.25),
//     f1-f3 (0.075, 0.25), f2-f4 (-0.075, 0.25);
//   - PD torques tau = 5 e + 0.09 de/dt (derivative on the error, e_prev = 0
//     at the first step) toward 1 rad/s ramps that saturate at pi/2: the
//     right finger (f1, f3) curls clockwise, the left counter-clockwise;
//   - the object: the convex hull of 10 points uniform in [0, 1]^2, minus
//     their mean, scaled by 0.07 (RPIsim's 0.25 x 0.28), turned by an angle
//     uniform in [0, 2 pi), mass 0.1 kg, J = 1e-4 kg m^2, at rest with its
//     area centroid at (0, 0.2); redrawn (and the redraws counted) while it
//     comes within 2 mm of the ground or the gripper;
//   - gravity 9.8 m/s^2, duration 2 s, eps auto (eq. 5.1), PATH then Lemke.
// RPIsim's polygons (a MATLAB draw) cannot be reproduced: polygon k is drawn
// from seed k with std::mt19937_64, the same on every standard library.
//
// The generator writes YAML text, loaded like any scene file, so a polygon
// can be saved and rerun with `pegsim run` (scenes/grasp-2d.yaml is seed 1).
#pragma once

#include "io/scene.hpp"

#include <cstdint>
#include <string>

namespace pegsim {

struct Grasp2dOptions {
  double friction = 0.0;        // mu between all bodies (grasp-2d-friction: 0.25)
  double h = 0.001;             // s
  double duration = 2.0;        // s (RPIsim's MAX_STEP = 2 / h)
  std::string model = "peg";    // contact model name
};

// Body indices in the scene (the order of its `bodies:` list).
struct Grasp2dBodies {
  static constexpr std::uint32_t ground = 0, palm = 1, f1 = 2, f2 = 3, f3 = 4, f4 = 5, object = 6;
};

// The scene's YAML text for polygon `seed`; `redraws`, when given, gets the
// number of draws rejected for coming too close to the ground or gripper.
std::string grasp_2d_yaml(const Grasp2dOptions& options, std::uint64_t seed, int* redraws = nullptr);

// The scene itself, named "grasp-2d-seed-N".
Scene grasp_2d_scene(const Grasp2dOptions& options, std::uint64_t seed);

}  // namespace pegsim
