// pegsim behind the PeerEngine interface for pegsim_peers' box scenes: the
// scene built in code as a Model and State (a static half-space per plane,
// polyhedral boxes; one friction coefficient, scene.mu), stepped by
// World with the PEG contact model, eps from thesis eq. 5.1 (eps: auto, as the
// shipped stack scenes) and pegsim's default solver (Lemke). contacts() is the
// narrowphase's feature pairs of the step (StepReport::contacts_found).
//
// Two entries: `pegsim` with its default linearised cone (7 friction
// directions, Model::Options::friction_directions), and `pegsim-nd4` with 4,
// the cone every peer here uses: Bullet's two friction rows per point, each
// signed (a 4-sided pyramid), MuJoCo's default pyramidal cone of condim 3
// (4 edges), ODE's dContactApprox1 with two directions. The same physics
// otherwise; the time bars are printed for both.
#include "geometry/polyhedron.hpp"
#include "peer_engine.hpp"
#include "sim/world.hpp"

#include <optional>

namespace pegsim::bench {
namespace {

class PegsimEngine final : public PeerEngine {
 public:
  // friction_directions 0: pegsim's default
  explicit PegsimEngine(int friction_directions) : friction_directions_(friction_directions) {}
  std::string name() const override {
    return friction_directions_ > 0 ? "pegsim-nd" + std::to_string(friction_directions_) : "pegsim";
  }
  std::string unsupported(const BenchScene& scene) const override {
    for (const BenchBody& b : scene.bodies)
      if (!b.is_box()) return "bodies other than boxes (this adapter builds boxes; pegsim compare runs pegsim on the scene file)";
    return scene.uniform_friction() ? "" : "friction that differs between material pairs (this adapter has one material)";
  }

  void load(const BenchScene& scene) override {
    Model model;
    model.options.dimension = Dimension::Spatial;
    model.options.h = scene.h;
    model.options.duration = scene.duration;
    model.options.eps_auto = true;
    model.options.model = ContactModelKind::Peg;
    model.options.gravity = scene.gravity;
    if (friction_directions_ > 0) model.options.friction_directions = friction_directions_;
    const MaterialId material = model.add_material("box");
    model.set_friction(material, material, scene.mu);

    State state;
    for (const BenchPlane& plane : scene.planes) {
      BodyModel ground;
      ground.name = "plane";
      ground.name += std::to_string(model.body_count());
      ground.is_static = true;
      ground.shape = HalfSpace{plane.normal, plane.offset};
      ground.material = material;
      model.add_body(ground);
      state.bodies.emplace_back();
    }

    dynamic_.clear();
    for (const BenchBody& box : scene.bodies) {
      BodyModel body;
      body.name = "box" + std::to_string(model.body_count());
      body.is_static = box.is_static;
      body.shape = make_box(box.size);
      body.material = material;
      if (!box.is_static) {
        const Vec3 s2 = box.size.cwiseProduct(box.size);
        body.mass = box.mass;
        body.inertia = (box.mass / 12.0 * Vec3(s2.y() + s2.z(), s2.x() + s2.z(), s2.x() + s2.y())).asDiagonal();
        dynamic_.push_back(static_cast<int>(model.body_count()));
      }
      BodyState b;
      b.pose = box.pose;
      b.linear_velocity = box.linear_velocity;
      b.angular_velocity = box.angular_velocity;
      model.add_body(std::move(body));
      state.bodies.push_back(b);
    }
    world_.emplace(std::move(model), std::move(state));
    failures_ = escalations_ = 0;
  }

  void step() override {
    const StepReport& r = world_->step();
    failures_ += r.solver_failures;
    escalations_ += r.escalations;
  }

  std::string warnings() const override {
    if (failures_ == 0 && escalations_ == 0) return "";
    return std::to_string(failures_) + " island solves failed, " + std::to_string(escalations_) + " escalated";
  }

  void poses(std::vector<Pose>& out) const override {
    out.clear();
    for (int i : dynamic_) out.push_back(world_->state().bodies[static_cast<std::size_t>(i)].pose);
  }

  void velocities(std::vector<Vec3>& linear, std::vector<Vec3>& angular) const override {
    linear.clear();
    angular.clear();
    for (int i : dynamic_) {
      const BodyState& b = world_->state().bodies[static_cast<std::size_t>(i)];
      linear.push_back(b.linear_velocity);
      angular.push_back(b.angular_velocity);
    }
  }

  int contacts() const override { return world_->last_report().contacts_found; }

 private:
  int friction_directions_ = 0;
  std::optional<World> world_;
  std::vector<int> dynamic_;  // body index of each dynamic box
  long failures_ = 0, escalations_ = 0;
};

}  // namespace

std::unique_ptr<PeerEngine> make_pegsim_engine() { return std::make_unique<PegsimEngine>(0); }
std::unique_ptr<PeerEngine> make_pegsim_pyramid_engine() { return std::make_unique<PegsimEngine>(4); }

}  // namespace pegsim::bench
