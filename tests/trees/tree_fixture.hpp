// Scenes with kinematic trees, built in code: a ground, loose boxes, and
// chains of box links as a tree (generalized coordinates) or as bodies with
// the maximal-coordinate revolute joints of src/joints/.
#pragma once

#include "geometry/polyhedron.hpp"
#include "sim/model.hpp"
#include "sim/state.hpp"
#include "sim/tree_stepping.hpp"

namespace pegsim::test {

inline Mat3 box_inertia(double m, const Vec3& size) {
  return Vec3(m * (size.y() * size.y() + size.z() * size.z()) / 12.0,
              m * (size.x() * size.x() + size.z() * size.z()) / 12.0,
              m * (size.x() * size.x() + size.y() * size.y()) / 12.0).asDiagonal();
}

// A model with one material of friction mu and a static ground slab whose top is z = top.
inline void ground_scene(double mu, double top, Model& model, State& state) {
  model = Model{};
  model.add_material("default");
  model.set_friction(MaterialId{0}, MaterialId{0}, mu);
  BodyModel ground;
  ground.name = "ground";
  ground.is_static = true;
  ground.shape = Shape(make_box(Vec3(6.0, 6.0, 1.0)));
  model.add_body(std::move(ground));
  state = State{};
  state.bodies.resize(1);
  state.bodies[0].pose.position = Vec3(0.0, 0.0, top - 0.5);
}

inline std::uint32_t add_box(Model& model, State& state, const std::string& name, const Vec3& size, double mass,
                             const Pose& pose) {
  BodyModel body;
  body.name = name;
  body.shape = Shape(make_box(size));
  body.mass = mass;
  body.inertia = box_inertia(mass, size);
  const std::uint32_t id = model.add_body(std::move(body)).index;
  state.bodies.emplace_back();
  state.bodies.back().pose = pose;
  return id;
}

// The chain of `links` boxes (length x 0.1 x 0.1, mass 1) hinged about y:
// link 0 at `pivot`, each next one at its parent's far end; q = 0 lays the
// chain along +x.
struct Chain {
  int links = 3;
  double length = 0.4, mass = 1.0;
  Vec3 pivot = Vec3(0.0, 0.0, 1.0);
  Vec3 size() const { return Vec3(length, 0.1, 0.1); }
};

inline int add_tree_chain(const Chain& c, Model& model, State& state, const VecX& q0 = VecX()) {
  articulated::ArticulatedTree tree;
  std::vector<Shape> shapes;
  for (int k = 0; k < c.links; ++k) {
    articulated::Link l;
    l.name = "link" + std::to_string(k);
    l.parent = k - 1;
    l.joint = articulated::JointKind::Revolute;
    l.axis = Vec3::UnitY();
    l.joint_placement = articulated::placement(k == 0 ? c.pivot : Vec3(c.length, 0.0, 0.0));
    l.mass = c.mass;
    l.com = Vec3(c.length / 2, 0.0, 0.0);
    l.inertia = box_inertia(c.mass, c.size());
    tree.add_link(l);
    shapes.push_back(Shape(make_box(c.size())));
  }
  return add_tree(model, state, "chain", std::move(tree), shapes, q0);
}

// The same chain as bodies and src/joints/ revolute joints (hinge z of the
// joint frames along world y), all at q = 0.
inline std::vector<std::uint32_t> add_joint_chain(const Chain& c, Model& model, State& state) {
  Mat3 frame;  // columns x, y, z: z along y, right-handed
  frame.col(0) = Vec3::UnitX();
  frame.col(1) = -Vec3::UnitZ();
  frame.col(2) = Vec3::UnitY();
  std::vector<std::uint32_t> bodies;
  for (int k = 0; k < c.links; ++k) {
    Pose p;
    p.position = c.pivot + Vec3(c.length * (k + 0.5), 0.0, 0.0);
    bodies.push_back(add_box(model, state, "link" + std::to_string(k), c.size(), c.mass, p));
    JointModel j;
    j.name = "hinge" + std::to_string(k);
    j.kind = JointKind::Revolute;
    j.body_a = k == 0 ? kWorldBody : bodies[k - 1];
    j.body_b = bodies[k];
    j.anchor_a = k == 0 ? c.pivot : Vec3(c.length / 2, 0.0, 0.0);
    j.anchor_b = Vec3(-c.length / 2, 0.0, 0.0);
    j.frame_a = j.frame_b = frame;
    model.joints.push_back(j);
  }
  return bodies;
}

}  // namespace pegsim::test
