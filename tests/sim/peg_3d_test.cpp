// PEG 3D (thesis 4.4) and LNC in simulation, on the experiments where the
// standard model's trap decides the outcome: the 3D instant trap of thesis
// Fig. 5.3, dvc3D's box-into-hole and cracked-ramp, and a 3D box stack with
// random offsets (the 3D analogue of thesis 5.2.2). Each test also runs the
// standard model and checks that it is trapped, so a model that silently
// equals another fails.
#include "scene_runner.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <string>

namespace pegsim {
namespace {

World with_model(const std::string& name, ContactModelKind kind) {
  Scene s = load_scene_file(test::scene_path(name));
  s.model.options.model = kind;
  return test::measuring_world(std::move(s.model), std::move(s.state));
}

using test::run_until;
using test::RunStats;

// Thesis Fig. 5.3: a 1 m cube slides (1 m/s, frictionless) on a 3 x 3 x 1 m
// static block towards its edge; its leading vertices are 5 cm short of the
// edge, within eps = 0.1 m of the block's side face, 5 cm behind it. The
// standard model enforces that side face (psi = -5 cm) and throws the cube
// back; PEG gives the vertex an I-constraint over the top and side faces, and
// nothing changes the cube's horizontal velocity.
TEST(Peg3d, Fig53_NoImpulseFromTheFalselyExtendedSideFace) {
  auto scene = [](ContactModelKind kind) {
    const char* text = R"(
options: {dimension: 3, h: 0.01, eps: 0.1, solver: lemke, gravity: [0, 0, -9.81]}
bodies:
  - {name: block, shape: {box: [3, 3, 1]}, static: true}
  - {name: cube, shape: {box: [1, 1, 1]}, mass: 1, position: [0.95, 0, 1], velocity: [1, 0, 0]}
)";
    Scene s = load_scene_string(text, "fig-5-3");
    s.model.options.model = kind;
    return test::measuring_world(std::move(s.model), std::move(s.state));
  };
  World peg = scene(ContactModelKind::Peg);
  World standard = scene(ContactModelKind::Standard);
  peg.step();
  standard.step();
  // PEG: no horizontal impulse, exactly (frictionless, the side face carries no force)
  EXPECT_NEAR(peg.state().bodies[1].linear_velocity.x(), 1.0, 1e-9);
  EXPECT_NEAR(peg.state().bodies[1].linear_velocity.z(), 0.0, 1e-9);
  EXPECT_EQ(peg.last_report().solver_failures, 0);
  // standard: the side face's psi/h = 5 m/s correction at the two leading
  // vertices, shared between the cube's translation and its rotation
  EXPECT_GT(standard.state().bodies[1].linear_velocity.x(), 2.0);
}

// dvc3D box-into-hole: PEG and LNC let the box down the trench to the floor
// (centre 0.25 m up), the standard model holds it at the rim (1.25 m).
TEST(Peg3d, BoxIntoHole_PegAndLncReachTheFloorStandardCaughtAtTheRim) {
  for (ContactModelKind kind : {ContactModelKind::Peg, ContactModelKind::Lnc}) {
    World w = with_model("box-into-hole", kind);
    const RunStats r = run_until(w, 1.5);
    EXPECT_EQ(r.failures, 0) << to_string(kind);
    EXPECT_LT(r.max_penetration, 1e-9) << to_string(kind);
    EXPECT_NEAR(w.state().bodies[3].pose.position.z(), 0.25, 1e-6) << to_string(kind);
  }
  World standard = with_model("box-into-hole", ContactModelKind::Standard);
  run_until(standard, 1.5);
  EXPECT_GT(standard.state().bodies[3].pose.position.z(), 1.2);
}

// dvc3D cracked-ramp: under PEG the cube slides over the seam without turning
// and reaches the ramp's end (6 m down the slope); the standard model trips it
// at the seam (3 m). Distances along the slope d = (cos 0.3, 0, -sin 0.3).
TEST(Peg3d, CrackedRamp_PegSlidesToTheEndStandardTumblesAtTheSeam) {
  const double a = 0.3;
  auto along = [&](const World& w) {
    const Vec3& p = w.state().bodies[3].pose.position;
    return p.x() * std::cos(a) - p.z() * std::sin(a);
  };
  auto turned = [&](const World& w) {  // rotation away from the slab's tilt (rad)
    const Quat q0(Eigen::AngleAxisd(a, Vec3::UnitY()));
    return Eigen::AngleAxisd(q0.conjugate() * w.state().bodies[3].pose.orientation).angle();
  };
  World peg = with_model("cracked-ramp", ContactModelKind::Peg);
  double peg_turn = 0.0;
  int failures = 0;
  double penetration = 0.0;
  while (along(peg) < 5.5) {  // until its front is 0.25 m from the end
    const StepReport& r = peg.step();
    failures += r.solver_failures;
    penetration = std::max(penetration, r.max_penetration);
    peg_turn = std::max(peg_turn, turned(peg));
    ASSERT_LT(peg.state().time, 3.0) << "the cube stopped on the ramp";
  }
  EXPECT_EQ(failures, 0);
  EXPECT_LT(peg_turn, 1e-3);
  // The 0.1 mm step at the seam: the cube's front drops onto the lower slab.
  // Its bottom edge meets the upper slab's edge within one step; the overlap
  // measured after a step stays far below that 0.1 mm.
  EXPECT_LT(penetration, 1e-5);

  World standard = with_model("cracked-ramp", ContactModelKind::Standard);
  double standard_turn = 0.0;
  while (standard.state().time < 2.5) {
    standard.step();
    if (along(standard) < 3.5) standard_turn = std::max(standard_turn, turned(standard));
  }
  EXPECT_GT(standard_turn, 0.5);
}

// Ten cubes with random offsets dropped on a floor (scenes/box-stack-3d-offset.yaml):
// PEG settles them without a solver failure and holds them still; the standard
// model's traps make its problems unsolvable.
TEST(Peg3d, OffsetBoxStack_PegStandsStandardFails) {
  World peg = with_model("box-stack-3d-offset", ContactModelKind::Peg);
  const RunStats settle = run_until(peg, 3.0);
  const State at_3s = peg.state();
  const RunStats rest = run_until(peg, 4.0);
  EXPECT_EQ(settle.failures + rest.failures, 0);
  EXPECT_LT(std::max(settle.max_penetration, rest.max_penetration), 1e-9);
  for (std::size_t b = 1; b < at_3s.bodies.size(); ++b) {
    EXPECT_LT((peg.state().bodies[b].pose.position - at_3s.bodies[b].pose.position).norm(), 1e-6) << b;
    EXPECT_NEAR(peg.state().bodies[b].pose.position.z(), 0.5 + static_cast<double>(b - 1), 1e-6) << b;
  }
  World standard = with_model("box-stack-3d-offset", ContactModelKind::Standard);
  EXPECT_GT(run_until(standard, 1.0).failures, 0);
}

}  // namespace
}  // namespace pegsim
