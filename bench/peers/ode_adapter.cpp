// ODE 0.16 (Debian's libode-dev, double precision) behind the PeerEngine
// interface: a dWorld with a dHashSpace; dBox geoms for boxes, dConvex geoms
// (the hull's planes, points and facet loops) for hulls, dSphere, dCapsule
// (its length: the core segment) and dCylinder (its length: the height) for
// the round kinds, axis z as ours; ODE has no cone, so a cone is the dConvex
// of cone_hull's 32-sided hull. A body of several
// parts as several geoms on one dBody with offsets, a dPlane for each
// half-space; mass and principal moments from the scene (dMassSetParameters).
// Each step collides the space (up to 8 contact joints a pair, friction
// pyramid dContactApprox1 with the pair's mu) and takes dWorldQuickStep with
// ODE's defaults (20 iterations, world ERP 0.2 and CFM). contacts() is the
// contact joints made. Cylinders meet cylinders and convex hulls only through
// libccd; an ODE built without it (found by trying) says so (unsupported).
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
      planes_.push_back(tag(dCreatePlane(space_, p.normal.x(), p.normal.y(), p.normal.z(), p.offset), p.material));
    for (const BenchBody& b : scene.bodies) {
      if (b.is_static) {  // geoms with no body, each at the body's pose composed with its own
        for (const BenchPart& part : parts_of(b)) set_pose(geom(part, b.material), compose(b.pose, offset(part)));
        continue;
      }
      const dBodyID body = dBodyCreate(world_);
      geoms_.emplace_back();
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
        geoms_.back().push_back(g);
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

  // from ODE's own colliders: the deepest of the contacts dCollide finds
  // between the body's geoms and the half-space's dPlane (up to 8 a geom)
  bool deepest_point(int k, const BenchPlane& plane, Vec3& point, double& depth) const override {
    dGeomID plane_geom = nullptr;
    for (std::size_t i = 0; i < scene_.planes.size(); ++i)
      if (scene_.planes[i].normal == plane.normal && scene_.planes[i].offset == plane.offset) plane_geom = planes_[i];
    if (!plane_geom) return false;
    bool found = false;
    for (const dGeomID g : geoms_[static_cast<std::size_t>(k)]) {
      std::array<dContactGeom, 8> contact{};
      const int n = dCollide(g, plane_geom, static_cast<int>(contact.size()), &contact[0], sizeof(dContactGeom));
      for (int i = 0; i < n; ++i)
        if (!found || contact[i].depth > depth) {
          found = true;
          depth = contact[i].depth;
          point = Vec3(contact[i].pos[0], contact[i].pos[1], contact[i].pos[2]);
        }
    }
    return found;
  }

  std::string unsupported(const BenchScene& scene) const override {
    if (collides_cylinders()) return "";
    int cylinders = 0, convex = 0;  // cylinder parts; hull and cone parts (dConvex)
    for (const BenchBody& b : scene.bodies)
      for (const BenchPart& part : b.parts) {
        cylinders += part.kind == BenchPart::Kind::Cylinder;
        convex += part.kind == BenchPart::Kind::Hull || part.kind == BenchPart::Kind::Cone;
      }
    if (cylinders > 0 && cylinders + convex > 1)
      return "cylinders next to cylinders, convex hulls or cones, which this ODE (built without libccd) cannot collide";
    return "";
  }

 private:
  static std::vector<BenchPart> parts_of(const BenchBody& b) {
    if (!b.is_box()) return b.parts;
    BenchPart box;
    box.size = b.size;
    return {box};
  }
  // a geom's place in the body frame: a dConvex's points are in the body frame already
  static Pose offset(const BenchPart& part) {
    return part.kind == BenchPart::Kind::Hull || part.kind == BenchPart::Kind::Cone ? Pose{} : part.offset;
  }

  // whether this ODE collides a cylinder with a cylinder and with a dConvex
  // (libccd's, which Debian's build has without saying so in
  // dGetConfiguration): two overlapping pairs, tried once
  static bool collides_cylinders() {
    static const bool collides = [] {
      // a unit cube as a dConvex: its planes, corners and facet loops (counter-clockwise from outside)
      static const dReal planes[] = {1, 0, 0, 0.5, -1, 0, 0, 0.5, 0, 1, 0, 0.5, 0, -1, 0, 0.5, 0, 0, 1, 0.5, 0, 0, -1, 0.5};
      static dReal points[24];
      for (int i = 0; i < 8; ++i)
        for (int k = 0; k < 3; ++k) points[3 * i + k] = (i >> k & 1) ? 0.5 : -0.5;
      static const unsigned int polygons[] = {4, 1, 3, 7, 5, 4, 0, 4, 6, 2, 4, 2, 6, 7, 3,
                                              4, 0, 1, 5, 4, 4, 4, 5, 7, 6, 4, 0, 2, 3, 1};
      const dGeomID a = dCreateCylinder(nullptr, 0.5, 1.0), b = dCreateCylinder(nullptr, 0.5, 1.0);
      const dGeomID cube = dCreateConvex(nullptr, planes, 6, points, 8, polygons);
      dGeomSetPosition(b, 0.3, 0.0, 0.2);
      dGeomSetPosition(cube, 0.3, 0.0, 0.2);
      std::array<dContactGeom, 4> contact{};
      const bool both = dCollide(a, b, 4, &contact[0], sizeof(dContactGeom)) > 0 &&
                        dCollide(a, cube, 4, &contact[0], sizeof(dContactGeom)) > 0;
      dGeomDestroy(a);
      dGeomDestroy(b);
      dGeomDestroy(cube);
      return both;
    }();
    return collides;
  }

  dGeomID tag(dGeomID geom, int material) {
    dGeomSetData(geom, reinterpret_cast<void*>(static_cast<std::intptr_t>(material)));
    return geom;
  }
  static int material_of(dGeomID geom) { return static_cast<int>(reinterpret_cast<std::intptr_t>(dGeomGetData(geom))); }

  dGeomID geom(const BenchPart& given, int material) {
    switch (given.kind) {
      case BenchPart::Kind::Box:
        return tag(dCreateBox(space_, given.size.x(), given.size.y(), given.size.z()), material);
      case BenchPart::Kind::Sphere:
        return tag(dCreateSphere(space_, given.radius), material);
      case BenchPart::Kind::Capsule:
        return tag(dCreateCapsule(space_, given.radius, given.length), material);
      case BenchPart::Kind::Cylinder:
        return tag(dCreateCylinder(space_, given.radius, given.length), material);
      case BenchPart::Kind::Hull:
      case BenchPart::Kind::Cone:
        break;
    }
    const BenchPart part = given.kind == BenchPart::Kind::Cone ? cone_hull(given) : given;
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
    geoms_.clear();
    planes_.clear();
    convex_.clear();
  }

  BenchScene scene_;
  int contacts_ = 0;
  dWorldID world_ = nullptr;
  dSpaceID space_ = nullptr;
  dJointGroupID group_ = nullptr;
  std::vector<dBodyID> bodies_;
  std::vector<std::vector<dGeomID>> geoms_;  // per dynamic body
  std::vector<dGeomID> planes_;              // per half-space
  std::vector<std::unique_ptr<ConvexData>> convex_;
};

}  // namespace

std::unique_ptr<PeerEngine> make_ode_engine() { return std::make_unique<OdeEngine>(); }

}  // namespace pegsim::bench
