// triangle-drop (thesis 5.2.1, Figs. 5.5-5.6): scenes/triangle-drop.yaml under
// every contact model for h = 0.001 ... 0.016 s with eps = 10 h, against a PEG
// reference at h = 1e-4 s.
//
// Writes trajectory_reference.csv and trajectory_<model>.csv (h, step, t, x, y,
// theta of the dropped triangle at every step, the initial state as step 0),
// deviation.csv (per model and h, the largest distance from the reference at
// the run's step times) and runs.csv.
#include "experiment.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>

namespace pegsim::cli::experiment {
namespace {

constexpr double kReferenceH = 1e-4;
constexpr std::uint32_t kDropped = 1;  // the dynamic triangle's body index in the scene

struct Sample {
  double x, y, theta;
};

Sample sample(const World& world) {
  const BodyState& b = world.state().bodies[kDropped];
  return {b.pose.position.x(), b.pose.position.y(), planar_angle(b.pose)};
}

// Runs one (model, h), writing every step to `csv` and returning the samples (index = step).
// `shared`: the reference, which every later run is measured against.
std::vector<Sample> trajectory(const Scene& scene, ContactModelKind kind, double h, double duration, Csv& csv,
                               RunLog& log, bool shared = false) {
  std::vector<Sample> samples;
  auto write = [&](const World& world) {
    const Sample s = sample(world);
    samples.push_back(s);
    csv.step_size(h) << static_cast<long>(world.state().step) << world.state().time << s.x << s.y << s.theta;
    csv.end_row();
  };
  RunHooks hooks;
  hooks.before = [&](World& world) {
    if (world.state().step == 0) write(world);
  };
  hooks.after = [&](World& world, const StepReport&) { write(world); };
  hooks.shared = shared;
  const Outcome o = simulate(scene, kind, h, 10.0 * h, std::lround(duration / h), hooks);
  log.add(model_name(kind), h, -1, o);
  return samples;
}

}  // namespace

void triangle_drop(const Context& ctx) {
  const Scene scene = load_shipped_scene(ctx, "triangle-drop");
  const double duration = scene.model.options.duration;  // 1.5 s
  std::vector<double> hs;
  if (ctx.quick) hs = {0.004, 0.016};
  else
    for (int i = 1; i <= 16; ++i) hs.push_back(i / 1000.0);

  RunLog log(ctx);
  const std::vector<std::string> columns = {"h", "step", "t", "x", "y", "theta"};
  std::vector<Sample> reference;
  {
    Csv csv(ctx.out / "trajectory_reference.csv", columns);
    reference = trajectory(scene, ContactModelKind::Peg, kReferenceH, duration, csv, log, /*shared=*/true);
  }

  Csv deviation(ctx.out / "deviation.csv", {"model", "h", "status", "steps", "max_position_deviation",
                                            "max_theta_deviation", "final_x", "final_y", "final_theta"});
  for (ContactModelKind kind : kModels) {
    const std::string reason = unavailable_reason(kind, scene.model.options.dimension);
    if (!reason.empty()) {  // in runs.csv, without an empty trajectory file
      for (double h : hs) log.add(model_name(kind), h, -1, Outcome{"skipped", reason, 0, 0, 0});
      continue;
    }
    Csv csv(ctx.out / ("trajectory_" + model_name(kind) + ".csv"), columns);
    for (double h : hs) {
      const std::vector<Sample> run = trajectory(scene, kind, h, duration, csv, log);
      if (run.empty()) continue;  // another process's run (experiment.hpp: runs split over processes)
      // the run's step k is the reference's step k * m (h = m * reference h)
      const long m = std::lround(h / kReferenceH);
      double position = 0.0, theta = 0.0;
      for (std::size_t k = 0; k < run.size() && k * m < reference.size(); ++k) {
        const Sample& a = run[k];
        const Sample& b = reference[k * m];
        position = std::max(position, std::hypot(a.x - b.x, a.y - b.y));
        theta = std::max(theta, std::abs(a.theta - b.theta));
      }
      const long steps = static_cast<long>(run.size()) - 1;
      deviation << model_name(kind);
      deviation.step_size(h) << (steps == std::lround(duration / h) ? "ok" : "failed") << steps << position << theta
                             << run.back().x << run.back().y << run.back().theta;
      deviation.end_row();
    }
  }
}

}  // namespace pegsim::cli::experiment
