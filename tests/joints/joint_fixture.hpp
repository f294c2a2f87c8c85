// Two-body models for joint tests, built in code.
#pragma once

#include "geometry/polyhedron.hpp"
#include "joints/joint_frames.hpp"
#include "sim/model.hpp"
#include "sim/state.hpp"

#include <random>

namespace pegsim::test {

// Two 0.2 x 0.3 x 0.4 boxes (masses 1 and 2, box inertia) at the given poses.
inline void two_boxes(Dimension dim, const Pose& a, const Pose& b, Model& model, State& state) {
  model = Model{};
  model.options.dimension = dim;
  model.add_material("default");
  model.set_friction(MaterialId{0}, MaterialId{0}, 0.0);
  const Vec3 size(0.2, 0.3, 0.4);
  for (double m : {1.0, 2.0}) {
    BodyModel body;
    body.name = m == 1.0 ? "a" : "b";
    body.shape = Shape(make_box(size));
    body.mass = m;
    body.inertia = Mat3::Zero();
    body.inertia(0, 0) = m * (size.y() * size.y() + size.z() * size.z()) / 12.0;
    body.inertia(1, 1) = m * (size.x() * size.x() + size.z() * size.z()) / 12.0;
    body.inertia(2, 2) = m * (size.x() * size.x() + size.y() * size.y()) / 12.0;
    model.add_body(std::move(body));
  }
  state = State{};
  state.bodies.resize(2);
  state.bodies[0].pose = a;
  state.bodies[1].pose = b;
}

inline Quat random_rotation(std::mt19937& rng) {
  std::normal_distribution<double> n(0.0, 1.0);
  Quat q(n(rng), n(rng), n(rng), n(rng));
  return q.normalized();
}

inline Vec3 random_vec(std::mt19937& rng, double scale) {
  std::uniform_real_distribution<double> u(-scale, scale);
  return Vec3(u(rng), u(rng), u(rng));
}

}  // namespace pegsim::test
