#include "articulated/tree.hpp"
#include "articulated/kinematics.hpp"

#include <Eigen/Eigenvalues>

#include <cmath>
#include <stdexcept>

namespace pegsim::articulated {

std::string_view to_string(JointKind kind) {
  switch (kind) {
    case JointKind::Revolute: return "revolute";
    case JointKind::Prismatic: return "prismatic";
    case JointKind::Fixed: return "fixed";
    case JointKind::Spherical: return "spherical";
    case JointKind::Floating: return "floating";
  }
  return "?";
}

int position_count(JointKind kind) {
  switch (kind) {
    case JointKind::Revolute:
    case JointKind::Prismatic: return 1;
    case JointKind::Fixed: return 0;
    case JointKind::Spherical: return 4;
    case JointKind::Floating: return 7;
  }
  return 0;
}

int velocity_count(JointKind kind) {
  switch (kind) {
    case JointKind::Revolute:
    case JointKind::Prismatic: return 1;
    case JointKind::Fixed: return 0;
    case JointKind::Spherical: return 3;
    case JointKind::Floating: return 6;
  }
  return 0;
}

Transform placement(const Vec3& position, const Mat3& rotation) { return Transform{rotation.transpose(), position}; }

int ArticulatedTree::add_link(Link link) {
  const std::string who = "link '" + link.name + "': ";
  if (link.parent < -1 || link.parent >= link_count())
    throw std::invalid_argument(who + "parent " + std::to_string(link.parent) + " is not an earlier link");
  if (link.joint == JointKind::Revolute || link.joint == JointKind::Prismatic) {
    const double n = link.axis.norm();
    if (!(n > 1e-12) || !std::isfinite(n)) throw std::invalid_argument(who + "axis must be a non-zero finite vector");
    link.axis /= n;
  }
  if (!(link.mass >= 0.0) || !std::isfinite(link.mass)) throw std::invalid_argument(who + "mass must be >= 0");
  if (!link.inertia.allFinite() || (link.inertia - link.inertia.transpose()).cwiseAbs().maxCoeff() > 1e-9 * (1.0 + link.inertia.norm()))
    throw std::invalid_argument(who + "inertia must be a finite symmetric matrix");
  if (Eigen::SelfAdjointEigenSolver<Mat3>(link.inertia).eigenvalues().minCoeff() < -1e-12 * (1.0 + link.inertia.norm()))
    throw std::invalid_argument(who + "inertia must be positive semi-definite");
  if (!link.com.allFinite() || !link.joint_placement.E.allFinite() || !link.joint_placement.r.allFinite())
    throw std::invalid_argument(who + "placement and centre of mass must be finite");
  if (link.lower > link.upper) throw std::invalid_argument(who + "lower limit above upper limit");
  if (!(link.damping >= 0.0) || !(link.friction >= 0.0))
    throw std::invalid_argument(who + "damping and friction must be >= 0");
  link.q_index = nq_;
  link.v_index = nv_;
  nq_ += link.nq();
  nv_ += link.nv();
  links_.push_back(std::move(link));
  return link_count() - 1;
}

int ArticulatedTree::find_link(std::string_view name) const {
  for (int i = 0; i < link_count(); ++i)
    if (links_[static_cast<std::size_t>(i)].name == name) return i;
  return -1;
}

VecX ArticulatedTree::neutral_configuration() const {
  VecX q = VecX::Zero(nq_);
  for (const Link& l : links_) {
    if (l.joint == JointKind::Spherical) q(l.q_index) = 1.0;
    if (l.joint == JointKind::Floating) q(l.q_index + 3) = 1.0;
  }
  return q;
}

bool ArticulatedTree::supports(int ancestor, int i) const {
  for (; i >= 0; i = links_[static_cast<std::size_t>(i)].parent)
    if (i == ancestor) return true;
  return false;
}

static Quat quaternion_at(const VecX& q, int at) { return Quat(q(at), q(at + 1), q(at + 2), q(at + 3)); }

Transform joint_transform(const Link& link, const VecX& q) {
  const int i = link.q_index;
  switch (link.joint) {
    case JointKind::Revolute: return Transform{axis_rotation(link.axis, q(i)).transpose(), Vec3::Zero()};
    case JointKind::Prismatic: return Transform{Mat3::Identity(), link.axis * q(i)};
    case JointKind::Fixed: return Transform{};
    case JointKind::Spherical: return Transform{quaternion_at(q, i).normalized().toRotationMatrix().transpose(), Vec3::Zero()};
    case JointKind::Floating:
      return Transform{quaternion_at(q, i + 3).normalized().toRotationMatrix().transpose(), q.segment<3>(i)};
  }
  return Transform{};
}

MatX motion_subspace(const Link& link) { return joint_subspace(link); }  // kinematics.cpp

// Q exp(h omega / 2): the rotation by h omega (child frame) after Q
static Quat rotate_by(const Quat& Q, const Vec3& omega, double h) {
  const double angle = h * omega.norm();
  if (angle == 0.0) return Q;
  return (Q * Quat(Eigen::AngleAxisd(angle, omega.normalized()))).normalized();
}

static void store(VecX& q, int at, const Quat& Q) { q.segment<4>(at) << Q.w(), Q.x(), Q.y(), Q.z(); }

VecX integrate_configuration(const ArticulatedTree& tree, const VecX& q, const VecX& v, double h) {
  VecX out = q;
  for (const Link& l : tree.links()) {
    const int i = l.q_index, k = l.v_index;
    switch (l.joint) {
      case JointKind::Revolute:
      case JointKind::Prismatic: out(i) = q(i) + h * v(k); break;
      case JointKind::Fixed: break;
      case JointKind::Spherical: store(out, i, rotate_by(quaternion_at(q, i).normalized(), v.segment<3>(k), h)); break;
      case JointKind::Floating: {
        const Quat Q = quaternion_at(q, i + 3).normalized();
        out.segment<3>(i) = q.segment<3>(i) + h * (Q * Vec3(v.segment<3>(k + 3)));
        store(out, i + 3, rotate_by(Q, v.segment<3>(k), h));
        break;
      }
    }
  }
  return out;
}

VecX configuration_rate(const ArticulatedTree& tree, const VecX& q, const VecX& v) {
  VecX rate = VecX::Zero(q.size());
  for (const Link& l : tree.links()) {
    const int i = l.q_index, k = l.v_index;
    switch (l.joint) {
      case JointKind::Revolute:
      case JointKind::Prismatic: rate(i) = v(k); break;
      case JointKind::Fixed: break;
      case JointKind::Spherical:
      case JointKind::Floating: {
        const int at = l.joint == JointKind::Floating ? i + 3 : i;
        const Quat Q = quaternion_at(q, at).normalized();
        if (l.joint == JointKind::Floating) rate.segment<3>(i) = Q * Vec3(v.segment<3>(k + 3));
        const Vec3 omega = v.segment<3>(k);
        const Quat dQ = Q * Quat(0.0, omega.x(), omega.y(), omega.z());  // 2 dQ/dt
        rate.segment<4>(at) << 0.5 * dQ.w(), 0.5 * dQ.x(), 0.5 * dQ.y(), 0.5 * dQ.z();
        break;
      }
    }
  }
  return rate;
}

void normalize_configuration(const ArticulatedTree& tree, VecX& q) {
  for (const Link& l : tree.links()) {
    if (l.joint != JointKind::Spherical && l.joint != JointKind::Floating) continue;
    const int at = l.q_index + (l.joint == JointKind::Floating ? 3 : 0);
    const double n = q.segment<4>(at).norm();
    if (n > 0.0 && std::isfinite(n)) q.segment<4>(at) /= n;
    else q.segment<4>(at) << 1.0, 0.0, 0.0, 0.0;
  }
}

}  // namespace pegsim::articulated
