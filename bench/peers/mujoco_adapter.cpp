// MuJoCo 2.2 (Debian's libmujoco-dev) behind the PeerEngine interface: the
// scene written as MJCF text (mujoco_mjcf.cpp), loaded through a temporary file
// (mj_loadXML reads files), stepped by mj_step with MuJoCo's defaults (soft
// contacts, pyramidal cones, Newton solver, Euler integrator). contacts() is
// d->ncon.
#include "mujoco_mjcf.hpp"
#include "peer_engine.hpp"

#include <mujoco/mujoco.h>

#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <stdexcept>
#include <string>
#include <vector>

namespace pegsim::bench {
namespace {

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
    for (const BenchBody& b : scene.bodies) {
      if (b.is_static) continue;
      mjtNum* v = data_->qvel + model_->jnt_dofadr[model_->body_jntadr[body++]];
      const Vec3 w = b.pose.orientation.conjugate() * b.angular_velocity;
      for (int k = 0; k < 3; ++k) v[k] = b.linear_velocity[k], v[3 + k] = w[k];
    }
    mj_forward(model_, data_);
    planes_ = scene.planes;
  }

  void step() override { mj_step(model_, data_); }

  void poses(std::vector<Pose>& out) const override {
    out.clear();
    // from qpos (x y z, w x y z): after mj_step, xpos still holds the step's start
    for (int i = 1; i < model_->nbody; ++i) out.push_back(pose_of(i));
  }

  void velocities(std::vector<Vec3>& linear, std::vector<Vec3>& angular) const override {
    linear.clear();
    angular.clear();
    for (int i = 1; i < model_->nbody; ++i) {
      const mjtNum* v = data_->qvel + model_->jnt_dofadr[model_->body_jntadr[i]];
      linear.emplace_back(v[0], v[1], v[2]);
      angular.push_back(pose_of(i).orientation * Vec3(v[3], v[4], v[5]));  // body frame to world
    }
  }

  int contacts() const override { return data_->ncon; }

  // from MuJoCo's own collision (mj_forward's contacts at load): the deepest
  // contact between the body's geoms and the half-space's plane geom; its
  // point lies halfway between the two surfaces
  bool deepest_point(int k, const BenchPlane& plane, Vec3& point, double& depth) const override {
    int plane_geom = -1;
    for (std::size_t i = 0; i < planes_.size(); ++i)
      if (planes_[i].normal == plane.normal && planes_[i].offset == plane.offset) {
        std::string name = "plane";  // mujoco_mjcf.cpp's name (appended piecewise: GCC 12's -Wrestrict)
        name += std::to_string(i);
        plane_geom = mj_name2id(model_, mjOBJ_GEOM, name.c_str());
      }
    bool found = false;
    for (int i = 0; i < data_->ncon; ++i) {
      const mjContact& c = data_->contact[i];
      const int other = c.geom1 == plane_geom ? c.geom2 : c.geom2 == plane_geom ? c.geom1 : -1;
      if (other < 0 || model_->geom_bodyid[other] != k + 1 || (found && -c.dist <= depth)) continue;
      found = true;
      depth = -c.dist;
      point = Vec3(c.pos[0], c.pos[1], c.pos[2]);
    }
    return found;
  }

  std::string warnings() const override {
    const int full = data_->warning[mjWARN_CNSTRFULL].number + data_->warning[mjWARN_CONTACTFULL].number;
    return full > 0 ? "constraint buffer full in " + std::to_string(full) + " steps (contacts dropped)" : "";
  }

 private:
  Pose pose_of(int body) const {
    const mjtNum* q = data_->qpos + model_->jnt_qposadr[model_->body_jntadr[body]];
    Pose pose;
    pose.position = Vec3(q[0], q[1], q[2]);
    pose.orientation = Quat(q[3], q[4], q[5], q[6]).normalized();
    return pose;
  }

  void clear() {
    if (data_) mj_deleteData(data_);
    if (model_) mj_deleteModel(model_);
    data_ = nullptr;
    model_ = nullptr;
  }

  std::vector<BenchPlane> planes_;
  mjModel* model_ = nullptr;
  mjData* data_ = nullptr;
};

}  // namespace

std::unique_ptr<PeerEngine> make_mujoco_engine() { return std::make_unique<MujocoEngine>(); }

}  // namespace pegsim::bench
