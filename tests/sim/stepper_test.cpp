// The stepper boundary (sim/stepper.hpp) and the world around it: the
// registry's names and errors, options that fail leave the world as it was,
// penetration measured only when asked, the planar angle's one source of
// truth, and the island solve's recovery on a PEG island that has no solution.
#include "sim/certification.hpp"
#include "sim/island_solver.hpp"
#include "sim/scene_runner.hpp"
#include "sim/stepper.hpp"

#include <gtest/gtest.h>

#include <cmath>

namespace pegsim {
namespace {

std::string error_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const std::exception& e) {
    return e.what();
  }
  return "";
}

TEST(Stepper, RegistryNamesTheSteppersAndRefusesOthers) {
  EXPECT_EQ(stepper_names(),
            (std::vector<std::string>{"time-stepping", "impulse", "no-slip", "viscous", "viscous-rk4", "convex-impulse"}));
  for (const std::string& name : stepper_names()) EXPECT_EQ(make_stepper(name)->name(), name);
  const std::string e = error_of([] { make_stepper("verlet"); });
  EXPECT_NE(e.find("unknown stepper 'verlet' (available: time-stepping, impulse, no-slip, viscous, viscous-rk4, convex-impulse)"),
            std::string::npos)
      << e;
}

TEST(Stepper, AFailedOptionLeavesTheWorldAsItWas) {
  World w = test::load_world("box-stack-3d");
  const std::vector<std::string> chain = w.solver_chain();
  EXPECT_NE(error_of([&] { w.set_solver_chain({"pgs", "nosuch"}); }).find("unknown solver 'nosuch'"), std::string::npos);
  EXPECT_EQ(w.solver_chain(), chain);
  EXPECT_NE(error_of([&] { w.set_stepper("nosuch"); }).find("available: time-stepping, impulse"), std::string::npos);
  EXPECT_EQ(w.model().options.stepper, "time-stepping");
  EXPECT_EQ(w.step().solver_failures, 0);  // and it still steps
}

// A scene that names no model gets PEG (docs/contact-models.md).
TEST(Stepper, PegIsTheDefaultContactModel) {
  const Scene s = load_scene_string("options: {dimension: 3}\nbodies: [{shape: {box: [1, 1, 1]}, mass: 1}]\n", "t");
  EXPECT_EQ(s.model.options.model, ContactModelKind::Peg);
  EXPECT_EQ(SimOptions{}.model, ContactModelKind::Peg);
}

// Penetration is a stage of its own, run when asked: NaN otherwise, the same
// number as a measuring world's when asked.
TEST(Stepper, PenetrationIsMeasuredOnlyWhenAsked) {
  Scene a = load_scene_file(test::scene_path("box-stack-3d"));
  World quiet(a.model, a.state);
  World measured = test::measuring_world(a.model, a.state);
  for (int i = 0; i < 300; ++i) {
    const StepReport& q = quiet.step();
    const StepReport& m = measured.step();
    ASSERT_TRUE(std::isnan(q.max_penetration)) << i;
    ASSERT_EQ(q.profile[Stage::Penetration], 0.0);
    ASSERT_FALSE(std::isnan(m.max_penetration)) << i;
  }
  // asking does not change the motion
  for (std::size_t k = 0; k < quiet.state().bodies.size(); ++k)
    EXPECT_EQ(quiet.state().bodies[k].pose.position, measured.state().bodies[k].pose.position);
  // a finite max_penetration option asks too
  a.model.options.max_penetration = 1.0;
  World bounded(a.model, a.state);
  EXPECT_FALSE(std::isnan(bounded.step().max_penetration));
}

// A planar body's orientation is its one source of truth: a pose set between
// steps is where the next step starts turning from.
TEST(Stepper, PlanarAngleIsReadFromTheOrientation) {
  const Scene s = load_scene_string(
      "options: {dimension: 2, gravity: [0, 0]}\n"
      "bodies: [{shape: {rectangle: [1, 0.5]}, mass: 1, theta: 0.25, angular_velocity: 2}]\n", "t");
  World w(s.model, s.state);
  const double h = w.model().options.h;
  w.step();
  EXPECT_NEAR(planar_angle(w.state().bodies[0].pose), 0.25 + 2 * h, 1e-14);
  w.state().bodies[0].pose = Pose::planar(0, 0, -1.0);  // set as a user would
  w.step();
  EXPECT_NEAR(planar_angle(w.state().bodies[0].pose), -1.0 + 2 * h, 1e-14);
  // angles stay in (-pi, pi]
  w.state().bodies[0].pose = Pose::planar(0, 0, 3.14159);
  w.step();
  EXPECT_NEAR(planar_angle(w.state().bodies[0].pose), 3.14159 + 2 * h - 2 * std::numbers::pi, 1e-12);
}

// A solver that declines a problem's form (active-set on PEG's slack rows:
// Unsupported) hands it on along the chain without an escalation: no warning,
// the island certified by the next solver.
TEST(SolverChain, ADeclineIsNoEscalation) {
  World w = test::load_world("box-stack-3d-offset");  // PEG
  w.set_solver_chain({"active-set", "lemke"});
  CertificationLog log(std::tmpfile());
  w.add_observer(&log);
  int declined = 0;
  for (int i = 0; i < 400; ++i) {
    const StepReport& r = w.step();
    ASSERT_EQ(r.solver_failures, 0) << i;
    EXPECT_EQ(r.escalations, 0) << i;
    for (const IslandReport& island : r.islands)
      if (island.attempts.front().status == SolverStatus::Unsupported) {
        ++declined;
        EXPECT_EQ(island.attempts.size(), 2u);
        EXPECT_TRUE(island.attempts.back().accepted);
      }
  }
  EXPECT_GT(declined, 0) << "no PEG problem reached the chain: the test needs one";
  EXPECT_EQ(log.warnings(), 0);
}

// A box squeezed between a floor and a ceiling it already penetrates: the
// Stewart-Trinkle rows ask it to leave both (psi/h < 0 each way), which no
// impulse can; one contact is a PEG I-constraint. The island fails and is
// recovered by formulating it again with the gaps clamped at zero (the I-
// constraint's p_1 and slack rows read the clamped gaps too), whose solution
// leaves every constraint satisfied at zero relative velocity or better.
TEST(IslandSolver, RecoversAPegIslandWithOpposingPenetrationsByClampingGaps) {
  Model model;
  model.options.gravity = Vec3::Zero();
  model.options.solver = "lemke";
  for (const char* name : {"floor", "ceiling"}) {
    BodyModel fixed;
    fixed.name = name;
    fixed.is_static = true;
    fixed.shape = make_box(Vec3(4, 4, 1));
    model.add_body(fixed);
  }
  BodyModel box;
  box.name = "box";
  box.shape = make_box(Vec3(1, 1, 1));
  box.mass = 1.0;
  box.inertia = Mat3::Identity() / 6.0;
  model.add_body(box);
  State state;
  state.bodies.resize(3);
  state.bodies[2].linear_velocity = Vec3(0.3, 0, 0);
  auto contact = [](std::uint32_t a, const Vec3& point, const Vec3& n, double gap, int feature) {
    Contact c;
    c.body_a = a;
    c.body_b = 2;
    c.features.feature_a = 0;
    c.features.feature_b = feature;
    c.normal = n;
    c.gap = gap;
    c.point_a = point;
    c.point_b = point + gap * n;
    return c;
  };
  ConstraintSet set;
  set.add_unilateral(contact(0, Vec3(0.5, 0.5, -0.5), Vec3::UnitZ(), -0.01, 0), 0.0);
  set.add_unilateral(contact(1, Vec3(0.5, 0.5, 0.5), -Vec3::UnitZ(), -0.01, 1), 0.0);
  // an I-constraint: vertex 2 of the box against the floor's top (primary) and a side plane
  set.contacts.push_back({contact(0, Vec3(-0.5, -0.5, -0.5), Vec3::UnitZ(), -0.02, 2), 0.0});
  set.contacts.push_back({contact(0, Vec3(-0.5, -0.5, -0.5), -Vec3::UnitX(), -0.3, 2), 0.0});
  ContactConstraint i;
  i.kind = ConstraintKind::I;
  i.contacts = {2, 3};
  i.primaries = 1;
  set.constraints.push_back(i);

  IslandSolver solver;
  solver.configure(model);
  std::vector<InverseMass> minv;
  std::vector<Vec6> nu;
  for (std::size_t b = 0; b < 3; ++b) {
    minv.push_back(world_inverse_mass(model.bodies[b], state.bodies[b], Dimension::Spatial));
    nu.push_back(velocity_of(state.bodies[b]));
  }
  std::vector<Vec6> velocity = nu;
  StepReport report;
  report.reset(0);
  solver.solve(model, state, {true, true, false}, set, minv, nu, velocity, report);
  ASSERT_EQ(report.islands.size(), 1u);
  EXPECT_FALSE(report.islands[0].certified);
  EXPECT_TRUE(report.islands[0].recovered);
  EXPECT_EQ(report.solver_recoveries, 1);
  // clamped gaps are 0: each U row's relative normal velocity >= 0, and the
  // I-constraint's largest (eq. 4.1: max_k rho_k >= 0), within the certificate
  const Vec3 v = velocity[2].head<3>(), w = velocity[2].tail<3>();
  auto rho = [&](int c) {
    const Contact& k = set.contacts[c].contact;
    return k.normal.dot(v + w.cross(k.point_b - state.bodies[2].pose.position));
  };
  EXPECT_GE(rho(0), -1e-9);
  EXPECT_GE(rho(1), -1e-9);
  EXPECT_GE(std::max(rho(2), rho(3)), -1e-9);
  EXPECT_TRUE(velocity[2].allFinite());
}

}  // namespace
}  // namespace pegsim
