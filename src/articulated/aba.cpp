// Articulated-body algorithm (Featherstone 2008, Table 7.1; eqs. 7.38-7.46):
//   pass 1: v_i, c_i = v_i x S_i qd_i, I^A_i = I_i, p^A_i = v_i x* I_i v_i - f_ext_i
//   pass 2 (leaves to root): U_i = I^A_i S_i, D_i = S_i' U_i, u_i = tau_i - S_i' p^A_i,
//           I^a = I^A_i - U_i D_i^-1 U_i',  p^a = p^A_i + I^a c_i + U_i D_i^-1 u_i,
//           I^A_lambda += lambda_X*_i I^a i_X_lambda,  p^A_lambda += lambda_X*_i p^a
//   pass 3 (root to leaves): a' = i_X_lambda a_lambda + c_i,
//           qdd_i = D_i^-1 (u_i - U_i' a'),  a_i = a' + S_i qdd_i
// A fixed joint (no S) passes its whole articulated inertia to its parent.
#include "articulated/dynamics.hpp"

#include <Eigen/Cholesky>

namespace pegsim::articulated {

VecX forward_dynamics_aba(const ArticulatedTree& tree, const VecX& q, const VecX& v, const VecX& tau,
                          const Vec3& gravity, const std::vector<Vec6>& external_force) {
  const int n = tree.link_count();
  TreeKinematics kin;
  forward_kinematics(tree, q, v, kin);
  std::vector<Mat6> IA(n);
  std::vector<Vec6> pA(n), c(n), a(n);
  for (int i = 0; i < n; ++i) {
    const Link& l = tree.link(i);
    c[i] = cross_motion(kin.velocity[i], kin.subspace[i] * v.segment(l.v_index, l.nv()));
    IA[i] = spatial_inertia(l.mass, l.com, l.inertia);
    pA[i] = cross_force(kin.velocity[i], IA[i] * kin.velocity[i]);
    if (!external_force.empty()) pA[i] -= external_force[i];
  }
  std::vector<MatX> U(n);
  std::vector<Eigen::LDLT<MatX>> Dinv(n);
  std::vector<VecX> u(n);
  for (int i = n - 1; i >= 0; --i) {
    const Link& l = tree.link(i);
    const Subspace& S = kin.subspace[i];
    Mat6 Ia = IA[i];
    Vec6 pa = pA[i];
    if (l.nv() > 0) {
      U[i] = IA[i] * S;
      Dinv[i].compute(S.transpose() * U[i]);
      u[i] = tau.segment(l.v_index, l.nv()) - S.transpose() * pA[i];
      Ia -= U[i] * Dinv[i].solve(U[i].transpose());
      pa += Ia * c[i] + U[i] * Dinv[i].solve(u[i]);
    } else {
      pa += Ia * c[i];
    }
    if (l.parent >= 0) {
      IA[l.parent] += transform_inertia_to_parent(kin.from_parent[i], Ia);
      pA[l.parent] += kin.from_parent[i].transpose_apply(pa);
    }
  }
  VecX qdd = VecX::Zero(tree.nv());
  const Vec6 a0 = spatial(Vec3::Zero(), -gravity);
  for (int i = 0; i < n; ++i) {
    const Link& l = tree.link(i);
    const Vec6 ap = kin.from_parent[i].apply_motion(l.parent < 0 ? a0 : a[l.parent]) + c[i];
    a[i] = ap;
    if (l.nv() == 0) continue;
    const VecX qi = Dinv[i].solve(u[i] - U[i].transpose() * ap);
    qdd.segment(l.v_index, l.nv()) = qi;
    a[i] += kin.subspace[i] * qi;
  }
  return qdd;
}

}  // namespace pegsim::articulated
