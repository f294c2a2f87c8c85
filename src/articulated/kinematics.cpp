#include "articulated/kinematics.hpp"

namespace pegsim::articulated {

Subspace joint_subspace(const Link& link) {
  Subspace S = Subspace::Zero(6, link.nv());
  switch (link.joint) {
    case JointKind::Revolute: S.block<3, 1>(0, 0) = link.axis; break;
    case JointKind::Prismatic: S.block<3, 1>(3, 0) = link.axis; break;
    case JointKind::Fixed: break;
    case JointKind::Spherical: S.topRows<3>().setIdentity(); break;
    case JointKind::Floating: S.setIdentity(); break;
  }
  return S;
}

void forward_kinematics(const ArticulatedTree& tree, const VecX& q, const VecX& v, TreeKinematics& out) {
  const int n = tree.link_count();
  const bool with_velocity = v.size() == tree.nv();
  out.from_parent.resize(n);
  out.from_world.resize(n);
  out.subspace.resize(n);
  out.velocity.assign(with_velocity ? n : 0, Vec6::Zero());
  for (int i = 0; i < n; ++i) {
    const Link& l = tree.link(i);
    out.from_parent[i] = joint_transform(l, q) * l.joint_placement;
    out.from_world[i] = l.parent < 0 ? out.from_parent[i] : out.from_parent[i] * out.from_world[l.parent];
    out.subspace[i] = joint_subspace(l);
    if (!with_velocity) continue;
    Vec6 vi = out.subspace[i] * v.segment(l.v_index, l.nv());
    if (l.parent >= 0) vi += out.from_parent[i].apply_motion(out.velocity[l.parent]);
    out.velocity[i] = vi;
  }
}

Pose link_frame_pose(const TreeKinematics& kin, int i) {
  const Transform& X = kin.from_world[i];
  Pose p;
  p.position = X.r;
  p.orientation = Quat(Mat3(X.E.transpose())).normalized();
  return p;
}

Pose link_body_pose(const ArticulatedTree& tree, const TreeKinematics& kin, int i) {
  const Transform& X = kin.from_world[i];
  Pose p;
  p.position = X.r + X.E.transpose() * tree.link(i).com;
  p.orientation = Quat(Mat3(X.E.transpose())).normalized();
  return p;
}

Vec6 link_body_velocity(const ArticulatedTree& tree, const TreeKinematics& kin, int i) {
  // link axes in the world; .eval() because at -O1 GCC reads Eigen's aliasing
  // check of a transpose assigned into R as a read of R (-Wmaybe-uninitialized)
  const Mat3 R = kin.from_world[i].E.transpose().eval();
  const Vec6& s = kin.velocity[i];
  const Vec3 w = angular(s);
  Vec6 out;
  out << R * (linear(s) + w.cross(tree.link(i).com)), R * w;
  return out;
}

MatX point_jacobian(const ArticulatedTree& tree, const TreeKinematics& kin, int i, const Vec3& point_world) {
  MatX J = MatX::Zero(6, tree.nv());
  for (int j = i; j >= 0; j = tree.link(j).parent) {
    const Link& l = tree.link(j);
    const Transform& X = kin.from_world[j];
    for (int k = 0; k < l.nv(); ++k) {
      const Vec6 s = X.inverse_motion(kin.subspace[j].col(k));  // world coordinates, at the world origin
      const Vec3 w = angular(s);
      J.block<3, 1>(0, l.v_index + k) = linear(s) + w.cross(point_world);
      J.block<3, 1>(3, l.v_index + k) = w;
    }
  }
  return J;
}

double link_kinetic_energy(const ArticulatedTree& tree, const TreeKinematics& kin, int i) {
  const Link& l = tree.link(i);
  const Mat3 R = kin.from_world[i].E.transpose().eval();
  const Vec6 body = link_body_velocity(tree, kin, i);
  const Vec3 w = body.tail<3>();
  return 0.5 * (l.mass * body.head<3>().squaredNorm() + w.dot(R * l.inertia * R.transpose() * w));
}

}  // namespace pegsim::articulated
