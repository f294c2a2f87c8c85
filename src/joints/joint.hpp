// Joints in maximal coordinates (thesis 2.2.3 and 2.4; dvc3D's joint set).
//
// A joint links body A and body B, or one body and the world. Each end carries
// a joint frame fixed in its body: an anchor rho and a rotation F whose columns
// are the joint axes x, y, z, both in body coordinates (the world end: in world
// coordinates). In the world,
//   P_a = u_A + R_A rho_a,   [x_a y_a z_a] = R_A F_a      (thesis Fig. 2.1)
// and the same for B. The two frames coincide when the joint is made (thesis
// l.584, "assumed initially coincident"); the joint error is their discrepancy.
// z is the joint's primary axis (thesis l.792): the hinge axis of a revolute
// joint, the slide axis of a prismatic one.
//
// Which relative motions a kind removes (thesis Table 2.1; the rows are in
// joints/joint_rows.hpp):
//   fixed ("rigid")            all six
//   revolute ("hinge")         all but the rotation about z
//   prismatic ("slider")       all but the translation along z
//   cylindrical                all but the translation along and rotation about z
//   spherical ("ball")         the three translations of the anchor
//   universal ("hooke")        the anchor and the rotation about z (x of A and y of B stay free)
// Planar scenes keep z along the world z: revolute and spherical remove the
// anchor's two in-plane translations, fixed adds the rotation; prismatic and
// cylindrical slide along the joint's x (an in-plane axis), prismatic with the
// rotation locked, cylindrical (a pin in a slot) with it free.
//
// The free coordinate (revolute, cylindrical: the angle of B about z relative
// to A; prismatic: the slide of B along A's axis) carries the optional limit,
// motor, Coulomb friction and damping (joints/joint_rows.hpp).
#pragma once

#include "math/types.hpp"

#include <cstdint>
#include <limits>
#include <string>
#include <string_view>
#include <vector>

namespace pegsim {

// A joint end that is the world (body index kNoBody of solvers/lcp.hpp).
inline constexpr std::uint32_t kWorldBody = 0xffffffffu;

enum class JointKind : std::uint8_t { Fixed, Revolute, Prismatic, Cylindrical, Spherical, Universal };

// The free coordinate a limit, motor, friction or damping acts on.
enum class JointCoordinate : std::uint8_t { None, Angle, Slide };

struct JointLimit {
  bool enabled = false;
  double lower = 0.0, upper = 0.0;  // rad or m; lower <= upper
};

// A velocity motor (Bullet style): drives the coordinate's rate to `velocity`
// with an impulse bounded by max_force * h.
struct JointMotor {
  bool enabled = false;
  double velocity = 0.0;   // rad/s or m/s
  double max_force = 0.0;  // N m or N, >= 0
};

struct JointModel {
  std::string name;
  JointKind kind = JointKind::Revolute;
  std::uint32_t body_a = kWorldBody, body_b = kWorldBody;
  Vec3 anchor_a = Vec3::Zero(), anchor_b = Vec3::Zero();  // rho, in each end's body frame
  Mat3 frame_a = Mat3::Identity(), frame_b = Mat3::Identity();  // F, columns x, y, z in the body frame
  bool collide = false;  // the joined bodies collide with each other (off by default)
  JointLimit limit;
  JointMotor motor;
  double friction = 0.0;  // Coulomb bound on the coordinate's force or torque (N or N m), >= 0
  double damping = 0.0;   // viscous coefficient (N s/m or N m s/rad), >= 0, taken implicitly
};

// Joint options of a scene (SimOptions::joints).
struct JointOptions {
  // psi_b / h in the bilateral rows' constant (thesis eq. 2.28, 2.34): on, the
  // step itself pulls the joint error back; off, velocity-level rows only, and
  // the error drifts (thesis l.723).
  bool stabilization = true;
  // Algorithm 1 of the thesis after each step (joints/joint_correction.hpp).
  bool correction = false;
  double eps_p = 1e-5;       // position tolerance of Algorithm 1 (m, rad)
  double eps_v = 1e-5;       // velocity tolerance (m/s, rad/s)
  int correction_iterations = 20;  // cap per loop (the thesis gives none)
};

// The registry: "fixed", "revolute", "prismatic", "cylindrical", "spherical",
// "universal", and the aliases rigid, hinge, slider, ball, point-to-point,
// hooke. parse_joint_kind: false on an unknown name.
std::string_view to_string(JointKind kind);
bool parse_joint_kind(std::string_view text, JointKind& kind);
std::vector<std::string> joint_kind_names();  // the primary names, registry order
std::vector<std::string> joint_kind_names_and_aliases();  // every accepted name

// The free coordinate of a kind (None: no limit, motor, friction or damping).
JointCoordinate joint_coordinate(JointKind kind);
// Whether a kind exists in planar scenes (universal does not).
bool joint_kind_in_plane(JointKind kind);

}  // namespace pegsim
