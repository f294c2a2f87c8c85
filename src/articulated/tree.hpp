// A kinematic tree in generalized coordinates (Featherstone 2008, chapter 4:
// the model of section 4.2, numbering of 4.1.2, joint models of 4.4).
//
// Links are numbered so that a link's parent comes before it (the book's
// "regular numbering", lambda(i) < i); parent -1 is the world, so a tree may
// have several roots. Link i's frame is the successor frame of its joint:
//
//   i_X_lambda(i) = X_J(q_i) X_T(i)                (eq. 4.16, Table 4.1)
//
// X_T (joint_placement) places the joint's predecessor frame in the parent
// link's frame (the world for a root), X_J is the joint's own motion. The
// joint's motion subspace S_i is constant in the successor frame for every
// kind here (so the c_J term of eq. 4.18 vanishes):
//
//   kind       q                          v                          S
//   revolute   angle about axis            rate                       [a; 0]
//   prismatic  displacement along axis     rate                       [0; a]
//   fixed      -                           -                          (6 x 0)
//   spherical  unit quaternion (w,x,y,z)   omega in the child frame   [1; 0]
//   floating   position p, quaternion      [omega; v] in the child    1 (6 x 6)
//
// Quaternions are normalized after every update (integrate_configuration).
#pragma once

#include "articulated/spatial.hpp"

#include <cstdint>
#include <limits>
#include <string>
#include <vector>

namespace pegsim::articulated {

enum class JointKind : std::uint8_t { Revolute, Prismatic, Fixed, Spherical, Floating };

std::string_view to_string(JointKind kind);
int position_count(JointKind kind);  // entries of q: 1, 1, 0, 4, 7
int velocity_count(JointKind kind);  // entries of v: 1, 1, 0, 3, 6

struct Link {
  std::string name;
  std::string joint_name;          // the joint's own name (URDF), empty: none given
  int parent = -1;                 // link index, -1: the world
  JointKind joint = JointKind::Fixed;
  Transform joint_placement;       // X_T: parent link frame (world for a root) to the joint frame
  Vec3 axis = Vec3::UnitZ();       // revolute / prismatic, unit, joint frame
  double mass = 0.0;
  Vec3 com = Vec3::Zero();         // centre of mass, link frame
  Mat3 inertia = Mat3::Zero();     // rotational inertia about the centre of mass, link frame
  // Joint properties for the stepper (1-dof joints): position limits, viscous
  // damping (N m s/rad or N s/m) and Coulomb friction (N m or N).
  double lower = -std::numeric_limits<double>::infinity();
  double upper = std::numeric_limits<double>::infinity();
  double damping = 0.0;
  double friction = 0.0;
  // Filled by ArticulatedTree::add_link.
  int q_index = 0, v_index = 0;
  int nq() const { return position_count(joint); }
  int nv() const { return velocity_count(joint); }
};

// X_T of a joint frame at `position` with rotation `rotation` (joint axes in
// the parent frame's coordinates): the book's plx(R^T, position).
Transform placement(const Vec3& position, const Mat3& rotation = Mat3::Identity());

class ArticulatedTree {
 public:
  // Appends a link; its parent must already exist (regular numbering). Throws
  // std::invalid_argument naming the link when a field is out of range
  // (unknown parent, zero axis, negative mass, an inertia that is not
  // symmetric positive semi-definite, lower > upper).
  int add_link(Link link);

  const std::vector<Link>& links() const { return links_; }
  const Link& link(int i) const { return links_[static_cast<std::size_t>(i)]; }
  int link_count() const { return static_cast<int>(links_.size()); }
  int find_link(std::string_view name) const;  // -1: none
  int nq() const { return nq_; }
  int nv() const { return nv_; }
  // q with every angle and displacement 0 and identity quaternions.
  VecX neutral_configuration() const;
  // Whether link `ancestor` is on the path from link `i` to the world (i included).
  bool supports(int ancestor, int i) const;

 private:
  std::vector<Link> links_;
  int nq_ = 0, nv_ = 0;
};

// The joint transform X_J(q) and motion subspace S (6 x nv) of link i's joint
// (jcalc, Table 4.1), q the whole tree's configuration.
Transform joint_transform(const Link& link, const VecX& q);
MatX motion_subspace(const Link& link);

// q(t + h) from q(t) and v over h (semi-implicit Euler's position update):
// angles and displacements q + h v; quaternions Q exp(h omega / 2) with omega
// in the child frame, then normalized; a floating joint's position moves by
// h R(Q) v_lin (v_lin in the child frame, R at the start of the step).
VecX integrate_configuration(const ArticulatedTree& tree, const VecX& q, const VecX& v, double h);

// dq/dt at (q, v), the rate integrate_configuration's update follows to
// first order: angles and displacements v; a quaternion Q's rate
// 1/2 Q (x) (0, omega) with omega in the child frame; a floating joint's
// position R(Q) v_lin. An RK4 step sums these rates of its stages and
// normalizes the quaternions of q + h rate (normalize_configuration).
VecX configuration_rate(const ArticulatedTree& tree, const VecX& q, const VecX& v);

// Normalizes every quaternion of q in place (a zero quaternion becomes the identity).
void normalize_configuration(const ArticulatedTree& tree, VecX& q);

}  // namespace pegsim::articulated
