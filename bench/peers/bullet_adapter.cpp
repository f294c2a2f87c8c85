// Bullet 3 (Debian's libbullet-dev, its double-precision build) behind the
// PeerEngine interface: a btDiscreteDynamicsWorld with the sequential impulse
// solver and its default settings, one fixed step of h per step()
// (stepSimulation(h, 0)). Shapes: btBoxShape boxes (default collision margin,
// inside the box), btConvexHullShape hulls, btSphereShape, btCapsuleShapeZ,
// btCylinderShapeZ and btConeShapeZ (axis z, as ours; the cylinder and cone
// with no margin: sharp rims, as ours; part_shape says why), btCompoundShape for a body of
// several parts, btStaticPlaneShape half-spaces. A hull's margin lies outside
// its points, so each hull is first shrunk by the margin
// (btConvexHullComputer, the way Bullet's own convex-decomposition demo
// does): the rounded shape then has the hull's size. Mass properties are the
// scene's (principal moments), not Bullet's estimates. Friction per pair comes
// from the scene's table through gCalculateCombinedFrictionCallback (Bullet's
// own rule multiplies two per-body values). Sleeping is switched off, as no
// other engine here sleeps. contacts() is the contact points of all manifolds.
#include "peer_engine.hpp"

#include <LinearMath/btConvexHullComputer.h>
#include <btBulletDynamicsCommon.h>

namespace pegsim::bench {
namespace {

btVector3 bt(const Vec3& v) { return btVector3(v.x(), v.y(), v.z()); }
btTransform bt(const Pose& p) {
  const Quat& q = p.orientation;
  return btTransform(btQuaternion(q.x(), q.y(), q.z(), q.w()), bt(p.position));
}

// Bullet's margin for convex shapes (CONVEX_DISTANCE_MARGIN), at most a quarter
// of a hull's inner radius (btConvexHullComputer's shrink clamp)
constexpr double kMargin = 0.04, kMarginClamp = 0.25;

// every contact point asks for the pair's coefficient: both objects point at the scene
btScalar pair_friction(const btCollisionObject* a, const btCollisionObject* b) {
  const auto* scene = static_cast<const BenchScene*>(a->getUserPointer());
  return scene->mu_between(a->getUserIndex(), b->getUserIndex());
}

// the farthest point along world direction d of a shape at world transform t, by Bullet's own support mapping
btVector3 support_point(const btCollisionShape* shape, const btTransform& t, const btVector3& d) {
  if (shape->isCompound()) {
    const auto* compound = static_cast<const btCompoundShape*>(shape);
    btVector3 best;
    for (int i = 0; i < compound->getNumChildShapes(); ++i) {
      const btVector3 p = support_point(compound->getChildShape(i), t * compound->getChildTransform(i), d);
      if (i == 0 || p.dot(d) > best.dot(d)) best = p;
    }
    return best;
  }
  // d * basis: the direction in the shape's frame (basis transposed times d)
  return t(static_cast<const btConvexShape*>(shape)->localGetSupportingVertex(d * t.getBasis()));
}

class BulletEngine final : public PeerEngine {
 public:
  ~BulletEngine() override { clear(); }
  std::string name() const override { return "bullet"; }

  void load(const BenchScene& scene) override {
    clear();
    scene_ = scene;
    config_ = std::make_unique<btDefaultCollisionConfiguration>();
    dispatcher_ = std::make_unique<btCollisionDispatcher>(config_.get());
    broadphase_ = std::make_unique<btDbvtBroadphase>();
    solver_ = std::make_unique<btSequentialImpulseConstraintSolver>();
    world_ = std::make_unique<btDiscreteDynamicsWorld>(dispatcher_.get(), broadphase_.get(), solver_.get(),
                                                       config_.get());
    world_->setGravity(bt(scene_.gravity));
    previous_friction_ = gCalculateCombinedFrictionCallback;
    gCalculateCombinedFrictionCallback = &pair_friction;

    for (const BenchPlane& plane : scene_.planes) add(new btStaticPlaneShape(bt(plane.normal), plane.offset), 0.0,
                                                       btVector3(0, 0, 0), btTransform::getIdentity(), plane.material);
    for (const BenchBody& b : scene_.bodies) {
      const double mass = b.is_static ? 0.0 : b.mass;
      const btVector3 inertia = b.is_static ? btVector3(0, 0, 0) : bt(b.principal_inertia());
      btRigidBody* body = add(shape_of(b), mass, inertia, bt(b.pose), b.material);
      if (b.is_static) continue;
      body->setLinearVelocity(bt(b.linear_velocity));
      body->setAngularVelocity(bt(b.angular_velocity));
      dynamic_.push_back(body);
    }
  }

  void step() override { world_->stepSimulation(scene_.h, 0); }

  void poses(std::vector<Pose>& out) const override {
    out.clear();
    for (const btRigidBody* body : dynamic_) {
      const btTransform& t = body->getCenterOfMassTransform();
      const btQuaternion q = t.getRotation();
      Pose p;
      p.position = Vec3(t.getOrigin().x(), t.getOrigin().y(), t.getOrigin().z());
      p.orientation = Quat(q.w(), q.x(), q.y(), q.z());
      out.push_back(p);
    }
  }

  void velocities(std::vector<Vec3>& linear, std::vector<Vec3>& angular) const override {
    linear.clear();
    angular.clear();
    for (const btRigidBody* body : dynamic_) {
      const btVector3 &v = body->getLinearVelocity(), &w = body->getAngularVelocity();
      linear.emplace_back(v.x(), v.y(), v.z());
      angular.emplace_back(w.x(), w.y(), w.z());
    }
  }

  // from Bullet's support mapping of the body's shape (margins included), the
  // one its plane-convex collision (btConvexPlaneCollisionAlgorithm) reads
  bool deepest_point(int k, const BenchPlane& plane, Vec3& point, double& depth) const override {
    const btRigidBody* body = dynamic_[static_cast<std::size_t>(k)];
    const btVector3 p = support_point(body->getCollisionShape(), body->getCenterOfMassTransform(), bt(-plane.normal));
    point = Vec3(p.x(), p.y(), p.z());
    depth = plane.offset - plane.normal.dot(point);
    return depth > 0;
  }

  int contacts() const override {
    int n = 0;
    for (int i = 0; i < dispatcher_->getNumManifolds(); ++i)
      n += dispatcher_->getManifoldByIndexInternal(i)->getNumContacts();
    return n;
  }

 private:
  btRigidBody* add(btCollisionShape* shape, double mass, const btVector3& inertia, const btTransform& pose,
                   int material) {
    shapes_.emplace_back(shape);
    motion_.push_back(std::make_unique<btDefaultMotionState>(pose));
    btRigidBody::btRigidBodyConstructionInfo info(mass, motion_.back().get(), shape, inertia);
    bodies_.push_back(std::make_unique<btRigidBody>(info));
    btRigidBody* body = bodies_.back().get();
    body->setActivationState(DISABLE_DEACTIVATION);
    body->setUserPointer(&scene_);
    body->setUserIndex(material);
    world_->addRigidBody(body);
    return body;
  }

  // the hull shrunk by Bullet's margin, the margin restoring its size
  btCollisionShape* hull(const BenchPart& part) {
    std::vector<double> coords;
    for (const Vec3& v : part.vertices) coords.insert(coords.end(), {v.x(), v.y(), v.z()});
    btConvexHullComputer computer;
    const double shrunk = computer.compute(coords.data(), 3 * sizeof(double), static_cast<int>(part.vertices.size()),
                                           kMargin, kMarginClamp);
    auto* shape = new btConvexHullShape();
    if (shrunk > 0) {
      for (int i = 0; i < computer.vertices.size(); ++i) shape->addPoint(computer.vertices[i], false);
      shape->setMargin(shrunk);
    } else {  // nothing to shrink: the hull itself with no margin
      for (const Vec3& v : part.vertices) shape->addPoint(bt(v), false);
      shape->setMargin(0.0);
    }
    shape->recalcLocalAabb();
    return shape;
  }

  // one part as Bullet's shape, and where that shape's origin sits in the body frame
  btCollisionShape* part_shape(const BenchPart& part, Pose& placed) {
    placed = part.offset;
    switch (part.kind) {
      case BenchPart::Kind::Box:
        return new btBoxShape(bt(0.5 * part.size));
      case BenchPart::Kind::Hull:
        placed = Pose{};  // its points are in the body frame
        return hull(part);
      case BenchPart::Kind::Sphere:  // the margin is the radius: exact
        return new btSphereShape(part.radius);
      case BenchPart::Kind::Capsule:  // axis z; its "height" is the core segment; the margin is the radius: exact
        return new btCapsuleShapeZ(part.radius, part.length);
      case BenchPart::Kind::Cylinder: {  // axis z, half extents (r, r, height / 2)
        auto* shape = new btCylinderShapeZ(btVector3(part.radius, part.radius, 0.5 * part.length));
        // its margin lies inside and rounds the rims by it (a tilted rim would stand up to 0.41 margin short
        // of ours); with none the rims are sharp, as ours. setMargin keeps the outer size
        shape->setMargin(0.0);
        return shape;
      }
      case BenchPart::Kind::Cone: {  // axis z, centred at half its height (ours: at its base), apex at +z
        auto* shape = new btConeShapeZ(part.radius, part.length);
        shape->setMargin(0.0);  // its margin would lie outside the cone
        placed.position = part.offset.to_world(Vec3(0.0, 0.0, 0.5 * part.length));
        return shape;
      }
    }
    return nullptr;
  }

  btCollisionShape* shape_of(const BenchBody& b) {
    if (b.is_box()) return new btBoxShape(bt(0.5 * b.size));
    Pose placed;
    if (b.parts.size() == 1) {  // one part whose origin is the body's own: the shape itself
      btCollisionShape* only = part_shape(b.parts[0], placed);
      if (placed.position.norm() < 1e-12 && placed.orientation.angularDistance(Quat::Identity()) < 1e-12) return only;
      delete only;
    }
    auto* compound = new btCompoundShape();
    for (const BenchPart& part : b.parts) {
      btCollisionShape* child = part_shape(part, placed);
      shapes_.emplace_back(child);  // the compound does not own its children
      compound->addChildShape(bt(placed), child);
    }
    return compound;
  }

  void clear() {
    if (world_) {
      for (auto& body : bodies_) world_->removeRigidBody(body.get());
      gCalculateCombinedFrictionCallback = previous_friction_;
    }
    dynamic_.clear();
    bodies_.clear();
    motion_.clear();
    shapes_.clear();
    world_.reset();
    solver_.reset();
    broadphase_.reset();
    dispatcher_.reset();
    config_.reset();
  }

  BenchScene scene_;  // the loaded scene: h, and the friction table the callback reads
  CalculateCombinedCallback previous_friction_ = nullptr;
  std::unique_ptr<btDefaultCollisionConfiguration> config_;
  std::unique_ptr<btCollisionDispatcher> dispatcher_;
  std::unique_ptr<btBroadphaseInterface> broadphase_;
  std::unique_ptr<btSequentialImpulseConstraintSolver> solver_;
  std::unique_ptr<btDiscreteDynamicsWorld> world_;
  std::vector<std::unique_ptr<btCollisionShape>> shapes_;
  std::vector<std::unique_ptr<btDefaultMotionState>> motion_;
  std::vector<std::unique_ptr<btRigidBody>> bodies_;
  std::vector<btRigidBody*> dynamic_;
};

}  // namespace

std::unique_ptr<PeerEngine> make_bullet_engine() { return std::make_unique<BulletEngine>(); }

}  // namespace pegsim::bench
