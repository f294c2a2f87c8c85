// pegsim_grasp_hold_bench (issue 12's "a grasp held for 30 s: zero creep of
// the object in the fingers, where MuJoCo's soft contact creeps"): the
// scenes/grasp-hold.yaml gripper (a palm on a prismatic joint to the world,
// two fingers on prismatic joints to the palm, maximal coordinates in pegsim)
// lifts a cube and holds it; the same scene in MuJoCo 2.2.2 (Debian's
// libmujoco-dev), the joints written as nested bodies with slides
// (robot_mjcf.hpp), at the scene's h and at MuJoCo's default 0.002 s.
// Both run the scene's controllers: the palm's PD through qfrc_applied,
// computed as World does (joints/controllers.hpp); each finger's motor (a
// velocity target with a force bound, a bounded row of pegsim's problem) as
// the force that would reach the target velocity within the step,
// M_jj (v_target - v) / h, clamped to the bound: once the jaws are closed,
// both squeeze with the bound. Prints per engine the time per step, the
// cube's height at the end and its creep: the largest distance of its centre,
// in each finger's frame, from where it was at --settle seconds (the measure
// of docs/experiments.md, "grasp-hold").
//
//   build/bench/pegsim_grasp_hold_bench [--time SECONDS] [--settle SECONDS] [--root REPOSITORY] [--check]
//   (--check: exit 1 unless pegsim and MuJoCo at h = 0.002 lift the cube above
//   0.12 m: the test suite's run, a check of the conversion. At the scene's
//   h = 0.01 MuJoCo's default contact time constant, 0.02 s, is 2 h, the
//   softest it allows, and its cube slides out of the jaws.)
#include "mujoco_model.hpp"

#include "io/scene.hpp"
#include "joints/controllers.hpp"
#include "sim/world.hpp"

#include <CLI/CLI.hpp>
#include <algorithm>
#include <array>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

namespace pegsim::bench {
namespace {

struct Run {
  std::string engine;
  double h = 0.0, seconds_per_step = 0.0, height = 0.0, creep = 0.0;
};

int body_index(const Model& m, const std::string& name) {
  const int b = find_body(m, name);
  if (b < 0) throw std::runtime_error("grasp-hold has no body '" + name + "'");
  return b;
}

// The creep tracker: the cube's centre in each finger's frame, from `settle` on.
struct Creep {
  double settle = 1.5, largest = 0.0;
  bool started = false;
  std::array<Vec3, 2> start{};
  void add(double t, const std::array<Vec3, 2>& in_fingers) {
    if (t + 1e-12 < settle) return;
    if (!started) start = in_fingers, started = true;
    for (int f = 0; f < 2; ++f) largest = std::max(largest, (in_fingers[f] - start[f]).norm());
  }
};

Run run_pegsim(const Scene& s, double seconds, double settle) {
  World world(s.model, s.state);
  const int cube = body_index(world.model(), "cube");
  const std::array<int, 2> finger = {body_index(world.model(), "finger_left"), body_index(world.model(), "finger_right")};
  Creep creep{settle};
  const double h = s.model.options.h;
  const long steps = std::lround(seconds / h);
  double clock = 0.0;
  for (long k = 0; k < steps; ++k) {
    const auto t0 = std::chrono::steady_clock::now();
    world.step();
    clock += std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    const State& st = world.state();
    creep.add(st.time, {st.bodies[finger[0]].pose.to_body(st.bodies[cube].pose.position),
                        st.bodies[finger[1]].pose.to_body(st.bodies[cube].pose.position)});
  }
  return {"pegsim", h, clock / static_cast<double>(steps), world.state().bodies[cube].pose.position.z(), creep.largest};
}

Run run_mujoco(const Scene& s, double h, double seconds, double settle) {
  mjModel* m = load_mujoco_model(s.model, s.state);
  m->opt.timestep = h;
  mjData* d = mj_makeData(m);
  auto body_id = [&](const std::string& name) {
    char id[32];
    std::snprintf(id, sizeof id, "b%d", body_index(s.model, name));
    return mj_name2id(m, mjOBJ_BODY, id);
  };
  const int cube = body_id("cube");
  const std::array<int, 2> finger = {body_id("finger_left"), body_id("finger_right")};
  std::vector<MujocoPd> pds;
  for (const PdControllerSpec& spec : s.model.controllers) {
    const int j = mj_name2id(m, mjOBJ_JOINT, s.model.joints.at(static_cast<std::size_t>(spec.joint)).name.c_str());
    pds.push_back({PdController(s.model, spec), m->jnt_qposadr[j], m->jnt_dofadr[j]});
  }
  struct Motor {
    JointMotor motor;
    int dofadr;
  };
  std::vector<Motor> motors;
  for (const JointModel& jm : s.model.joints)
    if (jm.motor.enabled) motors.push_back({jm.motor, m->jnt_dofadr[mj_name2id(m, mjOBJ_JOINT, jm.name.c_str())]});
  auto in_finger = [&](int f) {
    const Mat3 R = Eigen::Map<const Eigen::Matrix<mjtNum, 3, 3, Eigen::RowMajor>>(d->xmat + 9 * f);
    const Vec3 c(d->xpos[3 * cube], d->xpos[3 * cube + 1], d->xpos[3 * cube + 2]);
    const Vec3 p(d->xpos[3 * f], d->xpos[3 * f + 1], d->xpos[3 * f + 2]);
    return Vec3(R.transpose() * (c - p));
  };
  mj_forward(m, d);
  Creep creep{settle};
  const long steps = std::lround(seconds / h);
  double clock = 0.0;
  for (long k = 0; k < steps; ++k) {
    const auto t0 = std::chrono::steady_clock::now();
    mju_zero(d->qfrc_applied, m->nv);
    apply_pd(pds, d, k, h);
    for (const Motor& mo : motors) {  // M_jj from the last step's mass matrix (mj_step's forward pass)
      const double mass = d->qM[m->dof_Madr[mo.dofadr]];
      const double f = mass * (mo.motor.velocity - d->qvel[mo.dofadr]) / h;
      d->qfrc_applied[mo.dofadr] += std::clamp(f, -mo.motor.max_force, mo.motor.max_force);
    }
    mj_step(m, d);
    clock += std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    mj_kinematics(m, d);  // positions at the step's end (mj_step leaves xpos at its start)
    creep.add(d->time, {in_finger(finger[0]), in_finger(finger[1])});
  }
  const Run r{"mujoco", h, clock / static_cast<double>(steps), d->xpos[3 * cube + 2], creep.largest};
  mj_deleteData(d);
  mj_deleteModel(m);
  return r;
}

}  // namespace
}  // namespace pegsim::bench

int main(int argc, char** argv) {
  using namespace pegsim::bench;  // NOLINT
  CLI::App app{"pegsim_grasp_hold_bench: scenes/grasp-hold.yaml held in pegsim and MuJoCo; the cube's creep"};
  double seconds = 30.0, settle = 1.5;
  std::string repo = ".";
  bool check = false;
  app.add_option("--time", seconds, "simulated seconds")->check(CLI::Range(0.1, 1000.0));
  app.add_option("--settle", settle, "creep measured from this time on (s)")->check(CLI::Range(0.0, 1000.0));
  app.add_option("--root", repo, "the repository (scenes/)");
  app.add_flag("--check", check, "exit 1 unless pegsim and MuJoCo at h = 0.002 lift the cube above 0.12 m");
  CLI11_PARSE(app, argc, argv);
  try {
    const pegsim::Scene s = pegsim::load_scene_file(repo + "/scenes/grasp-hold.yaml");
    std::vector<Run> runs = {run_pegsim(s, seconds, settle), run_mujoco(s, s.model.options.h, seconds, settle),
                             run_mujoco(s, 0.002, seconds, settle)};
    std::printf("grasp-hold, %g s; creep: the cube's centre in the fingers' frames, largest distance from t = %g s\n",
                seconds, settle);
    bool lifted = true;
    for (const Run& r : runs) {
      std::printf("  %-7s h = %-6g %8.1f us/step  cube at z = %.4f m  creep %.2e m\n", r.engine.c_str(), r.h,
                  1e6 * r.seconds_per_step, r.height, r.creep);
      if (r.engine == "pegsim" || r.h == 0.002) lifted = lifted && r.height > 0.12;
    }
    if (check && !lifted) {
      std::printf("FAILED: pegsim or MuJoCo at h = 0.002 did not lift the cube above 0.12 m\n");
      return 1;
    }
  } catch (const std::exception& e) {
    std::fprintf(stderr, "pegsim_grasp_hold_bench: error: %s\n", e.what());
    return 1;
  }
  return 0;
}
