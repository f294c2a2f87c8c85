// A pegsim scene loaded into MuJoCo 2.2 through robot_mjcf (robot_mjcf.hpp):
// the MJCF written to a temporary file, loaded, the file removed. MuJoCo's
// warnings go to stderr with a "mujoco: warning:" prefix. Shared by the
// robot and grasp-hold benchmarks.
#pragma once

#include "robot_mjcf.hpp"

#include "joints/controllers.hpp"

#include <mujoco/mujoco.h>

#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <stdexcept>
#include <string>
#include <vector>

namespace pegsim::bench {

// A body's index by name, -1 when the model has none.
inline int find_body(const Model& m, const std::string& name) {
  for (std::size_t i = 0; i < m.bodies.size(); ++i)
    if (m.bodies[i].name == name) return static_cast<int>(i);
  return -1;
}

inline void mujoco_warning(const char* message) { std::fprintf(stderr, "mujoco: warning: %s\n", message); }

// The model (the caller frees it with mj_deleteModel); throws std::runtime_error with MuJoCo's message.
inline mjModel* load_mujoco_model(const Model& model, const State& state) {
  mju_user_warning = &mujoco_warning;
  char dir[] = "/tmp/pegsim_mjcf_XXXXXX";
  if (!mkdtemp(dir)) throw std::runtime_error("cannot make a temporary directory");
  const std::string path = std::string(dir) + "/scene.xml";
  std::ofstream(path) << robot_mjcf(model, state);
  char error[1000] = "";
  mjModel* m = mj_loadXML(path.c_str(), nullptr, error, sizeof error);
  std::remove(path.c_str());
  rmdir(dir);
  if (!m) throw std::runtime_error(std::string("mujoco: ") + error);
  return m;
}

// A scene's PD controller on a MuJoCo joint (qpos and dof addresses).
struct MujocoPd {
  PdController law;
  int qadr = 0, dofadr = 0;
};

// Step k's PD efforts into qfrc_applied (added), as World runs them
// (joints/controllers.hpp): on the measured q and v, clamped to the limit.
inline void apply_pd(const std::vector<MujocoPd>& pds, mjData* d, long k, double h) {
  for (const MujocoPd& pd : pds) {
    const PdControllerSpec& c = pd.law.spec();
    const double tau = c.kp * (pd.law.target(d->time, k, h) - d->qpos[pd.qadr]) - c.kd * d->qvel[pd.dofadr];
    d->qfrc_applied[pd.dofadr] += std::clamp(tau, -c.torque_limit, c.torque_limit);
  }
}

}  // namespace pegsim::bench
