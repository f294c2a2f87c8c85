// Recursive Newton-Euler (Featherstone 2008, Table 5.1; eqs. 5.7-5.10):
//   v_i = i_X_lambda v_lambda + S_i qd_i
//   a_i = i_X_lambda a_lambda + S_i qdd_i + v_i x S_i qd_i   (c_J = 0: S_i constant)
//   f_i = I_i a_i + v_i x* I_i v_i - f_ext_i
//   tau_i = S_i' f_i,   f_lambda += lambda_X*_i f_i
#include "articulated/dynamics.hpp"

namespace pegsim::articulated {

VecX inverse_dynamics(const ArticulatedTree& tree, const VecX& q, const VecX& v, const VecX& qdd,
                      const Vec3& gravity, const std::vector<Vec6>& external_force) {
  TreeKinematics kin;
  forward_kinematics(tree, q, v, kin);
  return inverse_dynamics(tree, kin, v, qdd, gravity, external_force);
}

VecX inverse_dynamics(const ArticulatedTree& tree, const TreeKinematics& kin, const VecX& v, const VecX& qdd,
                      const Vec3& gravity, const std::vector<Vec6>& external_force) {
  const int n = tree.link_count();
  const Vec6 a0 = spatial(Vec3::Zero(), -gravity);  // a_0 = -a_g
  std::vector<Vec6> a(n), f(n);
  for (int i = 0; i < n; ++i) {
    const Link& l = tree.link(i);
    const auto qd_i = v.segment(l.v_index, l.nv());
    const Vec6 parent_a = l.parent < 0 ? a0 : a[l.parent];
    a[i] = kin.from_parent[i].apply_motion(parent_a) + kin.subspace[i] * qdd.segment(l.v_index, l.nv()) +
           cross_motion(kin.velocity[i], kin.subspace[i] * qd_i);
    const Mat6 I = spatial_inertia(l.mass, l.com, l.inertia);
    f[i] = I * a[i] + cross_force(kin.velocity[i], I * kin.velocity[i]);
    if (!external_force.empty()) f[i] -= external_force[i];
  }
  VecX tau = VecX::Zero(tree.nv());
  for (int i = n - 1; i >= 0; --i) {
    const Link& l = tree.link(i);
    tau.segment(l.v_index, l.nv()) = kin.subspace[i].transpose() * f[i];
    if (l.parent >= 0) f[l.parent] += kin.from_parent[i].transpose_apply(f[i]);
  }
  return tau;
}

VecX bias_forces(const ArticulatedTree& tree, const VecX& q, const VecX& v, const Vec3& gravity,
                 const std::vector<Vec6>& external_force) {
  return inverse_dynamics(tree, q, v, VecX::Zero(tree.nv()), gravity, external_force);
}

VecX bias_forces(const ArticulatedTree& tree, const TreeKinematics& kin, const VecX& v, const Vec3& gravity) {
  return inverse_dynamics(tree, kin, v, VecX::Zero(tree.nv()), gravity);
}

Vec6 link_force(const TreeKinematics& kin, int i, const Vec3& f_world, const Vec3& point_world) {
  // world force at p about the world origin, then into link coordinates (i_X*_0)
  return kin.from_world[i].apply_force(spatial(point_world.cross(f_world), f_world));
}

}  // namespace pegsim::articulated
