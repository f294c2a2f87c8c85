// The joint rows against their constraint functions (guide 1.8 #1-#3): each
// row is the gradient of its psi, the free motions of each kind are its null
// space, and every row is an action-reaction pair.
#include "joint_fixture.hpp"
#include "joints/joint_rows.hpp"

#include <gtest/gtest.h>

#include <cmath>

namespace pegsim {
namespace {

constexpr JointKind kKinds[] = {JointKind::Fixed, JointKind::Revolute, JointKind::Prismatic,
                                JointKind::Cylindrical, JointKind::Spherical, JointKind::Universal};

// the pose moved along the body velocity nu for time dt (exact rotation)
Pose advanced(const Pose& p, const Vec6& nu, double dt, bool planar) {
  Pose out = p;
  out.position += dt * nu.head<3>();
  const Vec3 w = nu.tail<3>();
  if (w.norm() > 0.0) out.orientation = Quat(Eigen::AngleAxisd(dt * w.norm(), w.normalized())) * p.orientation;
  if (planar) out.position.z() = 0.0;
  return out;
}

Vec6 random_velocity(std::mt19937& rng, bool planar) {
  Vec6 nu;
  nu << test::random_vec(rng, 1.0), test::random_vec(rng, 1.0);
  if (planar) nu(2) = nu(3) = nu(4) = 0.0;
  return nu;
}

Pose random_pose(std::mt19937& rng, bool planar) {
  Pose p;
  p.position = test::random_vec(rng, 0.5);
  p.orientation = test::random_rotation(rng);
  if (planar) {
    std::uniform_real_distribution<double> a(-3.0, 3.0);
    p = Pose::planar(p.position.x(), p.position.y(), a(rng));
  }
  return p;
}

struct JointCase {
  Model model;
  State state;
  JointModel joint;
};

// a joint of `kind` made at random poses, then both bodies moved so that the
// joint has an error of order `error`
JointCase make_setup(JointKind kind, Dimension dim, std::mt19937& rng, double error) {
  const bool planar = dim == Dimension::Planar;
  JointCase s;
  test::two_boxes(dim, random_pose(rng, planar), random_pose(rng, planar), s.model, s.state);
  JointSpec spec;
  spec.kind = kind;
  spec.body_a = 0;
  spec.body_b = 1;
  spec.anchor = test::random_vec(rng, 0.3);
  if (planar) spec.anchor.z() = 0.0;
  spec.axis = test::random_vec(rng, 1.0);
  s.joint = make_joint(spec, s.model, s.state);
  for (BodyState& b : s.state.bodies) b.pose = advanced(b.pose, random_velocity(rng, planar), error, planar);
  return s;
}

std::vector<JointRow> rows_at(const JointCase& s) {
  std::vector<JointRow> rows;
  bilateral_rows(s.joint, joint_frames(s.joint, s.model, s.state), s.model.options.dimension, rows);
  return rows;
}

void check_gradients(Dimension dim) {
  const bool planar = dim == Dimension::Planar;
  std::mt19937 rng(7);
  for (JointKind kind : kKinds) {
    if (planar && !joint_kind_in_plane(kind)) continue;
    for (int trial = 0; trial < 20; ++trial) {
      // joint errors of order 1e-2 on odd trials (and a sliding joint's slide of that order)
      JointCase s = make_setup(kind, dim, rng, trial % 2 == 0 ? 0.0 : 1e-2);
      const Vec6 nu_a = random_velocity(rng, planar), nu_b = random_velocity(rng, planar);
      s.state.bodies[0].linear_velocity = nu_a.head<3>();
      s.state.bodies[0].angular_velocity = nu_a.tail<3>();
      s.state.bodies[1].linear_velocity = nu_b.head<3>();
      s.state.bodies[1].angular_velocity = nu_b.tail<3>();
      const std::vector<JointRow> rows = rows_at(s);
      ASSERT_EQ(static_cast<int>(rows.size()), bilateral_row_count(kind, dim));
      const double d = 1e-6;
      JointCase plus = s, minus = s;
      for (int b = 0; b < 2; ++b) {
        const Vec6 nu = b == 0 ? nu_a : nu_b;
        plus.state.bodies[b].pose = advanced(s.state.bodies[b].pose, nu, d, planar);
        minus.state.bodies[b].pose = advanced(s.state.bodies[b].pose, nu, -d, planar);
      }
      const std::vector<JointRow> rp = rows_at(plus), rm = rows_at(minus);
      const JointFrames f = joint_frames(s.joint, s.model, s.state);
      for (std::size_t i = 0; i < rows.size(); ++i) {
        const double numeric = (rp[i].error - rm[i].error) / (2 * d);
        // central difference: O(d^2) truncation, O(1e-16 / d) round-off, both
        // far below 1e-7 for unit velocities and lengths of 1 m
        EXPECT_NEAR(row_rate(rows[i].row, f), numeric, 1e-7)
            << to_string(kind) << (planar ? " planar" : "") << " row " << i << " trial " << trial;
      }
      // the free coordinate's row against its value (angles kept away from
      // +-pi). The slide's row is exact at every pose; the angle's rate
      // z_a . (w_B - w_A) is exact while z_b = z_a (tilting z_b changes the
      // angle at second order only), so it is checked on the zero-error trials.
      const bool exact = joint_coordinate(kind) == JointCoordinate::Slide || planar || trial % 2 == 0;
      if (joint_coordinate(kind) != JointCoordinate::None && exact) {
        const double q = joint_position(s.joint, f, dim);
        if (std::abs(q) < 3.0) {
          const double numeric = (joint_position(s.joint, joint_frames(plus.joint, plus.model, plus.state), dim) -
                                  joint_position(s.joint, joint_frames(minus.joint, minus.model, minus.state), dim)) /
                                 (2 * d);
          EXPECT_NEAR(row_rate(coordinate_row(s.joint, f, dim), f), numeric, 1e-7) << to_string(kind);
          EXPECT_NEAR(joint_velocity(s.joint, f, dim), numeric, 1e-7) << to_string(kind);
        }
      }
    }
  }
}

TEST(JointRows, AreTheGradientsOfTheirConstraintFunctions3D) { check_gradients(Dimension::Spatial); }
TEST(JointRows, AreTheGradientsOfTheirConstraintFunctionsPlanar) { check_gradients(Dimension::Planar); }

// Table 2.1: each kind removes 6 - DOF relative motions; its free motions about
// or along the joint axes at zero error give G' nu = 0, and any common rigid
// motion of both bodies gives G' nu = 0 at any pose.
TEST(JointRows, FreeMotionsAndCommonRigidMotionAreTheNullSpace) {
  std::mt19937 rng(11);
  for (JointKind kind : kKinds) {
    JointCase s = make_setup(kind, Dimension::Spatial, rng, 0.0);
    const JointFrames f = joint_frames(s.joint, s.model, s.state);
    const Vec3 x = f.axes_a.col(0), y = f.axes_a.col(1), z = f.axes_a.col(2), p = f.pa;
    std::vector<Vec6> free_motions;  // of B with A at rest
    auto rotation_about = [&](const Vec3& axis) {
      Vec6 nu;
      nu << axis.cross(f.ub - p), axis;
      return nu;
    };
    auto translation_along = [&](const Vec3& axis) {
      Vec6 nu;
      nu << axis, Vec3::Zero();
      return nu;
    };
    switch (kind) {
      case JointKind::Fixed: break;
      case JointKind::Revolute: free_motions = {rotation_about(z)}; break;
      case JointKind::Prismatic: free_motions = {translation_along(z)}; break;
      case JointKind::Cylindrical: free_motions = {rotation_about(z), translation_along(z)}; break;
      case JointKind::Spherical: free_motions = {rotation_about(x), rotation_about(y), rotation_about(z)}; break;
      case JointKind::Universal: free_motions = {rotation_about(x), rotation_about(y)}; break;
    }
    const std::vector<JointRow> rows = rows_at(s);
    EXPECT_EQ(static_cast<int>(rows.size()) + static_cast<int>(free_motions.size()), 6) << to_string(kind);
    for (const JointRow& r : rows) {
      EXPECT_NEAR(r.error, 0.0, 1e-12) << to_string(kind);
      for (const Vec6& nu : free_motions) EXPECT_NEAR(r.row.jb.dot(nu), 0.0, 1e-12) << to_string(kind);
    }
    // a common rigid motion, at a pose with a joint error
    JointCase moved = make_setup(kind, Dimension::Spatial, rng, 1e-2);
    const JointFrames g = joint_frames(moved.joint, moved.model, moved.state);
    const Vec3 v = test::random_vec(rng, 1.0), w = test::random_vec(rng, 1.0);
    Vec6 nu_a, nu_b;
    nu_a << v + w.cross(g.ua), w;
    nu_b << v + w.cross(g.ub), w;
    for (const JointRow& r : rows_at(moved)) EXPECT_NEAR(r.row.ja.dot(nu_a) + r.row.jb.dot(nu_b), 0.0, 1e-12);
  }
}

// Every row's wrenches on A and B, moved to the origin, cancel: joint impulses
// conserve linear and angular momentum (guide 1.8 #3; the Table 2.1 lever slip
// of sliding joints breaks this).
TEST(JointRows, AreActionReactionPairs) {
  std::mt19937 rng(13);
  for (JointKind kind : kKinds) {
    JointCase s = make_setup(kind, Dimension::Spatial, rng, 5e-2);
    const JointFrames f = joint_frames(s.joint, s.model, s.state);
    std::vector<JointRow> rows = rows_at(s);
    rows.push_back(JointRow{coordinate_row(s.joint, f, Dimension::Spatial), 0.0});
    for (const JointRow& r : rows) {
      const Vec3 force = r.row.ja.head<3>() + r.row.jb.head<3>();
      const Vec3 torque = r.row.ja.tail<3>() + f.ua.cross(r.row.ja.head<3>()) + r.row.jb.tail<3>() +
                          f.ub.cross(r.row.jb.head<3>());
      EXPECT_LT(force.norm(), 1e-12) << to_string(kind);
      EXPECT_LT(torque.norm(), 1e-12) << to_string(kind);
    }
  }
}

TEST(JointRegistry, NamesAndAliasesRoundTrip) {
  for (const std::string& name : joint_kind_names()) {
    JointKind k;
    ASSERT_TRUE(parse_joint_kind(name, k));
    EXPECT_EQ(to_string(k), name);
  }
  JointKind k;
  EXPECT_TRUE(parse_joint_kind("hinge", k));
  EXPECT_EQ(k, JointKind::Revolute);
  EXPECT_TRUE(parse_joint_kind("rigid", k));
  EXPECT_EQ(k, JointKind::Fixed);
  EXPECT_FALSE(parse_joint_kind("weld", k));
}

TEST(MakeJoint, RejectsBadSpecs) {
  Model model;
  State state;
  test::two_boxes(Dimension::Spatial, Pose{}, Pose{}, model, state);
  JointSpec spec;
  spec.body_a = 0;
  spec.body_b = 0;
  EXPECT_THROW(make_joint(spec, model, state), std::invalid_argument);  // one body at both ends
  spec.body_b = 5;
  EXPECT_THROW(make_joint(spec, model, state), std::invalid_argument);  // out of range
  spec.body_b = 1;
  spec.axis = Vec3::Zero();
  EXPECT_THROW(make_joint(spec, model, state), std::invalid_argument);  // zero axis
  spec.axis = Vec3(0, 0, std::nan(""));
  EXPECT_THROW(make_joint(spec, model, state), std::invalid_argument);
  spec.axis = Vec3::UnitZ();
  spec.x_axis = Vec3(0, 0, 2);
  EXPECT_THROW(make_joint(spec, model, state), std::invalid_argument);  // x along z
  spec.x_axis.reset();
  spec.axis = -Vec3::UnitZ();  // RPIsim's shortest arc is degenerate here: pi about x
  const JointModel j = make_joint(spec, model, state);
  EXPECT_NEAR((j.frame_a.col(2) + Vec3::UnitZ()).norm(), 0.0, 1e-15);
  EXPECT_NEAR(j.frame_a.determinant(), 1.0, 1e-15);
}

}  // namespace
}  // namespace pegsim
