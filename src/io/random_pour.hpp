// Random pours: seeded scenes of convex polyhedra dropped into a box, the
// reliability soak of docs/reliability.md (issue 17). Each body is the convex
// hull of `hull_points` points uniform in a cube of side `body_size`, of
// density `density`, spinning with each angular velocity component uniform in
// +-max_spin / sqrt(3) (so |w| <= max_spin), released on a grid `spacing`
// apart (2 x 2 per layer) above a square box with walls, under PEG with
// eps and eps_theta auto. The generator writes YAML text, loaded like any
// scene file: a failing seed can be saved and rerun with `pegsim run`.
//
// Used by tests/sim/pour_budget_test.cpp (a few seeds) and
// bench/pour_soak.cpp (many seeds, figures).
#pragma once

#include "io/scene.hpp"

#include <cstdint>
#include <string>
#include <vector>

namespace pegsim {

struct RandomPourOptions {
  int bodies = 8;
  int hull_points = 10;
  double body_size = 0.3;   // m, side of the cube the hull points are drawn from
  double density = 500.0;   // kg/m^3
  double max_spin = 2.0;    // rad/s
  double spacing = 0.4;     // m between release points (and layers)
  double box_width = 1.2;   // m, inner side of the box
  double wall_height = 0.8; // m
  double mu = 0.3;
  double h = 0.005;         // s
  double duration = 1.5;    // s
  std::vector<std::string> solver_chain = {"lemke"};  // e.g. {"lemke", "path"}
};

// The scene's YAML text for `seed` (std::mt19937_64, mapped to doubles the
// same way on every standard library).
std::string random_pour_yaml(const RandomPourOptions& options, std::uint64_t seed);

// The scene itself, named "random-pour-seed-N".
Scene random_pour_scene(const RandomPourOptions& options, std::uint64_t seed);

}  // namespace pegsim
