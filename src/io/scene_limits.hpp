// The limits of a scene file (docs/scene-format.md, "Limits"; measured in
// docs/reliability.md, "Limits"). Each bounds a value that, larger, would
// make loading or a step take unbounded time or memory, overflow a number
// or lose the precision the step works to; a scene past one gets a
// FILE:LINE: field error naming the limit, before any step.
#pragma once

#include <cstddef>

namespace pegsim::scene_limits {

// Scene text, bytes: hand-written scenes are a few kB, a 1000-body pour 1 MB,
// a 100,000-point hull 3 MB. yaml-cpp buffers the tokens of a flow
// collection that could be a key ("- {shape: {hull: [...]}}") whole, about
// 140 bytes of memory a byte: 4 MB of it parse in 2.6 s and 580 MB before
// the value count below refuses them (16 MB took 12.5 s and 2.3 GB).
inline constexpr std::size_t kMaxSceneBytes = std::size_t{4} << 20;

// YAML values (scalars, keys, lists, maps, aliases) of a scene: yaml-cpp's
// node tree takes about 600 bytes a value, so 500,000 values are about
// 300 MB; a 100,000-point hull is 400,000 values, a 10,000-body scene
// about 110,000.
inline constexpr std::size_t kMaxYamlValues = 500000;

// Steps of a run (duration / h): 1e9 steps take over 15 minutes at a
// microsecond a step, the cheapest step there is.
inline constexpr double kMaxSteps = 1e9;
// The time step h, seconds: below 1e-9 a simulated second is over the step
// limit; above 1 s gravity alone moves a body 10 m in a step, past any
// contact distance.
inline constexpr double kMinTimeStep = 1e-9, kMaxTimeStep = 1.0;

// Friction directions n_d of the linearised cone (3D): at 64 the polygon
// under-estimates the circular cone by 1 - cos(pi / 64) = 0.12 %; each
// direction is one more variable per contact (n_d + 2 in all), so 64 already
// fills max_problem_size 4000 with 60 contacts. (n_d * contacts overflowed
// an int at n_d = 1e9; 1e5 asked for a 1.28 TB dense matrix.)
inline constexpr int kMaxFrictionDirections = 64;

// Sides of regular_polygon and prism: at 256 the polygon is within
// 1 - cos(pi / 256) = 7.5e-5 of its circle (disc and cylinder are exact),
// and a prism resting on its cap (256 contacts, 9 variables each at n_d 7)
// stays within max_problem_size 4000; at 1000 sides that island went unsolved.
inline constexpr int kMaxPolygonSides = 256;

// Points of a hull, polygon or polyhedron (and 2x as many faces): 100,000
// points load in 2.4 s (docs/reliability.md); a mesh for contact needs far fewer.
inline constexpr std::size_t kMaxShapePoints = 100000;

// Materials: the friction and restitution tables are materials^2 doubles
// each (16 MB at 1024).
inline constexpr std::size_t kMaxMaterials = 1024;

// Bodies of a scene (docs/reliability.md measures 10,000).
inline constexpr std::size_t kMaxBodies = 10000;

// Magnitudes, SI units. Coordinates and lengths up to 1e6 m keep 1e-10 m of
// resolution in a double; with masses in [1e-9, 1e9] kg, speeds up to 1e6 m/s
// and accelerations up to 1e6 m/s^2, energies and momenta stay finite
// (m v^2 <= 1e21) and a mass ratio within one problem stays above 1e-18.
inline constexpr double kMaxLength = 1e6;                      // m
inline constexpr double kMinMass = 1e-9, kMaxMass = 1e9;       // kg
inline constexpr double kMinInertia = 1e-24, kMaxInertia = 1e24;  // kg m^2, principal moments
inline constexpr double kMaxSpeed = 1e6;                       // m/s
inline constexpr double kMaxAngularSpeed = 1e6;                // rad/s
inline constexpr double kMaxAcceleration = 1e6;                // m/s^2 (gravity)

}  // namespace pegsim::scene_limits
