// ODE 0.16 (Debian's libode-dev, double precision) behind the PeerEngine
// interface: a dWorld with a dHashSpace; dBox geoms for boxes, dConvex geoms
// (the hull's planes, points and facet loops) for hulls, a body of several
// parts as several geoms on one dBody with offsets, a dPlane for each
// half-space; mass and principal moments from the scene (dMassSetParameters).
// Each step collides the space (up to 8 contact joints a pair, friction
// pyramid dContactApprox1 with the pair's mu) and takes dWorldQuickStep with
// ODE's defaults (20 iterations, world ERP 0.2 and CFM). contacts() is the
// contact joints made.
#include "peer_engine.hpp"

#include <ode/ode.h>

#include <array>
#include <cstdint>
#include <memory>

namespace pegsim::bench {
namespace {

struct OdeLibrary {  // dInitODE2 once per process
  OdeLibrary() { dInitODE2(0); }
  ~OdeLibrary() { dCloseODE(); }
};

// what a dConvex points at (ODE keeps the pointers, not copies)
struct ConvexData {
  std::vector<dReal> planes, points;
  std::vector<unsigned int> polygons;
};

void set_pose(dGeomID geom, const Pose& p) {
  const Quat& q = p.orientation;
  const dQuaternion quat = {q.w(), q.x(), q.y(), q.z()};
  dGeomSetPosition(geom, p.position.x(), p.position.y(), p.position.z());
  dGeomSetQuaternion(geom, quat);
}

class OdeEngine final : public PeerEngine {
 public:
  OdeEngine() { static OdeLibrary library; }
  ~OdeEngine() override { clear(); }
  std::string name() const override { return "ode"; }

  void load(const BenchScene& scene) override {
    clear();
    scene_ = scene;
    world_ = dWorldCreate();
    space_ = dHashSpaceCreate(nullptr);
    group_ = dJointGroupCreate(0);
    dWorldSetGravity(world_, scene.gravity.x(), scene.gravity.y(), scene.gravity.z());
    for (const BenchPlane& p : scene.planes)
      tag(dCreatePlane(space_, p.normal.x(), p.normal.y(), p.normal.z(), p.offset), p.material);
    for (const BenchBody& b : scene.bodies) {
      if (b.is_static) {  // geoms with no body, each at the body's pose composed with its own
        for (const BenchPart& part : parts_of(b)) set_pose(geom(part, b.material), compose(b.pose, offset(part)));
        continue;
      }
      const dBodyID body = dBodyCreate(world_);
      const Vec3 i = b.principal_inertia();
      dMass mass;
      dMassSetParameters(&mass, b.mass, 0, 0, 0, i.x(), i.y(), i.z(), 0, 0, 0);
      dBodySetMass(body, &mass);
      const Quat& q = b.pose.orientation;
      const dQuaternion quat = {q.w(), q.x(), q.y(), q.z()};
      dBodySetPosition(body, b.pose.position.x(), b.pose.position.y(), b.pose.position.z());
      dBodySetQuaternion(body, quat);
      dBodySetLinearVel(body, b.linear_velocity.x(), b.linear_velocity.y(), b.linear_velocity.z());
      dBodySetAngularVel(body, b.angular_velocity.x(), b.angular_velocity.y(), b.angular_velocity.z());
      for (const BenchPart& part : parts_of(b)) {
        const dGeomID g = geom(part, b.material);
        dGeomSetBody(g, body);
        const Pose o = offset(part);
        const dQuaternion oq = {o.orientation.w(), o.orientation.x(), o.orientation.y(), o.orientation.z()};
        dGeomSetOffsetPosition(g, o.position.x(), o.position.y(), o.position.z());
        dGeomSetOffsetQuaternion(g, oq);
      }
      bodies_.push_back(body);
    }
  }

  void step() override {
    contacts_ = 0;
    dSpaceCollide(space_, this, &OdeEngine::near);
    dWorldQuickStep(world_, scene_.h);
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

  void velocities(std::vector<Vec3>& linear, std::vector<Vec3>& angular) const override {
    linear.clear();
    angular.clear();
    for (const dBodyID body : bodies_) {
      const dReal *v = dBodyGetLinearVel(body), *w = dBodyGetAngularVel(body);
      linear.emplace_back(v[0], v[1], v[2]);
      angular.emplace_back(w[0], w[1], w[2]);
    }
  }

  int contacts() const override { return contacts_; }

 private:
  static std::vector<BenchPart> parts_of(const BenchBody& b) {
    if (!b.is_box()) return b.parts;
    BenchPart box;
    box.size = b.size;
    return {box};
  }
  static Pose offset(const BenchPart& part) { return part.kind == BenchPart::Kind::Box ? part.offset : Pose{}; }

  dGeomID tag(dGeomID geom, int material) {
    dGeomSetData(geom, reinterpret_cast<void*>(static_cast<std::intptr_t>(material)));
    return geom;
  }
  static int material_of(dGeomID geom) { return static_cast<int>(reinterpret_cast<std::intptr_t>(dGeomGetData(geom))); }

  dGeomID geom(const BenchPart& part, int material) {
    if (part.kind == BenchPart::Kind::Box)
      return tag(dCreateBox(space_, part.size.x(), part.size.y(), part.size.z()), material);
    auto data = std::make_unique<ConvexData>();
    for (std::size_t f = 0; f < part.faces.size(); ++f) {
      const Vec3& n = part.face_normals[f];
      data->planes.insert(data->planes.end(), {n.x(), n.y(), n.z(), part.face_offsets[f]});
      data->polygons.push_back(static_cast<unsigned int>(part.faces[f].size()));
      for (int v : part.faces[f]) data->polygons.push_back(static_cast<unsigned int>(v));
    }
    for (const Vec3& v : part.vertices) data->points.insert(data->points.end(), {v.x(), v.y(), v.z()});
    const dGeomID g = dCreateConvex(space_, data->planes.data(), static_cast<unsigned int>(part.faces.size()),
                                    data->points.data(), static_cast<unsigned int>(part.vertices.size()),
                                    data->polygons.data());
    convex_.push_back(std::move(data));
    return tag(g, material);
  }

  static void near(void* self, dGeomID a, dGeomID b) {
    auto* engine = static_cast<OdeEngine*>(self);
    const dBodyID body_a = dGeomGetBody(a), body_b = dGeomGetBody(b);
    if (body_a == body_b) return;  // the half-spaces and static bodies, or one body's parts
    std::array<dContact, 8> contact{};
    const int n = dCollide(a, b, static_cast<int>(contact.size()), &contact[0].geom, sizeof(dContact));
    const double mu = engine->scene_.mu_between(material_of(a), material_of(b));
    for (int i = 0; i < n; ++i) {
      contact[i].surface.mode = dContactApprox1;
      contact[i].surface.mu = mu;
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
    convex_.clear();
  }

  BenchScene scene_;
  int contacts_ = 0;
  dWorldID world_ = nullptr;
  dSpaceID space_ = nullptr;
  dJointGroupID group_ = nullptr;
  std::vector<dBodyID> bodies_;
  std::vector<std::unique_ptr<ConvexData>> convex_;
};

}  // namespace

std::unique_ptr<PeerEngine> make_ode_engine() { return std::make_unique<OdeEngine>(); }

}  // namespace pegsim::bench
