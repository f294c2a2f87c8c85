// Composite-rigid-body algorithm (Featherstone 2008, Table 6.2; eqs. 6.4-6.7):
//   I^c_i = I_i + sum over children j of i_X*_j I^c_j j_X_i
//   H_ii = S_i' I^c_i S_i;  F = I^c_i S_i carried down to each ancestor j:
//   H_ij = F' S_j, H_ji = H_ij'
// and forward dynamics by its Cholesky factor (section 6.1, eq. 6.1 solved
// with Eigen's LLT: the book's LTL factorization of section 6.5 exploits the
// branch-induced sparsity, which a dense LLT ignores at these sizes).
#include "articulated/dynamics.hpp"

#include <Eigen/Cholesky>

namespace pegsim::articulated {

MatX mass_matrix(const ArticulatedTree& tree, const TreeKinematics& kin) {
  const int n = tree.link_count();
  std::vector<Mat6> Ic(n);
  for (int i = 0; i < n; ++i) {
    const Link& l = tree.link(i);
    Ic[i] = spatial_inertia(l.mass, l.com, l.inertia);
  }
  for (int i = n - 1; i >= 0; --i) {
    const int p = tree.link(i).parent;
    if (p >= 0) Ic[p] += transform_inertia_to_parent(kin.from_parent[i], Ic[i]);
  }
  MatX H = MatX::Zero(tree.nv(), tree.nv());
  for (int i = 0; i < n; ++i) {
    const Link& l = tree.link(i);
    if (l.nv() == 0) continue;
    Subspace F = Ic[i] * kin.subspace[i];  // 6 x nv_i, on the stack
    H.block(l.v_index, l.v_index, l.nv(), l.nv()) = kin.subspace[i].transpose() * F;
    for (int j = i; tree.link(j).parent >= 0;) {
      for (int k = 0; k < F.cols(); ++k) F.col(k) = kin.from_parent[j].transpose_apply(F.col(k));  // lambda(j)_X*_j F
      j = tree.link(j).parent;
      const Link& lj = tree.link(j);
      if (lj.nv() == 0) continue;
      const Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, 0, 6, 6> Hij = F.transpose() * kin.subspace[j];
      H.block(l.v_index, lj.v_index, l.nv(), lj.nv()) = Hij;
      H.block(lj.v_index, l.v_index, lj.nv(), l.nv()) = Hij.transpose();
    }
  }
  return H;
}

MatX mass_matrix(const ArticulatedTree& tree, const VecX& q) {
  TreeKinematics kin;
  forward_kinematics(tree, q, VecX(), kin);
  return mass_matrix(tree, kin);
}

VecX forward_dynamics_cholesky(const ArticulatedTree& tree, const VecX& q, const VecX& v, const VecX& tau,
                               const Vec3& gravity, const std::vector<Vec6>& external_force) {
  const MatX M = mass_matrix(tree, q);
  const VecX rhs = tau - bias_forces(tree, q, v, gravity, external_force);
  return Eigen::LLT<MatX>(M).solve(rhs);
}

}  // namespace pegsim::articulated
