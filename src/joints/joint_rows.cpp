#include "joints/joint_rows.hpp"

#include <array>
#include <cstdint>

namespace pegsim {
namespace {

// The seven constraint functions of joint_rows.hpp.
enum Constraint : std::uint8_t { Tx, Ty, Tz, Rx, Ry, Rz, Cross };

// Which a kind keeps (Table 2.1; planar: z along the world z, slide along x).
std::vector<Constraint> constraints_of(JointKind kind, Dimension dim) {
  if (dim == Dimension::Planar) {
    switch (kind) {
      case JointKind::Fixed: return {Tx, Ty, Rz};
      case JointKind::Revolute:
      case JointKind::Spherical: return {Tx, Ty};
      case JointKind::Prismatic: return {Ty, Rz};
      case JointKind::Cylindrical: return {Ty};
      case JointKind::Universal: return {};
    }
  }
  switch (kind) {
    case JointKind::Fixed: return {Tx, Ty, Tz, Rx, Ry, Rz};
    case JointKind::Revolute: return {Tx, Ty, Tz, Rx, Ry};
    case JointKind::Prismatic: return {Tx, Ty, Rx, Ry, Rz};
    case JointKind::Cylindrical: return {Tx, Ty, Rx, Ry};
    case JointKind::Spherical: return {Tx, Ty, Tz};
    case JointKind::Universal: return {Tx, Ty, Tz, Cross};
  }
  return {};
}

// psi = k . (P_a - P_b): A gets [k; (P_b - u_A) x k], B [-k; -(P_b - u_B) x k]
JointRow translation_row(const Vec3& k, const JointFrames& f) {
  JointRow r;
  r.error = k.dot(f.pa - f.pb);
  if (f.body_a != kWorldBody) {
    r.row.body_a = f.body_a;
    r.row.ja << k, (f.pb - f.ua).cross(k);
  }
  if (f.body_b != kWorldBody) {
    r.row.body_b = f.body_b;
    r.row.jb << -k, -(f.pb - f.ub).cross(k);
  }
  return r;
}

// a rotation row: A gets [0; axis], B [0; -axis]
JointRow rotation_row(const Vec3& axis_on_a, double error, const JointFrames& f) {
  JointRow r;
  r.error = error;
  if (f.body_a != kWorldBody) {
    r.row.body_a = f.body_a;
    r.row.ja << Vec3::Zero(), axis_on_a;
  }
  if (f.body_b != kWorldBody) {
    r.row.body_b = f.body_b;
    r.row.jb << Vec3::Zero(), -axis_on_a;
  }
  return r;
}

}  // namespace

int bilateral_row_count(JointKind kind, Dimension dim) { return static_cast<int>(constraints_of(kind, dim).size()); }

void bilateral_rows(const JointModel& joint, const JointFrames& f, Dimension dim, std::vector<JointRow>& out) {
  const Vec3 xa = f.axes_a.col(0), ya = f.axes_a.col(1), za = f.axes_a.col(2);
  const Vec3 xb = f.axes_b.col(0), yb = f.axes_b.col(1), zb = f.axes_b.col(2);
  for (Constraint c : constraints_of(joint.kind, dim)) {
    switch (c) {
      case Tx: out.push_back(translation_row(xa, f)); break;
      case Ty: out.push_back(translation_row(ya, f)); break;
      case Tz: out.push_back(translation_row(za, f)); break;
      case Rx: out.push_back(rotation_row(ya.cross(zb), ya.dot(zb), f)); break;
      case Ry: out.push_back(rotation_row(zb.cross(xa), -xa.dot(zb), f)); break;
      case Rz: out.push_back(rotation_row(xb.cross(ya), -ya.dot(xb), f)); break;
      case Cross: out.push_back(rotation_row(xa.cross(yb), xa.dot(yb), f)); break;
    }
  }
}

JacobianRow coordinate_row(const JointModel& joint, const JointFrames& f, Dimension dim) {
  JacobianRow row;
  switch (joint_coordinate(joint.kind)) {
    case JointCoordinate::Angle: {
      // d theta / dt = z_a . (w_B - w_A)
      const Vec3 za = f.axes_a.col(2);
      row = rotation_row(-za, 0.0, f).row;
      break;
    }
    case JointCoordinate::Slide: {
      // d s / dt = -(the translation row along the slide axis)
      row = translation_row(f.axes_a.col(slide_axis_column(dim)), f).row;
      row.ja = -row.ja;
      row.jb = -row.jb;
      break;
    }
    case JointCoordinate::None:
      break;
  }
  return row;
}

double row_rate(const JacobianRow& row, const JointFrames& f) {
  double w = 0.0;
  if (row.body_a != kNoBody) w += row.ja.dot(f.nu_a);
  if (row.body_b != kNoBody) w += row.jb.dot(f.nu_b);
  return w;
}

}  // namespace pegsim
