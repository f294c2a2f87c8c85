#include "sim/gap_acceleration.hpp"

#include <type_traits>
#include <variant>

namespace pegsim {

double core_radius(const Shape& shape) {
  return std::visit(
      [](const auto& s) -> double {
        using K = std::decay_t<decltype(s)>;
        if constexpr (std::is_same_v<K, Sphere> || std::is_same_v<K, Capsule> || std::is_same_v<K, Disc> ||
                      std::is_same_v<K, Capsule2d>)
          return s.radius;
        else
          return 0.0;
      },
      shape);
}

void GapAcceleration::prepare(const Model& model, const State& state) {
  tree_of_.assign(model.bodies.size(), -1);
  link_of_.assign(model.bodies.size(), -1);
  kin_.resize(model.trees.size());
  link_bias_.resize(model.trees.size());
  for (std::size_t t = 0; t < model.trees.size(); ++t) {
    const articulated::ArticulatedTree& tree = model.trees[t].tree;
    const VecX& v = state.trees[t].v;
    articulated::TreeKinematics& kin = kin_[t];
    articulated::forward_kinematics(tree, state.trees[t].q, v, kin);
    std::vector<Vec6>& a = link_bias_[t];
    a.assign(static_cast<std::size_t>(tree.link_count()), Vec6::Zero());
    for (int i = 0; i < tree.link_count(); ++i) {
      const articulated::Link& l = tree.link(i);
      tree_of_[model.trees[t].link_body[i]] = static_cast<int>(t);
      link_of_[model.trees[t].link_body[i]] = i;
      // a_i = i_X_lambda a_lambda + v_i x S_i qd_i (Table 5.1, qdd = 0, a_0 = 0: gravity is the free motion's)
      const Vec6 joint_velocity = kin.subspace[i] * v.segment(l.v_index, l.nv());
      a[i] = articulated::cross_motion(kin.velocity[i], joint_velocity);
      if (l.parent >= 0) a[i] += kin.from_parent[i].apply_motion(a[l.parent]);
    }
  }
}

Vec3 GapAcceleration::point_velocity(const State& state, std::uint32_t body, const Vec3& p) const {
  const BodyState& s = state.bodies[body];
  return s.linear_velocity + s.angular_velocity.cross(p - s.pose.position);
}

Vec3 GapAcceleration::point_bias(const Model& model, const State& state, std::uint32_t body, const Vec3& p) const {
  if (model.bodies[body].is_static) return Vec3::Zero();  // kinematic bodies are outside the stepper's scope
  const int t = tree_of_[body];
  if (t < 0) {  // a loose body: [v_com; w] with v_com' = w' = 0
    const BodyState& s = state.bodies[body];
    const Vec3& w = s.angular_velocity;
    return w.cross(w.cross(p - s.pose.position));
  }
  const int i = link_of_[body];
  const articulated::Transform& X = kin_[static_cast<std::size_t>(t)].from_world[i];  // i_X_0: E world -> link, r origin
  const Vec3 r = X.E * (p - X.r);
  const Vec6& a = link_bias_[static_cast<std::size_t>(t)][static_cast<std::size_t>(i)];
  const Vec6& v = kin_[static_cast<std::size_t>(t)].velocity[i];
  const Vec3 w = articulated::angular(v);
  const Vec3 u = articulated::linear(v) + w.cross(r);
  const Vec3 classical = articulated::linear(a) + articulated::angular(a).cross(r) + w.cross(u);  // eq. 2.40
  return X.E.transpose() * classical;
}

double GapAcceleration::bias(const Model& model, const State& state, const Contact& c) const {
  const Vec3& n = c.normal;
  const auto radius = [&](std::uint32_t b, int part) {
    const Shape& s = model.bodies[b].shape;
    if (const auto* compound = std::get_if<Compound>(&s)) return core_radius(compound->parts[static_cast<std::size_t>(part)]);
    return core_radius(s);
  };
  const bool curved = c.kind == FeatureKind::Curved;
  const double r_a = curved ? radius(c.body_a, c.part_a) : 0.0;
  const double r_b = curved ? radius(c.body_b, c.part_b) : 0.0;
  const Vec3 c_a = c.point_a - r_a * n, c_b = c.point_b + r_b * n;
  const Vec3 u = point_velocity(state, c.body_b, c_b) - point_velocity(state, c.body_a, c_a);
  double out = n.dot(point_bias(model, state, c.body_b, c_b) - point_bias(model, state, c.body_a, c_a));
  if (r_a > 0.0 && r_b > 0.0) {  // two round shapes: n along the cores' points
    const double d = (c_b - c_a).norm();
    if (d > 0.0) out += (u - n * n.dot(u)).squaredNorm() / d;
    return out;
  }
  // n turns with the body that owns the face: A, unless A is the round one
  const std::uint32_t owner = r_a > 0.0 ? c.body_b : c.body_a;
  const Vec3 turn = state.bodies[owner].angular_velocity.cross(n);  // n' = w x n
  return out + 2.0 * turn.dot(u) - turn.squaredNorm() * n.dot(c_b - c_a);
}

}  // namespace pegsim
