// The runs of compare_run.hpp.
#include "compare_run.hpp"

#include "collision/broadphase.hpp"
#include "sim/penetration_meter.hpp"
#include "sim/world.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <numeric>
#include <optional>

namespace pegsim::bench {
namespace {

constexpr int kWarmUp = 10;  // steps not timed (first-touch allocations, caches)

class SceneEngine final : public PeerEngine {
 public:
  SceneEngine(const Scene& scene, const ConvertedScene& converted) : scene_(scene), converted_(converted) {}
  std::string name() const override { return "pegsim"; }
  void load(const BenchScene&) override {
    world_.emplace(scene_.model, scene_.state);
    failures_ = 0;
  }
  void step() override { failures_ += world_->step().solver_failures; }
  void poses(std::vector<Pose>& out) const override {  // in the principal frames, as the peers give them
    out.clear();
    for (std::size_t k = 0; k < converted_.dynamic.size(); ++k) {
      Pose p = body(k).pose;
      p.orientation = (p.orientation * converted_.principal[k]).normalized();
      out.push_back(p);
    }
  }
  void velocities(std::vector<Vec3>& linear, std::vector<Vec3>& angular) const override {
    linear.clear();
    angular.clear();
    for (std::size_t k = 0; k < converted_.dynamic.size(); ++k) {
      linear.push_back(body(k).linear_velocity);
      angular.push_back(body(k).angular_velocity);
    }
  }
  int contacts() const override { return world_->last_report().contacts_found; }
  std::string warnings() const override { return failures_ ? std::to_string(failures_) + " failed solves" : ""; }

 private:
  const BodyState& body(std::size_t k) const {
    return world_->state().bodies[static_cast<std::size_t>(converted_.dynamic[k])];
  }
  const Scene& scene_;
  const ConvertedScene& converted_;
  std::optional<World> world_;
  long failures_ = 0;
};

// pegsim's meters on one engine's states
class Meter {
 public:
  Meter(const Scene& scene, const ConvertedScene& converted)
      : model_(scene.model), converted_(converted), state_(scene.state) {
    for (const BodyModel& b : model_.bodies) is_static_.push_back(b.is_static);
    boxes_.resize(model_.bodies.size());
  }

  // reads the engine's state into r's next row; false if it is not finite
  bool record(const PeerEngine& engine, CompareRun& r) {
    engine.poses(poses_);
    engine.velocities(linear_, angular_);
    std::vector<BodyState> row(poses_.size());
    bool finite = true;
    for (std::size_t k = 0; k < poses_.size(); ++k) {
      row[k].pose = converted_.to_pegsim(static_cast<int>(k), poses_[k]);
      row[k].linear_velocity = linear_[k];
      row[k].angular_velocity = angular_[k];
      finite = finite && row[k].pose.position.allFinite() && row[k].pose.orientation.coeffs().allFinite() &&
               linear_[k].allFinite() && angular_[k].allFinite();
      state_.bodies[static_cast<std::size_t>(converted_.dynamic[k])] = row[k];
    }
    r.trajectory.push_back(std::move(row));
    if (!finite) return false;
    for (std::size_t i = 0; i < boxes_.size(); ++i) {
      const Pose& p = state_.bodies[i].pose;
      boxes_[i] = swept_box(model_.bodies[i].shape, p, p, 0.0);
    }
    broadphase_.find_pairs(boxes_, is_static_, pairs_);
    r.penetration.push_back(deepest_penetration(model_, state_, pairs_));
    r.energy.push_back(mechanical_energy(model_, state_));
    r.momentum.push_back(linear_momentum(model_, state_));
    return true;
  }

 private:
  const Model& model_;
  const ConvertedScene& converted_;
  State state_;
  std::vector<bool> is_static_;
  std::vector<Aabb> boxes_;
  SweepAndPrune broadphase_;
  std::vector<BodyPair> pairs_;
  std::vector<Pose> poses_;
  std::vector<Vec3> linear_, angular_;
};

void summarize(CompareRun& r, const std::vector<double>& seconds, int settle_step) {
  if (!seconds.empty()) {
    r.mean_us = 1e6 * std::accumulate(seconds.begin(), seconds.end(), 0.0) / static_cast<double>(seconds.size());
    std::vector<double> sorted = seconds;
    auto mid = sorted.begin() + static_cast<std::ptrdiff_t>(sorted.size() / 2);
    std::nth_element(sorted.begin(), mid, sorted.end());
    r.median_us = 1e6 * *mid;
  }
  const std::size_t n = r.penetration.size();
  for (std::size_t k = 0; k < n; ++k) {
    r.max_penetration = std::max(r.max_penetration, r.penetration[k]);
    if (k >= n - n / 5) r.settled_penetration = std::max(r.settled_penetration, r.penetration[k]);
    r.energy_max_rise = std::max(r.energy_max_rise, r.energy[k] - r.energy.front());
  }
  const std::size_t from = std::min(static_cast<std::size_t>(settle_step), r.trajectory.size() - 1);
  for (std::size_t k = from; k < r.trajectory.size(); ++k)
    for (std::size_t i = 0; i < r.trajectory[k].size(); ++i)
      r.drift = std::max(r.drift, (r.trajectory[k][i].pose.position - r.trajectory[from][i].pose.position).norm());
}

}  // namespace

double CompareRun::energy_drift() const {
  if (energy.empty()) return 0.0;
  return (energy.back() - energy.front()) / std::max(1.0, std::abs(energy.front()));
}

double CompareRun::momentum_drift() const {
  if (momentum.empty()) return 0.0;
  const double p0 = momentum.front().norm();
  return p0 > 0 ? (momentum.back() - momentum.front()).norm() / p0 : 0.0;
}

std::unique_ptr<PeerEngine> make_scene_engine(const Scene& scene, const ConvertedScene& converted) {
  return std::make_unique<SceneEngine>(scene, converted);
}

CompareRun run_compared(PeerEngine& engine, const Scene& scene, const ConvertedScene& converted) {
  using Clock = std::chrono::steady_clock;
  const BenchScene& bench = converted.bench;
  CompareRun r;
  r.engine = engine.name();
  engine.load(bench);
  Meter meter(scene, converted);
  r.finite = meter.record(engine, r);
  std::vector<double> seconds;
  for (int i = 0; i < bench.steps() && r.finite; ++i) {
    const Clock::time_point start = Clock::now();
    engine.step();
    const double s = std::chrono::duration<double>(Clock::now() - start).count();
    if (i >= kWarmUp) seconds.push_back(s);
    r.finite = meter.record(engine, r);
  }
  summarize(r, seconds, static_cast<int>(bench.settle_time / bench.h + 0.5));
  r.warnings = engine.warnings();
  return r;
}

std::vector<double> deviation(const CompareRun& run, const CompareRun& reference) {
  std::vector<double> worst(reference.trajectory.front().size(), 0.0);
  for (std::size_t k = 0; k < run.trajectory.size() && k < reference.trajectory.size(); ++k)
    for (std::size_t i = 0; i < worst.size(); ++i)
      worst[i] = std::max(worst[i], (run.trajectory[k][i].pose.position - reference.trajectory[k][i].pose.position).norm());
  return worst;
}

}  // namespace pegsim::bench
