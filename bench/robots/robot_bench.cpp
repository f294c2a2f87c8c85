// pegsim_robot_bench (issue 13's speed benchmark): the shipped 7-DOF arm
// (data/robots/arm7.urdf) in free motion, and with its gripper holding a ball
// and a box (scenes/arm7-grasp-ball.yaml, arm7-grasp-box.yaml), stepped in pegsim and, in the same run, in
// MuJoCo 2.2 (Debian's libmujoco-dev) loading the same robot written as MJCF
// (robot_mjcf.hpp). Both run the scene's PD controllers (MuJoCo's through
// qfrc_applied, computed the same way each step, inside the timed loop) at the
// same h with their own defaults otherwise (pegsim: PEG, Lemke; MuJoCo: soft
// contact, pyramidal cone, Newton, Euler). Prints per case and engine the time
// per step, steps per second, mean contacts, the shoulder's tracking error and,
// holding, the object's drift in the pad's frame; then pegsim's time over MuJoCo's
// and the largest difference of the two engines' joint angles (free motion:
// the same semi-implicit Euler step on the same model, so round-off; an
// independent check of pegsim's CRBA / RNEA tree dynamics).
// docs/performance.md, "Robots", has a run.
//
//   build/bench/pegsim_robot_bench [--time SECONDS] [--repeat N] [--root REPOSITORY] [--mjcf PREFIX] [--check]
//   (from the repository root; --mjcf also writes the MJCF MuJoCo loads; --check: exit 1 unless
//   the engines' free motions agree to round-off, the test suite's run)
#include "mujoco_model.hpp"

#include "io/scene.hpp"
#include "joints/controllers.hpp"
#include "sim/world.hpp"

#include <CLI/CLI.hpp>
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <memory>
#include <string>
#include <vector>

namespace pegsim::bench {
namespace {

struct Case {
  std::string name;
  Scene scene;
  std::string object;  // the body held (its drift in the pad is measured); empty: none
};

struct Result {
  double seconds_per_step = 0.0, contacts = 0.0, tracking = 0.0, drift = -1.0;
  long steps = 0;
  std::vector<double> joints;  // the tree's 1-dof joint angles after every step, one row per step
};

std::string repo = ".";  // --root: where scenes/ and data/ are

// free motion: the arm alone, the grasp scene's arm controllers (its shoulder on sin(t)/4, sin(2t)/4)
Case free_motion() {
  const std::string grasp = repo + "/scenes/arm7-grasp-ball.yaml";
  std::ifstream in(grasp);
  std::string controllers, line;
  while (std::getline(in, line))
    if (line.find("{robot: arm, joint:") != std::string::npos && line.find("finger") == std::string::npos)
      controllers += line + "\n";
  const std::string text =
      "options: {name: arm7-free, h: 0.001}\n"
      "bodies:\n  - {name: marker, static: true, shape: {box: [0.01, 0.01, 0.01]}, position: [0, 0, -5]}\n"
      "robots:\n  - {name: arm, urdf: " + repo + "/data/robots/arm7.urdf, joint_velocities: {shoulder_yaw: 0.25, "
      "shoulder_pitch: 0.5}}\ncontrollers:\n" + controllers;
  return {"arm7, free motion", load_scene_string(text, "arm7-free"), ""};
}

double shoulder_error(double t, double yaw, double pitch) {
  return std::max(std::abs(yaw - std::sin(t) / 4), std::abs(pitch - std::sin(2 * t) / 4));
}


Result run_pegsim(const Case& c, long steps) {
  const Scene& s = c.scene;
  World world(s.model, s.state);
  const int ball = c.object.empty() ? -1 : find_body(world.model(), c.object), pad = find_body(world.model(), "arm/left_pad");
  auto in_pad = [&] { return world.state().bodies[pad].pose.to_body(world.state().bodies[ball].pose.position); };
  const Vec3 start = ball >= 0 && pad >= 0 ? in_pad() : Vec3::Zero();
  Result r;
  double clock = 0.0;
  for (long k = 0; k < steps; ++k) {
    const auto t0 = std::chrono::steady_clock::now();
    const StepReport& rep = world.step();
    clock += std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    r.contacts += rep.contacts_found;
    const VecX& q = world.state().trees[0].q;
    r.joints.insert(r.joints.end(), q.data(), q.data() + q.size());
    r.tracking = std::max(r.tracking, shoulder_error(world.state().time, q(0), q(1)));
    if (ball >= 0 && pad >= 0) r.drift = std::max(r.drift, (in_pad() - start).norm());
  }
  r.steps = steps;
  r.seconds_per_step = clock / static_cast<double>(steps);
  r.contacts /= static_cast<double>(steps);
  return r;
}

Result run_mujoco(const Case& c, long steps) {
  const Scene& s = c.scene;
  mjModel* m = load_mujoco_model(s.model, s.state);
  mjData* d = mj_makeData(m);
  // the state: each tree joint's q and v, each loose body's pose and velocity
  const articulated::ArticulatedTree& tree = s.model.trees.at(0).tree;
  auto named = [](const char* prefix, int k) {  // snprintf: GCC 12 warns falsely (-Wrestrict) on "literal" + std::to_string
    char buf[32];
    std::snprintf(buf, sizeof buf, "%s%d", prefix, k);
    return std::string(buf);
  };
  auto joint_id = [&](int link) { return mj_name2id(m, mjOBJ_JOINT, named("t0_", link).c_str()); };
  for (int i = 0; i < tree.link_count(); ++i) {
    if (tree.link(i).nv() != 1) continue;
    const int j = joint_id(i);
    d->qpos[m->jnt_qposadr[j]] = s.state.trees[0].q(tree.link(i).q_index);
    d->qvel[m->jnt_dofadr[j]] = s.state.trees[0].v(tree.link(i).v_index);
  }
  const int ball = c.object.empty() ? -1 : find_body(s.model, c.object);
  int ball_body = -1, pad_body = -1;
  if (ball >= 0) {
    const BodyState& b = s.state.bodies[static_cast<std::size_t>(ball)];
    const int j = mj_name2id(m, mjOBJ_JOINT, named("b", ball).c_str());
    mjtNum* q = d->qpos + m->jnt_qposadr[j];
    mjtNum* v = d->qvel + m->jnt_dofadr[j];
    const Vec3 w = b.pose.orientation.conjugate() * b.angular_velocity;  // a free joint's angular velocity: body frame
    for (int k = 0; k < 3; ++k) q[k] = b.pose.position[k], v[k] = b.linear_velocity[k], v[3 + k] = w[k];
    q[3] = b.pose.orientation.w(), q[4] = b.pose.orientation.x(), q[5] = b.pose.orientation.y(), q[6] = b.pose.orientation.z();
    ball_body = mj_name2id(m, mjOBJ_BODY, named("b", ball).c_str());
    if (const int pad = tree.find_link("left_pad"); pad >= 0)
      pad_body = mj_name2id(m, mjOBJ_BODY, named("t0_", pad).c_str());
  }
  // the scene's PD controllers, as World runs them (joints/controllers.hpp): on the measurement, clamped
  std::vector<MujocoPd> pds;
  for (const PdControllerSpec& spec : s.model.controllers) {
    const int j = joint_id(spec.joint);
    pds.push_back({PdController(s.model, spec), m->jnt_qposadr[j], m->jnt_dofadr[j]});
  }
  const int yaw = m->jnt_qposadr[joint_id(tree.find_link("link1"))];
  const int pitch = m->jnt_qposadr[joint_id(tree.find_link("link2"))];
  mj_forward(m, d);
  auto in_pad = [&] {
    const Mat3 R = Eigen::Map<const Eigen::Matrix<mjtNum, 3, 3, Eigen::RowMajor>>(d->xmat + 9 * pad_body);
    const Vec3 ball_at(d->xpos[3 * ball_body], d->xpos[3 * ball_body + 1], d->xpos[3 * ball_body + 2]);
    const Vec3 pad_at(d->xpos[3 * pad_body], d->xpos[3 * pad_body + 1], d->xpos[3 * pad_body + 2]);
    return Vec3(R.transpose() * (ball_at - pad_at));
  };
  const bool holding = ball_body >= 0 && pad_body >= 0;
  const Vec3 start = holding ? in_pad() : Vec3::Zero();
  const double h = s.model.options.h;
  Result r;
  double clock = 0.0;
  for (long k = 0; k < steps; ++k) {
    const auto t0 = std::chrono::steady_clock::now();
    mju_zero(d->qfrc_applied, m->nv);
    apply_pd(pds, d, k, h);
    mj_step(m, d);
    clock += std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    r.contacts += d->ncon;
    for (int i = 0; i < tree.link_count(); ++i)
      if (tree.link(i).nv() == 1) r.joints.push_back(d->qpos[m->jnt_qposadr[joint_id(i)]]);
    r.tracking = std::max(r.tracking, shoulder_error(d->time, d->qpos[yaw], d->qpos[pitch]));
    if (holding && (k % 10 == 9 || k + 1 == steps)) {  // positions at the step's end (mj_step leaves xpos at its start)
      mj_kinematics(m, d);
      r.drift = std::max(r.drift, (in_pad() - start).norm());
    }
  }
  mj_deleteData(d);
  mj_deleteModel(m);
  r.steps = steps;
  r.seconds_per_step = clock / static_cast<double>(steps);
  r.contacts /= static_cast<double>(steps);
  return r;
}

void print(const std::string& engine, const Result& r) {
  std::printf("  %-8s %9.1f us/step %10.0f steps/s  contacts %5.2f  shoulder tracking %.2e rad", engine.c_str(),
              1e6 * r.seconds_per_step, 1.0 / r.seconds_per_step, r.contacts, r.tracking);
  if (r.drift >= 0.0) std::printf("  drift in the pad %.2e m", r.drift);
  std::printf("\n");
}

}  // namespace
}  // namespace pegsim::bench

int main(int argc, char** argv) {
  using namespace pegsim::bench;  // NOLINT
  CLI::App app{"pegsim_robot_bench: the 7-DOF arm in pegsim and MuJoCo, steps per second"};
  double seconds = 5.0;
  int repeat = 3;
  app.add_option("--time", seconds, "simulated seconds per run")->check(CLI::Range(0.01, 1000.0));
  app.add_option("--root", repo, "the repository (scenes/, data/robots/)");
  bool check = false;
  app.add_flag("--check", check, "exit 1 unless the two engines' free-motion joint angles agree within 1e-9 rad");
  std::string mjcf_prefix;
  app.add_option("--mjcf", mjcf_prefix, "also write each case's MJCF to PREFIX<case>.xml");
  app.add_option("--repeat", repeat, "runs per engine and case, alternating; the fastest is reported")->check(CLI::Range(1, 100));
  CLI11_PARSE(app, argc, argv);
  std::vector<Case> cases;
  try {
  cases.push_back(free_motion());
  cases.push_back({"arm7 with gripper, holding a ball", pegsim::load_scene_file(repo + "/scenes/arm7-grasp-ball.yaml"), "ball"});
  cases.push_back({"arm7 with gripper, holding a box", pegsim::load_scene_file(repo + "/scenes/arm7-grasp-box.yaml"), "box"});
  for (std::size_t k = 0; k < cases.size() && !mjcf_prefix.empty(); ++k)
    std::ofstream(mjcf_prefix + std::to_string(k) + ".xml") << robot_mjcf(cases[k].scene.model, cases[k].scene.state);
  for (const Case& c : cases) {
    const long steps = std::lround(seconds / c.scene.model.options.h);
    Result best_p, best_m;
    best_p.seconds_per_step = best_m.seconds_per_step = 1e300;
    for (int k = 0; k < repeat; ++k) {  // alternating, so a busy moment of the machine hits both
      const Result p = run_pegsim(c, steps), m = run_mujoco(c, steps);
      if (p.seconds_per_step < best_p.seconds_per_step) best_p = p;
      if (m.seconds_per_step < best_m.seconds_per_step) best_m = m;
    }
    std::printf("%s: %ld steps of %g s (fastest of %d runs each)\n", c.name.c_str(), steps, c.scene.model.options.h, repeat);
    print("pegsim", best_p);
    print("mujoco", best_m);
    std::printf("  pegsim / mujoco time per step: %.2f\n", best_p.seconds_per_step / best_m.seconds_per_step);
    // the two engines' joint angles, step by step (same model, same controllers, both semi-implicit
    // Euler in joint space): they agree to round-off until contact, where the contact models differ
    double apart = 0.0;
    for (std::size_t i = 0; i < best_p.joints.size() && i < best_m.joints.size(); ++i)
      apart = std::max(apart, std::abs(best_p.joints[i] - best_m.joints[i]));
    std::printf("  largest joint-angle difference pegsim - mujoco over the run: %.2e rad\n", apart);
    // free motion: the same arithmetic up to the order of round-off (measured 3e-17 rad over 2000 steps)
    if (check && &c == &cases.front() && !(apart < 1e-9)) {
      std::printf("FAILED: the engines' free motions differ by %.2e rad (more than 1e-9)\n", apart);
      return 1;
    }
  }
  } catch (const std::exception& e) {
    std::fprintf(stderr, "pegsim_robot_bench: error: %s\n", e.what());
    return 1;
  }
  return 0;
}
