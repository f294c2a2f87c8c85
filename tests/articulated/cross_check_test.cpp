// Independent paths through the tree dynamics must agree (random trees with a
// floating root, branches, revolute, prismatic, spherical and fixed joints):
//   - RNEA(q, v, FD(q, v, tau)) = tau, with FD by ABA and by CRBA-Cholesky;
//     and ABA = CRBA-Cholesky;
//   - M(q) symmetric positive definite;
//   - 1/2 v'Mv = sum over links of 1/2 (m |v_com|^2 + w' I w) from FK velocities;
//   - central differences of FK positions and orientations = J v;
//   - v' dM/dt v = 2 v' C(q, v) (no gravity): M' - 2C is skew along v,
//     i.e. energy is conserved; dM/dt by central differences;
//   - dT/dt = v' tau along the motion tau produces (no gravity), T by CRBA.
// Each test prints its largest discrepancy ("max discrepancy" lines).
//
// Tolerances: the algebraic identities hold to round-off; M's condition
// number on these trees is below ~1e5, so solving with it loses up to 5
// digits: 1e-8 relative for anything through M^-1, 1e-10 for products.
// Central differences with step 1e-5 have truncation error ~eps^2 |f'''| ~ 1e-10
// and round-off ~1e-16 / 1e-5 = 1e-11: tolerance 1e-7.
#include "articulated/dynamics.hpp"
#include "random_tree.hpp"

#include <Eigen/Cholesky>
#include <Eigen/Eigenvalues>
#include <gtest/gtest.h>

#include <cstdio>

namespace pegsim::articulated {
namespace {

using testing::random_configuration;
using testing::random_tree;
using testing::random_vector;
using testing::Rng;

const Vec3 kGravity(0.3, -0.5, -9.81);
constexpr int kTrees = 40;

double rel(const VecX& a, const VecX& b) { return (a - b).cwiseAbs().maxCoeff() / (1.0 + b.cwiseAbs().maxCoeff()); }

TEST(ArticulatedCrossCheck, ForwardAndInverseDynamicsAgree) {
  Rng rng(7);
  double worst_aba = 0.0, worst_chol = 0.0, worst_pair = 0.0;
  for (int t = 0; t < kTrees; ++t) {
    const ArticulatedTree tree = random_tree(rng, 3 + t % 9, t % 3 == 0);
    const VecX q = random_configuration(rng, tree), v = random_vector(rng, tree.nv(), 2.0);
    const VecX tau = random_vector(rng, tree.nv(), 5.0);
    std::vector<Vec6> fext(tree.link_count());
    for (Vec6& f : fext) f = random_vector(rng, 6, 1.0);
    const VecX a_aba = forward_dynamics_aba(tree, q, v, tau, kGravity, fext);
    const VecX a_chol = forward_dynamics_cholesky(tree, q, v, tau, kGravity, fext);
    worst_aba = std::max(worst_aba, rel(inverse_dynamics(tree, q, v, a_aba, kGravity, fext), tau));
    worst_chol = std::max(worst_chol, rel(inverse_dynamics(tree, q, v, a_chol, kGravity, fext), tau));
    worst_pair = std::max(worst_pair, rel(a_aba, a_chol));
  }
  std::printf("max discrepancy: RNEA(ABA) vs tau %.3g, RNEA(CRBA-LLT) vs tau %.3g, ABA vs CRBA-LLT %.3g\n", worst_aba,
              worst_chol, worst_pair);
  EXPECT_LT(worst_aba, 1e-10);
  EXPECT_LT(worst_chol, 1e-10);
  EXPECT_LT(worst_pair, 1e-8);
}

TEST(ArticulatedCrossCheck, MassMatrixSymmetricPositiveDefiniteAndEnergy) {
  Rng rng(11);
  double worst_sym = 0.0, worst_energy = 0.0, min_eig = 1e300, worst_column = 0.0;
  for (int t = 0; t < kTrees; ++t) {
    const ArticulatedTree tree = random_tree(rng, 3 + t % 9, t % 2 == 0);
    const VecX q = random_configuration(rng, tree), v = random_vector(rng, tree.nv(), 2.0);
    const MatX M = mass_matrix(tree, q);
    worst_sym = std::max(worst_sym, (M - M.transpose()).cwiseAbs().maxCoeff() / M.cwiseAbs().maxCoeff());
    min_eig = std::min(min_eig, Eigen::SelfAdjointEigenSolver<MatX>(M).eigenvalues().minCoeff());
    TreeKinematics kin;
    forward_kinematics(tree, q, v, kin);
    double T = 0.0;
    for (int i = 0; i < tree.link_count(); ++i) T += link_kinetic_energy(tree, kin, i);
    worst_energy = std::max(worst_energy, std::abs(0.5 * v.dot(M * v) - T) / (1.0 + T));
    // M's columns are RNEA's responses to unit accelerations with v = 0, g = 0 (eq. 6.3)
    const VecX zero = VecX::Zero(tree.nv());
    for (int k = 0; k < tree.nv(); ++k)
      worst_column = std::max(worst_column, rel(inverse_dynamics(tree, q, zero, VecX::Unit(tree.nv(), k), Vec3::Zero()), M.col(k)));
  }
  std::printf("max discrepancy: M asymmetry %.3g, 1/2 v'Mv vs link energies %.3g, M columns vs RNEA %.3g; "
              "min eigenvalue of M %.3g\n", worst_sym, worst_energy, worst_column, min_eig);
  EXPECT_LT(worst_sym, 1e-14);
  EXPECT_GT(min_eig, 0.0);
  EXPECT_LT(worst_energy, 1e-12);
  EXPECT_LT(worst_column, 1e-12);
}

// angle of R_a R_b' as a rotation vector
Vec3 rotation_vector(const Quat& a, const Quat& b) {
  const Eigen::AngleAxisd aa(a * b.conjugate());
  return aa.angle() * aa.axis();
}

TEST(ArticulatedCrossCheck, JacobianMatchesFiniteDifferencesOfKinematics) {
  Rng rng(13);
  const double eps = 1e-5;
  double worst = 0.0;
  for (int t = 0; t < kTrees; ++t) {
    const ArticulatedTree tree = random_tree(rng, 3 + t % 9, t % 2 == 1);
    const VecX q = random_configuration(rng, tree), v = random_vector(rng, tree.nv(), 2.0);
    TreeKinematics kin, kp, km;
    forward_kinematics(tree, q, v, kin);
    forward_kinematics(tree, integrate_configuration(tree, q, v, eps), VecX(), kp);
    forward_kinematics(tree, integrate_configuration(tree, q, v, -eps), VecX(), km);
    for (int i = 0; i < tree.link_count(); ++i) {
      const Vec3 local = rng.vec(0.5);  // a point fixed in link i
      const Pose p0 = link_frame_pose(kin, i), pp = link_frame_pose(kp, i), pm = link_frame_pose(km, i);
      const VecX Jv = point_jacobian(tree, kin, i, p0.to_world(local)) * v;
      const Vec3 dp = (pp.to_world(local) - pm.to_world(local)) / (2 * eps);
      const Vec3 dw = rotation_vector(pp.orientation, pm.orientation) / (2 * eps);
      worst = std::max({worst, (Jv.head<3>() - dp).cwiseAbs().maxCoeff(), (Jv.tail<3>() - dw).cwiseAbs().maxCoeff()});
      // and the body velocity from the spatial one is J at the centre of mass
      const Vec6 body = link_body_velocity(tree, kin, i);
      const VecX Jc = point_jacobian(tree, kin, i, link_body_pose(tree, kin, i).position) * v;
      worst = std::max(worst, (body - Jc).cwiseAbs().maxCoeff() * 1e3);  // an identity: scaled to count against 1e-10
    }
  }
  std::printf("max discrepancy: FK central differences vs J v %.3g (m/s, rad/s)\n", worst);
  EXPECT_LT(worst, 1e-7);
}

TEST(ArticulatedCrossCheck, EnergyBalanceThroughFiniteDifferences) {
  Rng rng(17);
  const double eps = 1e-5;
  double worst_skew = 0.0, worst_power = 0.0;
  for (int t = 0; t < kTrees; ++t) {
    const ArticulatedTree tree = random_tree(rng, 3 + t % 9, t % 2 == 0);
    const VecX q = random_configuration(rng, tree), v = random_vector(rng, tree.nv(), 2.0);
    const VecX qp = integrate_configuration(tree, q, v, eps), qm = integrate_configuration(tree, q, v, -eps);
    const MatX Mdot = (mass_matrix(tree, qp) - mass_matrix(tree, qm)) / (2 * eps);
    const VecX c = bias_forces(tree, q, v, Vec3::Zero());
    const double scale = 1.0 + std::abs(v.dot(c));
    worst_skew = std::max(worst_skew, std::abs(v.dot(Mdot * v) - 2.0 * v.dot(c)) / scale);
    // dT/dt = v' tau along the motion: T(t) = 1/2 v(t)' M(q(t)) v(t), v(t) = v + t qdd
    const VecX tau = random_vector(rng, tree.nv(), 5.0);
    const VecX qdd = forward_dynamics_aba(tree, q, v, tau, Vec3::Zero());
    const VecX vp = v + eps * qdd, vm = v - eps * qdd;
    const double Tp = 0.5 * vp.dot(mass_matrix(tree, qp) * vp), Tm = 0.5 * vm.dot(mass_matrix(tree, qm) * vm);
    worst_power = std::max(worst_power, std::abs((Tp - Tm) / (2 * eps) - v.dot(tau)) / (1.0 + std::abs(v.dot(tau))));
  }
  std::printf("max discrepancy: v'(dM/dt - 2C)v %.3g, dT/dt vs v'tau %.3g (relative)\n", worst_skew, worst_power);
  EXPECT_LT(worst_skew, 1e-7);
  EXPECT_LT(worst_power, 1e-7);
}

}  // namespace
}  // namespace pegsim::articulated
