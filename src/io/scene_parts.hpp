// The sections of a scene file, each parsed and validated by its own function
// (scene.cpp calls them in order: options, materials, friction, shapes, bodies).
#pragma once

#include "geometry/shape.hpp"
#include "io/scene_fields.hpp"
#include "sim/model.hpp"
#include "sim/state.hpp"

#include <map>
#include <vector>
#include <string>

namespace pegsim::scene_detail {

// options: (scene_options.cpp)
struct SceneOptions {
  SimOptions sim;
  std::string name;              // empty when the scene names none
  double default_friction = 0.0;  // mu of every material pair not listed under friction:
  double default_restitution = 0.0;  // e of every material pair not listed under restitution:
};
SceneOptions parse_options(const Field& options);  // `options` may be absent

// materials:, friction: (scene.cpp)
void parse_materials(const Field& materials, Model& model);
void parse_friction(const Field& friction, double default_mu, Model& model);
void parse_restitution(const Field& restitution, double default_e, Model& model);  // restitution: (scene.cpp)
MaterialId find_material(const Field& name, const Model& model);  // fails on an unknown name

// shapes: (scene_shapes.cpp). Shapes are kept in their own frame; bodies centre them.
struct NamedShape {
  Shape shape;
  int line = 0;  // where it was defined, for messages
};
using ShapeLibrary = std::map<std::string, NamedShape>;
ShapeLibrary parse_shape_library(const Field& shapes, Dimension dimension);
// One shape map, e.g. {box: [1, 2, 3]}; fails on a shape of the other dimension.
Shape parse_shape(const Field& spec, Dimension dimension);

// bodies: (scene_bodies.cpp). `shape_origins` gets, per body, the origin of the
// frame its shape was given in, in the body frame (-centroid): joints given in
// a body's frame are read in that frame.
void parse_bodies(const Field& bodies, const ShapeLibrary& shapes, Model& model, State& state,
                  std::vector<Vec3>* shape_origins = nullptr);

// joints:, controllers: (scene_joints.cpp), after the bodies
void parse_joints(const Field& joints, const std::vector<Vec3>& shape_origins, Model& model, const State& state);
// robots: (scene_robots.cpp), after the joints, before the controllers: URDF
// files as kinematic trees; a URDF path is relative to the scene file's folder
void parse_robots(const Field& robots, Model& model, State& state);
int find_tree_joint(const articulated::ArticulatedTree& tree, const std::string& name);  // -1: none
void parse_controllers(const Field& controllers, Model& model);

// orientation and inertia helpers (scene_bodies.cpp)
Quat parse_orientation(const Field& orientation);
Mat3 parse_inertia(const Field& inertia, Dimension dimension);

}  // namespace pegsim::scene_detail
