// Adding a body to a scene in code: the same rules and frames as a scene
// file's bodies: section (src/io/scene_bodies.cpp, docs/scene-format.md).
//
// The shape is given in its own frame and placed by position and orientation
// (2D: theta); pegsim's body frame has its origin at the centre of mass, so
// the shape is moved by -c (c its centroid) and the body put at
// position + R c: the shape ends up exactly where it was placed.
#pragma once

#include "io/scene.hpp"

#include <optional>
#include <string>

namespace pegsim::python {

struct BodySpec {
  std::string name;               // empty: "body<index>"
  Shape shape;
  bool is_static = false;
  bool is_kinematic = false;      // prescribed motion: static, moved at its velocity (sim/model.hpp)
  Vec3 position = Vec3::Zero();   // of the shape frame
  Quat orientation = Quat::Identity();  // 3D
  double theta = 0.0;             // 2D
  Vec3 velocity = Vec3::Zero();   // of the centre of mass, world frame
  Vec3 angular_velocity = Vec3::Zero();
  std::optional<double> mass, density;  // one of them for a dynamic body
  std::optional<Mat3> inertia;    // with mass only; about the centre of mass, shape axes
  std::string material = "default";
};

// Validates and appends the body to scene.model and scene.state; returns its
// index. Throws std::invalid_argument("add_body 'NAME': ...") on bad input.
std::uint32_t add_body(Scene& scene, BodySpec spec);

// Material index by name; throws std::invalid_argument listing the known ones.
MaterialId material_named(const Model& model, const std::string& name);

}  // namespace pegsim::python
