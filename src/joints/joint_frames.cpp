#include "joints/joint_frames.hpp"

#include <cmath>
#include <numbers>
#include <stdexcept>

namespace pegsim {
namespace {

bool moves(const Model& model, std::uint32_t body) {
  return body != kWorldBody && !model.bodies[body].is_static;
}

// one end's anchor, axes, centre and velocity in the world
void end_in_world(const Model& model, const State& state, std::uint32_t body, const Vec3& rho, const Mat3& frame,
                  Vec3& p, Mat3& axes, Vec3& u, Vec6& nu, std::uint32_t& lcp_body) {
  if (body == kWorldBody) {
    p = rho;
    axes = frame;
    u = rho;
    return;
  }
  const BodyState& s = state.bodies[body];
  const Mat3 R = s.pose.orientation.toRotationMatrix();
  p = s.pose.position + R * rho;
  axes = R * frame;
  u = s.pose.position;
  if (!moves(model, body)) return;
  nu << s.linear_velocity, s.angular_velocity;
  lcp_body = body;
}

// The frame whose z is `axis`: shortest-arc rotation of world z (RPIsim
// sim_addJoint, q = [1 + z.a; z x a] normalized), pi about world x for a = -z.
Mat3 frame_from_axis(const Vec3& z) {
  const Vec3 k = Vec3::UnitZ();
  if (z.dot(k) < -1.0 + 1e-12) return Eigen::AngleAxisd(std::numbers::pi, Vec3::UnitX()).toRotationMatrix();
  return Quat::FromTwoVectors(k, z).toRotationMatrix();
}

Vec3 unit(const Vec3& v, const char* what) {
  const double n = v.norm();
  if (!(n > 1e-12) || !v.allFinite()) throw std::invalid_argument(std::string(what) + " must be a non-zero finite vector");
  return v / n;
}

}  // namespace

JointFrames joint_frames(const JointModel& joint, const Model& model, const State& state) {
  JointFrames f;
  end_in_world(model, state, joint.body_a, joint.anchor_a, joint.frame_a, f.pa, f.axes_a, f.ua, f.nu_a, f.body_a);
  end_in_world(model, state, joint.body_b, joint.anchor_b, joint.frame_b, f.pb, f.axes_b, f.ub, f.nu_b, f.body_b);
  return f;
}

JointModel make_joint(const JointSpec& spec, const Model& model, const State& state) {
  const std::size_t nb = model.bodies.size();
  for (std::uint32_t b : {spec.body_a, spec.body_b})
    if (b != kWorldBody && b >= nb) throw std::invalid_argument("joint body index " + std::to_string(b) + " out of range");
  if (spec.body_a == spec.body_b) throw std::invalid_argument("a joint needs two different ends");
  if (!moves(model, spec.body_a) && !moves(model, spec.body_b))
    throw std::invalid_argument("a joint between two ends that cannot move (world or static bodies)");
  if (!spec.anchor.allFinite()) throw std::invalid_argument("joint anchor must be finite");
  const bool planar = model.options.dimension == Dimension::Planar;
  if (planar && !joint_kind_in_plane(spec.kind))
    throw std::invalid_argument("a " + std::string(to_string(spec.kind)) + " joint has no planar form");

  // the joint's world axes at this pose
  Mat3 axes;
  if (planar) {
    // z stays the world z; the slide axis (x) lies in the plane
    Vec3 x = Vec3::UnitX();
    if (joint_coordinate(spec.kind) == JointCoordinate::Slide || spec.kind == JointKind::Cylindrical) {
      x = unit(Vec3(spec.axis.x(), spec.axis.y(), 0.0), "a planar joint's axis (in the plane)");
    }
    axes.col(0) = x;
    axes.col(2) = Vec3::UnitZ();
    axes.col(1) = Vec3::UnitZ().cross(x);
  } else {
    const Vec3 z = unit(spec.axis, "joint axis");
    if (spec.x_axis) {
      const Vec3 x0 = *spec.x_axis - spec.x_axis->dot(z) * z;
      if (!spec.x_axis->allFinite() || !(x0.norm() > 1e-9 * spec.x_axis->norm()))
        throw std::invalid_argument("joint x_axis must be finite and not along the axis");
      axes.col(0) = x0.normalized();
      axes.col(2) = z;
      axes.col(1) = z.cross(axes.col(0));
    } else {
      axes = frame_from_axis(z);
    }
  }

  JointModel j;
  j.name = spec.name;
  j.kind = spec.kind;
  j.body_a = spec.body_a;
  j.body_b = spec.body_b;
  auto store = [&](std::uint32_t body, Vec3& rho, Mat3& frame) {
    if (body == kWorldBody) {
      rho = spec.anchor;
      frame = axes;
      return;
    }
    const Pose& pose = state.bodies[body].pose;
    const Mat3 R = pose.orientation.toRotationMatrix();
    rho = R.transpose() * (spec.anchor - pose.position);
    frame = R.transpose() * axes;
  };
  store(j.body_a, j.anchor_a, j.frame_a);
  store(j.body_b, j.anchor_b, j.frame_b);
  return j;
}

int slide_axis_column(Dimension dim) { return dim == Dimension::Planar ? 0 : 2; }

double joint_position(const JointModel& joint, const JointFrames& f, Dimension dim) {
  switch (joint_coordinate(joint.kind)) {
    case JointCoordinate::Angle: {
      const Vec3 xa = f.axes_a.col(0), xb = f.axes_b.col(0), za = f.axes_a.col(2);
      return std::atan2(za.dot(xa.cross(xb)), xa.dot(xb));
    }
    case JointCoordinate::Slide:
      return f.axes_a.col(slide_axis_column(dim)).dot(f.pb - f.pa);
    case JointCoordinate::None:
      break;
  }
  return 0.0;
}

double unwrap_angle(double measured, double reference) {
  if (!std::isfinite(reference)) return measured;
  constexpr double kTurn = 2.0 * std::numbers::pi;
  return measured + kTurn * std::round((reference - measured) / kTurn);
}

double joint_position(const JointModel& joint, const JointFrames& frames, Dimension dim, const State& state,
                      std::size_t index) {
  const double q = joint_position(joint, frames, dim);
  if (joint_coordinate(joint.kind) != JointCoordinate::Angle || index >= state.joint_angles.size()) return q;
  return unwrap_angle(q, state.joint_angles[index]);
}

double joint_velocity(const JointModel& joint, const JointFrames& f, Dimension dim) {
  const Vec3 wa = f.nu_a.tail<3>(), wb = f.nu_b.tail<3>();
  switch (joint_coordinate(joint.kind)) {
    case JointCoordinate::Angle:
      return f.axes_a.col(2).dot(wb - wa);
    case JointCoordinate::Slide: {
      // d/dt [k . (P_b - P_a)] with k turning with A
      const Vec3 k = f.axes_a.col(slide_axis_column(dim));
      const Vec3 vpa = f.nu_a.head<3>() + wa.cross(f.pa - f.ua);
      const Vec3 vpb = f.nu_b.head<3>() + wb.cross(f.pb - f.ub);
      return wa.cross(k).dot(f.pb - f.pa) + k.dot(vpb - vpa);
    }
    case JointCoordinate::None:
      break;
  }
  return 0.0;
}

}  // namespace pegsim
