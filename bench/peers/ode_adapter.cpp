// ODE 0.16 (Debian's libode-dev, double precision) behind the PeerEngine
// interface: a dWorld with a dHashSpace, dBox geoms, a dPlane ground; each
// step collides the space (up to 8 contact joints a pair, friction pyramid
// dContactApprox1 with mu) and takes dWorldQuickStep with ODE's defaults (20
// iterations, world ERP 0.2 and CFM). contacts() is the contact joints made.
#include "peer_engine.hpp"

#include <ode/ode.h>

#include <array>

namespace pegsim::bench {
namespace {

struct OdeLibrary {  // dInitODE2 once per process
  OdeLibrary() { dInitODE2(0); }
  ~OdeLibrary() { dCloseODE(); }
};

class OdeEngine final : public PeerEngine {
 public:
  OdeEngine() { static OdeLibrary library; }
  ~OdeEngine() override { clear(); }
  std::string name() const override { return "ode"; }

  void load(const BenchScene& scene) override {
    clear();
    h_ = scene.h;
    mu_ = scene.mu;
    world_ = dWorldCreate();
    space_ = dHashSpaceCreate(nullptr);
    group_ = dJointGroupCreate(0);
    dWorldSetGravity(world_, scene.gravity.x(), scene.gravity.y(), scene.gravity.z());
    dCreatePlane(space_, 0, 0, 1, 0);
    for (const BenchBox& b : scene.boxes) {
      const Quat& q = b.pose.orientation;
      const dQuaternion quat = {q.w(), q.x(), q.y(), q.z()};
      const dGeomID geom = dCreateBox(space_, b.size.x(), b.size.y(), b.size.z());
      if (b.is_static) {
        dGeomSetPosition(geom, b.pose.position.x(), b.pose.position.y(), b.pose.position.z());
        dGeomSetQuaternion(geom, quat);
        continue;
      }
      const dBodyID body = dBodyCreate(world_);
      dMass mass;
      dMassSetBoxTotal(&mass, b.mass, b.size.x(), b.size.y(), b.size.z());
      dBodySetMass(body, &mass);
      dBodySetPosition(body, b.pose.position.x(), b.pose.position.y(), b.pose.position.z());
      dBodySetQuaternion(body, quat);
      dBodySetLinearVel(body, b.linear_velocity.x(), b.linear_velocity.y(), b.linear_velocity.z());
      dBodySetAngularVel(body, b.angular_velocity.x(), b.angular_velocity.y(), b.angular_velocity.z());
      dGeomSetBody(geom, body);
      bodies_.push_back(body);
    }
  }

  void step() override {
    contacts_ = 0;
    dSpaceCollide(space_, this, &OdeEngine::near);
    dWorldQuickStep(world_, h_);
    dJointGroupEmpty(group_);
  }

  void poses(std::vector<Pose>& out) const override {
    out.clear();
    for (const dBodyID body : bodies_) {
      const dReal* p = dBodyGetPosition(body);
      const dReal* q = dBodyGetQuaternion(body);
      Pose pose;
      pose.position = Vec3(p[0], p[1], p[2]);
      pose.orientation = Quat(q[0], q[1], q[2], q[3]);
      out.push_back(pose);
    }
  }

  int contacts() const override { return contacts_; }

 private:
  static void near(void* self, dGeomID a, dGeomID b) {
    auto* engine = static_cast<OdeEngine*>(self);
    const dBodyID body_a = dGeomGetBody(a), body_b = dGeomGetBody(b);
    if (!body_a && !body_b) return;  // the ground and the walls
    std::array<dContact, 8> contact{};
    const int n = dCollide(a, b, static_cast<int>(contact.size()), &contact[0].geom, sizeof(dContact));
    for (int i = 0; i < n; ++i) {
      contact[i].surface.mode = dContactApprox1;
      contact[i].surface.mu = engine->mu_;
      const dJointID joint = dJointCreateContact(engine->world_, engine->group_, &contact[i]);
      dJointAttach(joint, body_a, body_b);
    }
    engine->contacts_ += n;
  }

  void clear() {
    if (group_) dJointGroupDestroy(group_);
    if (space_) dSpaceDestroy(space_);  // destroys its geoms (cleanup mode on by default)
    if (world_) dWorldDestroy(world_);  // and its bodies
    group_ = nullptr;
    space_ = nullptr;
    world_ = nullptr;
    bodies_.clear();
  }

  double h_ = 0.005, mu_ = 0.5;
  int contacts_ = 0;
  dWorldID world_ = nullptr;
  dSpaceID space_ = nullptr;
  dJointGroupID group_ = nullptr;
  std::vector<dBodyID> bodies_;
};

}  // namespace

std::unique_ptr<PeerEngine> make_ode_engine() { return std::make_unique<OdeEngine>(); }

}  // namespace pegsim::bench
