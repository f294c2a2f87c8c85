// Bullet 3 (Debian's libbullet-dev, its double-precision build) behind the
// PeerEngine interface: a btDiscreteDynamicsWorld with the sequential impulse
// solver and its default settings, btBoxShape boxes (default collision
// margin), a btStaticPlaneShape ground, one fixed step of h per step()
// (stepSimulation(h, 0)). Bullet multiplies the two bodies' friction values,
// so each body gets sqrt(mu). Sleeping is switched off, as no other engine
// here sleeps. contacts() is the contact points of all manifolds.
#include "peer_engine.hpp"

#include <btBulletDynamicsCommon.h>

#include <cmath>

namespace pegsim::bench {
namespace {

btVector3 bt(const Vec3& v) { return btVector3(v.x(), v.y(), v.z()); }

class BulletEngine final : public PeerEngine {
 public:
  ~BulletEngine() override { clear(); }
  std::string name() const override { return "bullet"; }

  void load(const BenchScene& scene) override {
    clear();
    h_ = scene.h;
    config_ = std::make_unique<btDefaultCollisionConfiguration>();
    dispatcher_ = std::make_unique<btCollisionDispatcher>(config_.get());
    broadphase_ = std::make_unique<btDbvtBroadphase>();
    solver_ = std::make_unique<btSequentialImpulseConstraintSolver>();
    world_ = std::make_unique<btDiscreteDynamicsWorld>(dispatcher_.get(), broadphase_.get(), solver_.get(),
                                                       config_.get());
    world_->setGravity(bt(scene.gravity));
    const double friction = std::sqrt(scene.mu);

    auto add = [&](btCollisionShape* shape, double mass, const btTransform& pose) {
      shapes_.emplace_back(shape);
      btVector3 inertia(0, 0, 0);
      if (mass > 0) shape->calculateLocalInertia(mass, inertia);
      motion_.push_back(std::make_unique<btDefaultMotionState>(pose));
      btRigidBody::btRigidBodyConstructionInfo info(mass, motion_.back().get(), shape, inertia);
      info.m_friction = friction;
      bodies_.push_back(std::make_unique<btRigidBody>(info));
      bodies_.back()->setActivationState(DISABLE_DEACTIVATION);
      world_->addRigidBody(bodies_.back().get());
      return bodies_.back().get();
    };
    btTransform identity;
    identity.setIdentity();
    add(new btStaticPlaneShape(btVector3(0, 0, 1), 0), 0.0, identity);
    for (const BenchBox& box : scene.boxes) {
      const Quat& q = box.pose.orientation;
      const btTransform pose(btQuaternion(q.x(), q.y(), q.z(), q.w()), bt(box.pose.position));
      btRigidBody* body = add(new btBoxShape(bt(0.5 * box.size)), box.is_static ? 0.0 : box.mass, pose);
      if (box.is_static) continue;
      body->setLinearVelocity(bt(box.linear_velocity));
      body->setAngularVelocity(bt(box.angular_velocity));
      dynamic_.push_back(body);
    }
  }

  void step() override { world_->stepSimulation(h_, 0); }

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

  int contacts() const override {
    int n = 0;
    for (int i = 0; i < dispatcher_->getNumManifolds(); ++i)
      n += dispatcher_->getManifoldByIndexInternal(i)->getNumContacts();
    return n;
  }

 private:
  void clear() {
    if (world_)
      for (auto& body : bodies_) world_->removeRigidBody(body.get());
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

  double h_ = 0.005;
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
