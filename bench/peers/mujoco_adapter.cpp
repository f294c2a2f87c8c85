// MuJoCo 2.2 (Debian's libmujoco-dev) behind the PeerEngine interface: the
// scene written as MJCF text (a plane for the ground, each dynamic box a body
// with a free joint and a box geom, walls as world geoms), loaded through a
// temporary file (mj_loadXML reads files), stepped by mj_step with MuJoCo's
// defaults (soft contacts, pyramidal cones, Newton solver, Euler integrator).
// Friction is mu on every geom (MuJoCo takes the pair's maximum). Its
// constraint buffers are sized up front (njmax, nconmax; capped, see below).
// contacts() is d->ncon.
#include "peer_engine.hpp"

#include <mujoco/mujoco.h>

#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <stdexcept>

namespace pegsim::bench {
namespace {

std::string num(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.17g", v);
  return buf;
}
std::string vec(const Vec3& v) { return num(v.x()) + " " + num(v.y()) + " " + num(v.z()); }
std::string quat(const Quat& q) { return num(q.w()) + " " + num(q.x()) + " " + num(q.y()) + " " + num(q.z()); }

// contacts a scene may need: 8 a box (a face on the ground and one on a
// neighbour), 4 rows each (pyramidal cone, condim 3). MuJoCo 2.2 preallocates
// about njmax * nv * 24 + njmax^2 * 12 bytes (efc_J, efc_JT, efc_AR and their
// indices) and cannot make mjData past 2 GB, so njmax is capped to keep that
// near 1.5 GB; a scene that needs more rows gets MuJoCo's "constraint buffer
// full" warning (contacts dropped), which the bench reports.
std::string mjcf(const BenchScene& scene) {
  const int n = static_cast<int>(scene.boxes.size());
  const double nv = 6.0 * scene.dynamic_count();
  const double fit = (-24 * nv + std::sqrt(576 * nv * nv + 48 * 1.5e9)) / 24;
  const int nconmax = 8 * n + 50, njmax = std::min(4 * nconmax, static_cast<int>(fit));
  const std::string friction = "friction=\"" + num(scene.mu) + " 0.005 0.0001\"";
  std::ostringstream x;
  x << "<mujoco model=\"" << scene.name << "\">\n"
    << "  <option timestep=\"" << num(scene.h) << "\" gravity=\"" << vec(scene.gravity) << "\"/>\n"
    << "  <size nconmax=\"" << nconmax << "\" njmax=\"" << njmax << "\"/>\n"
    << "  <worldbody>\n"
    << "    <geom name=\"ground\" type=\"plane\" size=\"0 0 1\" " << friction << "/>\n";
  for (const BenchBox& b : scene.boxes) {
    const std::string geom = "type=\"box\" size=\"" + vec(0.5 * b.size) + "\" " + friction;
    const std::string pose = "pos=\"" + vec(b.pose.position) + "\" quat=\"" + quat(b.pose.orientation) + "\"";
    if (b.is_static) x << "    <geom " << geom << " " << pose << "/>\n";
    else x << "    <body " << pose << "><freejoint/><geom " << geom << " mass=\"" << num(b.mass) << "\"/></body>\n";
  }
  x << "  </worldbody>\n</mujoco>\n";
  return x.str();
}

// MuJoCo's warnings to stderr (its default also appends them to MUJOCO_LOG.TXT
// in the working directory)
void warn(const char* message) { std::fprintf(stderr, "mujoco: warning: %s\n", message); }

class MujocoEngine final : public PeerEngine {
 public:
  MujocoEngine() { mju_user_warning = &warn; }
  ~MujocoEngine() override { clear(); }
  std::string name() const override { return "mujoco"; }

  void load(const BenchScene& scene) override {
    clear();
    char dir[] = "/tmp/pegsim_peers_XXXXXX";
    if (!mkdtemp(dir)) throw std::runtime_error("mujoco: cannot make a temporary directory");
    const std::string path = std::string(dir) + "/scene.xml";
    std::ofstream(path) << mjcf(scene);
    char error[1000] = "";
    model_ = mj_loadXML(path.c_str(), nullptr, error, sizeof error);
    std::remove(path.c_str());
    rmdir(dir);
    if (!model_) throw std::runtime_error(std::string("mujoco: ") + error);
    data_ = mj_makeData(model_);
    // initial velocities: a free joint's qvel is (linear world, angular body frame)
    int body = 1;
    for (const BenchBox& b : scene.boxes) {
      if (b.is_static) continue;
      mjtNum* v = data_->qvel + model_->jnt_dofadr[model_->body_jntadr[body++]];
      const Vec3 w = b.pose.orientation.conjugate() * b.angular_velocity;
      for (int k = 0; k < 3; ++k) v[k] = b.linear_velocity[k], v[3 + k] = w[k];
    }
    mj_forward(model_, data_);
  }

  void step() override { mj_step(model_, data_); }

  void poses(std::vector<Pose>& out) const override {
    out.clear();
    // from qpos (x y z, w x y z): after mj_step, xpos still holds the step's start
    for (int i = 1; i < model_->nbody; ++i) {
      const mjtNum* q = data_->qpos + model_->jnt_qposadr[model_->body_jntadr[i]];
      Pose pose;
      pose.position = Vec3(q[0], q[1], q[2]);
      pose.orientation = Quat(q[3], q[4], q[5], q[6]).normalized();
      out.push_back(pose);
    }
  }

  int contacts() const override { return data_->ncon; }

  std::string warnings() const override {
    const int full = data_->warning[mjWARN_CNSTRFULL].number + data_->warning[mjWARN_CONTACTFULL].number;
    return full > 0 ? "constraint buffer full in " + std::to_string(full) + " steps (contacts dropped)" : "";
  }

 private:
  void clear() {
    if (data_) mj_deleteData(data_);
    if (model_) mj_deleteModel(model_);
    data_ = nullptr;
    model_ = nullptr;
  }

  mjModel* model_ = nullptr;
  mjData* data_ = nullptr;
};

}  // namespace

std::unique_ptr<PeerEngine> make_mujoco_engine() { return std::make_unique<MujocoEngine>(); }

}  // namespace pegsim::bench
