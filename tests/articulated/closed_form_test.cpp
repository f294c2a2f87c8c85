// Closed forms: a simple pendulum's equation of motion and the two-link planar
// arm's M(q), Coriolis/centrifugal and gravity terms (the textbook forms, e.g.
// Spong, Hutchinson, Vidyasagar, "Robot Modeling and Control", 2006, eq. 7.87
// ff.), against CRBA, RNEA, ABA and CRBA-Cholesky.
//
// Tolerance 1e-12 (relative to the terms' scale, ~1-10): both sides are a few
// dozen floating-point operations on O(1) numbers, so their round-off is ~1e-15.
#include "articulated/dynamics.hpp"

#include <gtest/gtest.h>

#include <cmath>

namespace pegsim::articulated {
namespace {

constexpr double kTol = 1e-12;
const Vec3 kGravity(0.0, -9.81, 0.0);  // the arm moves in the x-y plane, joints about z

// A revolute link about z whose frame's x axis points along the link.
Link planar_link(const std::string& name, int parent, double offset, double mass, double lc, double Izz) {
  Link l;
  l.name = name;
  l.parent = parent;
  l.joint = JointKind::Revolute;
  l.axis = Vec3::UnitZ();
  l.joint_placement = placement(Vec3(offset, 0.0, 0.0));
  l.mass = mass;
  l.com = Vec3(lc, 0.0, 0.0);
  l.inertia = Vec3(0.01, Izz, Izz).asDiagonal();  // a rod along x; Ixx plays no part in planar motion
  return l;
}

TEST(ArticulatedClosedForm, PendulumAcceleration) {
  const double m = 1.3, L = 0.7, Ic = 0.02;
  ArticulatedTree tree;
  tree.add_link(planar_link("bob", -1, 0.0, m, L, Ic));
  for (double angle : {-2.0, -0.4, 0.0, 0.9, 2.5}) {
    VecX q(1), v(1), tau = VecX::Zero(1);
    q << angle;
    v << 1.7;
    const double expected = -m * 9.81 * L * std::cos(angle) / (Ic + m * L * L);  // angle from +x, g along -y
    EXPECT_NEAR(forward_dynamics_aba(tree, q, v, tau, kGravity)(0), expected, kTol);
    EXPECT_NEAR(forward_dynamics_cholesky(tree, q, v, tau, kGravity)(0), expected, kTol);
    EXPECT_NEAR(mass_matrix(tree, q)(0, 0), Ic + m * L * L, kTol);
  }
}

struct Arm {
  double m1 = 1.5, m2 = 0.8, l1 = 0.9, lc1 = 0.4, lc2 = 0.35, I1 = 0.11, I2 = 0.05;
  ArticulatedTree tree() const {
    ArticulatedTree t;
    t.add_link(planar_link("upper", -1, 0.0, m1, lc1, I1));
    t.add_link(planar_link("fore", 0, l1, m2, lc2, I2));
    return t;
  }
};

TEST(ArticulatedClosedForm, TwoLinkArmMassMatrixCoriolisGravity) {
  const Arm a;
  const ArticulatedTree tree = a.tree();
  for (double q1 : {-1.0, 0.3, 2.0})
    for (double q2 : {-2.5, 0.0, 0.7}) {
      VecX q(2), v(2);
      q << q1, q2;
      v << 1.3, -0.6;
      const double c2 = std::cos(q2), s2 = std::sin(q2);
      Eigen::Matrix2d M;
      M(0, 0) = a.m1 * a.lc1 * a.lc1 + a.m2 * (a.l1 * a.l1 + a.lc2 * a.lc2 + 2 * a.l1 * a.lc2 * c2) + a.I1 + a.I2;
      M(0, 1) = M(1, 0) = a.m2 * (a.lc2 * a.lc2 + a.l1 * a.lc2 * c2) + a.I2;
      M(1, 1) = a.m2 * a.lc2 * a.lc2 + a.I2;
      const double hh = -a.m2 * a.l1 * a.lc2 * s2;  // Christoffel coefficient
      const Eigen::Vector2d coriolis(hh * (2 * v(0) * v(1) + v(1) * v(1)), -hh * v(0) * v(0));
      const double g = 9.81;
      const Eigen::Vector2d gravity((a.m1 * a.lc1 + a.m2 * a.l1) * g * std::cos(q1) + a.m2 * a.lc2 * g * std::cos(q1 + q2),
                                    a.m2 * a.lc2 * g * std::cos(q1 + q2));
      EXPECT_LT((mass_matrix(tree, q) - M).cwiseAbs().maxCoeff(), kTol);
      EXPECT_LT((bias_forces(tree, q, v, Vec3::Zero()) - coriolis).cwiseAbs().maxCoeff(), kTol);
      EXPECT_LT((bias_forces(tree, q, VecX::Zero(2), kGravity) - gravity).cwiseAbs().maxCoeff(), kTol);
      VecX qdd(2);
      qdd << 0.4, -2.0;
      const VecX tau = M * qdd + coriolis + gravity;
      EXPECT_LT((inverse_dynamics(tree, q, v, qdd, kGravity) - tau).cwiseAbs().maxCoeff(), kTol);
      EXPECT_LT((forward_dynamics_aba(tree, q, v, tau, kGravity) - qdd).cwiseAbs().maxCoeff(), 1e-11);
    }
}

// The same arm with the joint axes along x and the gravity along z: the frame
// conventions (placement rotations) must not change the physics.
TEST(ArticulatedClosedForm, TwoLinkArmInRotatedFrames) {
  const Arm a;
  ArticulatedTree plain = a.tree();
  ArticulatedTree turned;
  const Mat3 R = Eigen::AngleAxisd(0.8, Vec3(1, 2, 3).normalized()).toRotationMatrix();
  for (int i = 0; i < 2; ++i) {
    Link l = plain.link(i);
    // the root's joint frame turned by R in the world; gravity turned with it below
    if (i == 0) l.joint_placement = placement(Vec3(0.3, -0.2, 1.0), R);
    turned.add_link(l);
  }
  VecX q(2), v(2), tau(2);
  q << 0.5, -1.1;
  v << 0.7, 2.0;
  tau << 1.0, -0.5;
  const VecX expected = forward_dynamics_aba(plain, q, v, tau, kGravity);
  EXPECT_LT((forward_dynamics_aba(turned, q, v, tau, R * kGravity) - expected).cwiseAbs().maxCoeff(), 1e-11);
  EXPECT_LT((mass_matrix(turned, q) - mass_matrix(plain, q)).cwiseAbs().maxCoeff(), kTol);
}

TEST(ArticulatedClosedForm, BadLinksAreRejectedByName) {
  ArticulatedTree tree;
  Link l;
  l.name = "elbow";
  l.parent = 3;
  try {
    tree.add_link(l);
    FAIL();
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("link 'elbow': parent"), std::string::npos);
  }
  l.parent = -1;
  l.joint = JointKind::Revolute;
  l.axis = Vec3::Zero();
  EXPECT_THROW(tree.add_link(l), std::invalid_argument);
  l.axis = Vec3::UnitX();
  l.inertia = Vec3(-1.0, 1.0, 1.0).asDiagonal();
  EXPECT_THROW(tree.add_link(l), std::invalid_argument);
  l.inertia.setIdentity();
  l.lower = 1.0;
  l.upper = 0.0;
  EXPECT_THROW(tree.add_link(l), std::invalid_argument);
  EXPECT_EQ(tree.link_count(), 0);
}

}  // namespace
}  // namespace pegsim::articulated
