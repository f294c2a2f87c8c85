// The measures of metrics.hpp.
#include "metrics.hpp"

#include "geometry/penetration.hpp"
#include "geometry/polyhedron.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace pegsim::bench {

MetricsRecorder::MetricsRecorder(const BenchScene& scene, std::string engine, int measure_every, int first_timed)
    : scene_(scene), measure_every_(std::max(1, measure_every)), first_timed_(first_timed) {
  m_.engine = std::move(engine);
  for (const BenchBody& b : scene.bodies) {
    if (b.is_static) {
      statics_.push_back(&b);
      static_shapes_.push_back(make_box(b.size));
      continue;
    }
    shapes_.push_back(make_box(b.size));
    half_.push_back(0.5 * b.size);
    radius_.push_back(0.5 * b.size.norm());
  }
  step_seconds_.reserve(static_cast<std::size_t>(scene.steps()));
}

double MetricsRecorder::deepest_overlap(const std::vector<Pose>& poses) const {
  double deepest = 0.0;
  const std::size_t n = poses.size();
  for (std::size_t i = 0; i < n; ++i) {
    // the ground z = 0: the lowest corner
    const Vec3& c = poses[i].position;
    if (c.z() < radius_[i]) {
      const Mat3 r = poses[i].orientation.toRotationMatrix();
      const double reach = (r.row(2).transpose().cwiseAbs()).dot(half_[i]);
      deepest = std::max(deepest, reach - c.z());
    }
    for (std::size_t j = i + 1; j < n; ++j) {
      const double reach = radius_[i] + radius_[j];
      if ((poses[j].position - c).squaredNorm() < reach * reach)
        deepest = std::max(deepest, penetration_depth(shapes_[i], poses[i], shapes_[j], poses[j]));
    }
    for (std::size_t k = 0; k < statics_.size(); ++k) {
      const double reach = radius_[i] + 0.5 * statics_[k]->size.norm();
      if ((statics_[k]->pose.position - c).squaredNorm() < reach * reach)
        deepest = std::max(deepest, penetration_depth(shapes_[i], poses[i], static_shapes_[k], statics_[k]->pose));
    }
  }
  return deepest;
}

void MetricsRecorder::record(int step, double seconds, const std::vector<Pose>& poses, int contacts) {
  m_.steps = step + 1;
  for (const Pose& p : poses)
    if (!p.position.allFinite() || !p.orientation.coeffs().allFinite()) m_.finite = false;
  if (!m_.finite) return;
  if (step >= first_timed_) {
    step_seconds_.push_back(seconds);
    contact_sum_ += contacts;
  }
  const int total = scene_.steps();
  const double t = (step + 1) * scene_.h;
  if ((step + 1) % measure_every_ == 0 || step + 1 == total) {
    const double depth = deepest_overlap(poses);
    m_.max_penetration = std::max(m_.max_penetration, depth);
    if (step + 1 > total - total / 5) m_.settled_penetration = std::max(m_.settled_penetration, depth);
  }
  if (settled_.empty() && t >= scene_.settle_time - 0.5 * scene_.h)
    for (const Pose& p : poses) settled_.push_back(p.position);
  else if (!settled_.empty())
    for (std::size_t i = 0; i < poses.size(); ++i)
      m_.drift = std::max(m_.drift, (poses[i].position - settled_[i]).norm());
}

RunMetrics MetricsRecorder::finish(const std::vector<Pose>& final_poses) {
  if (!step_seconds_.empty()) {
    const double sum = std::accumulate(step_seconds_.begin(), step_seconds_.end(), 0.0);
    m_.mean_us = 1e6 * sum / static_cast<double>(step_seconds_.size());
    m_.mean_contacts = contact_sum_ / static_cast<double>(step_seconds_.size());
    std::vector<double> sorted = step_seconds_;
    auto mid = sorted.begin() + static_cast<std::ptrdiff_t>(sorted.size() / 2);
    std::nth_element(sorted.begin(), mid, sorted.end());
    m_.median_us = 1e6 * *mid;
  }
  std::size_t checked = 0, away = 0;
  for (std::size_t i = 0; i < final_poses.size() && i < scene_.rest_height.size(); ++i) {
    if (std::isnan(scene_.rest_height[i])) continue;
    ++checked;
    if (!(std::abs(final_poses[i].position.z() - scene_.rest_height[i]) <= 0.05)) ++away;
  }
  if (checked > 0) m_.out_of_place = static_cast<int>(away);
  return m_;
}

}  // namespace pegsim::bench
