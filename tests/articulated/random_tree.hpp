// Deterministic random kinematic trees for the cross-checks: every joint kind,
// branches, random placements, axes, masses and full (non-diagonal) inertias.
#pragma once

#include "articulated/tree.hpp"

#include <cstdint>
#include <random>

namespace pegsim::articulated::testing {

// uniform in [lo, hi) from mt19937's raw output (the same numbers on every
// standard library, unlike std::uniform_real_distribution)
class Rng {
 public:
  explicit Rng(std::uint32_t seed) : gen_(seed) {}
  double uniform(double lo, double hi) { return lo + (hi - lo) * (gen_() / 4294967296.0); }
  int index(int n) { return static_cast<int>(gen_() % static_cast<std::uint32_t>(n)); }
  Vec3 vec(double r) { return Vec3(uniform(-r, r), uniform(-r, r), uniform(-r, r)); }
  Quat rotation() {
    const Vec3 axis = Vec3(uniform(-1, 1), uniform(-1, 1), uniform(-1, 1)).normalized() + Vec3(0, 0, 1e-9);
    return Quat(Eigen::AngleAxisd(uniform(-3.0, 3.0), axis.normalized()));
  }

 private:
  std::mt19937 gen_;
};

// Rotational inertia of a box of mass m and random half-extents, turned by a random rotation.
inline Mat3 random_inertia(Rng& rng, double m) {
  const double a = rng.uniform(0.05, 0.4), b = rng.uniform(0.05, 0.4), c = rng.uniform(0.05, 0.4);
  const Vec3 d(m / 3.0 * (b * b + c * c), m / 3.0 * (a * a + c * c), m / 3.0 * (a * a + b * b));
  const Mat3 R = rng.rotation().toRotationMatrix();
  return R * d.asDiagonal() * R.transpose();
}

// A floating root, then `links - 1` links with random parents and kinds cycling
// through revolute, prismatic, spherical, fixed; `fixed_base`: a revolute root instead.
inline ArticulatedTree random_tree(Rng& rng, int links, bool fixed_base = false) {
  ArticulatedTree tree;
  const JointKind cycle[] = {JointKind::Revolute, JointKind::Prismatic, JointKind::Spherical, JointKind::Revolute,
                             JointKind::Fixed};
  for (int i = 0; i < links; ++i) {
    Link l;
    l.name = "link" + std::to_string(i);
    l.parent = i == 0 ? -1 : rng.index(i);
    l.joint = i == 0 ? (fixed_base ? JointKind::Revolute : JointKind::Floating) : cycle[(i - 1) % 5];
    l.joint_placement = placement(rng.vec(0.5), rng.rotation().toRotationMatrix());
    l.axis = rng.vec(1.0).normalized();
    l.mass = rng.uniform(0.5, 2.0);
    l.com = rng.vec(0.3);
    l.inertia = random_inertia(rng, l.mass);
    tree.add_link(l);
  }
  return tree;
}

inline VecX random_configuration(Rng& rng, const ArticulatedTree& tree) {
  VecX q(tree.nq());
  for (int k = 0; k < tree.nq(); ++k) q(k) = rng.uniform(-1.5, 1.5);
  normalize_configuration(tree, q);
  return q;
}

inline VecX random_vector(Rng& rng, int n, double r) {
  VecX v(n);
  for (int k = 0; k < n; ++k) v(k) = rng.uniform(-r, r);
  return v;
}

}  // namespace pegsim::articulated::testing
