// grasp-2d and grasp-2d-friction (thesis 5.2.5-5.2.6, Figs. 5.17-5.22): the
// five-link gripper of src/io/grasp_2d.hpp closes on each of ten random
// polygons for 2 s, under PEG, the standard and the corrective model (the
// thesis's three), h = 0.001 ... 0.01, against a PEG reference at h = 1e-4
// per polygon (RPIsim's, shared/notes/joints-and-grasp.md 3.5).
//
// Metric (thesis; RPIsim's processing scripts): the Euclidean distance of the
// object's position from the reference's at the same t, every step
// (rotation ignored). Written:
//   error_<model>.csv   polygon, h, step, t, error (every step of every run)
//   summary.csv         per model and h: the median, Q1 and Q3 of the errors
//                       pooled over polygons (Fig. 5.20), the largest final
//                       error, runs finished, solver failures, standard-model
//                       traps, explosions (object faster than 1 m/s), deepest
//                       overlap
//   reference.csv       per polygon: redraws, final object position, deepest
//                       overlap, whether both fingertips touch the object at
//                       the end (check (a) of the reading guide)
//   joints_<model>.csv  polygon 1 at h = 0.005: each joint's angle and target
//   runs.csv
//   scene_polygonK.yaml the scene of polygon K (h = 0.001, PEG), for `pegsim run`
#include "experiment.hpp"

#include "io/grasp_2d.hpp"
#include "joints/controllers.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <stdexcept>
#include <string>
#include <vector>

namespace pegsim::cli::experiment {
namespace {

constexpr double kReferenceH = 1e-4;
constexpr double kExplosionSpeed = 1.0;  // m/s: the object leaves the grasp (the thesis's "explodes")
using B = Grasp2dBodies;

Vec2 object_position(const World& world) {
  const Vec3& p = world.state().bodies[B::object].pose.position;
  return Vec2(p.x(), p.y());
}

bool touches(const StepReport& r, std::uint32_t a, std::uint32_t b) {
  for (const Contact& c : r.contacts)
    if ((c.body_a == a && c.body_b == b) || (c.body_a == b && c.body_b == a)) return true;
  return false;
}

// Quartiles as RPIsim's scripts take them: the median, and the medians of the values below and above it.
double median_of(std::vector<double> v) {
  if (v.empty()) return std::nan("");
  std::sort(v.begin(), v.end());
  const std::size_t n = v.size();
  return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}
struct Quartiles {
  double q1, median, q3;
};
Quartiles quartiles(const std::vector<double>& values) {
  std::vector<double> v = values;
  std::sort(v.begin(), v.end());
  const double m = median_of(v);
  std::vector<double> below, above;
  for (double x : v) (x < m ? below : x > m ? above : below).push_back(x);
  return {median_of(below), m, median_of(above)};
}

struct RunTotals {
  long failures = 0, traps = 0, explosions = 0;
  double overlap = 0.0, final_error = 0.0;
  bool finished = false;
};

void run_grasp(const Context& ctx, double friction) {
  const int polygons = ctx.quick ? 2 : 10;
  std::vector<double> hs;
  if (ctx.quick) hs = {0.002, 0.005};
  else
    for (int i = 1; i <= 10; ++i) hs.push_back(i / 1000.0);
  const ContactModelKind models[] = {ContactModelKind::Peg, ContactModelKind::Standard, ContactModelKind::Corrective};
  Grasp2dOptions options;
  options.friction = friction;
  const long reference_steps = std::lround(options.duration / kReferenceH);

  RunLog log(ctx);
  Csv reference_csv(ctx.out / "reference.csv", {"polygon", "redraws", "steps", "final_x", "final_y",
                                                "max_penetration", "fingertips_touch_at_end", "solver_failures"});
  // references first: every later run is measured against them
  std::vector<std::vector<Vec2>> reference(polygons + 1);
  for (int k = 1; k <= polygons; ++k) {
    int redraws = 0;
    {  // the polygon's scene, to rerun with `pegsim run` (the same bytes in every process)
      const std::string yaml = grasp_2d_yaml(options, k, &redraws);
      std::FILE* f = std::fopen((ctx.out / ("scene_polygon" + std::to_string(k) + ".yaml")).c_str(), "w");
      if (!f) throw std::runtime_error("cannot write the scene of polygon " + std::to_string(k) + " into " + ctx.out.string());
      std::fputs(yaml.c_str(), f);
      std::fclose(f);
    }
    const Scene scene = grasp_2d_scene(options, k);
    std::vector<Vec2>& ref = reference[k];
    double overlap = 0.0;
    bool fingertips = false;
    RunHooks hooks;
    hooks.shared = true;
    hooks.before = [&](World& w) {
      if (w.state().step == 0) ref.push_back(object_position(w));
    };
    hooks.after = [&](World& w, const StepReport& r) {
      ref.push_back(object_position(w));
      overlap = std::max(overlap, r.max_penetration);
      fingertips = touches(r, B::f3, B::object) && touches(r, B::f4, B::object);
    };
    const Outcome o = simulate(scene, ContactModelKind::Peg, kReferenceH, 0.0, reference_steps, hooks);
    log.add("peg-reference", kReferenceH, k, o);
    if (ref.empty()) continue;
    reference_csv << static_cast<long>(k) << static_cast<long>(redraws) << o.steps << ref.back().x()
                  << ref.back().y() << overlap << (fingertips ? "yes" : "no") << o.solver_failures;
    reference_csv.end_row();
  }

  Csv summary(ctx.out / "summary.csv", {"model", "h", "runs_finished", "median_error", "q1_error", "q3_error",
                                        "max_final_error", "solver_failures", "traps", "explosions",
                                        "max_penetration"});
  for (ContactModelKind kind : models) {
    const std::string name = model_name(kind);
    Csv errors(ctx.out / ("error_" + name + ".csv"), {"polygon", "h", "step", "t", "error"});
    Csv joints(ctx.out / ("joints_" + name + ".csv"), {"h", "step", "t", "joint", "angle", "target"});
    for (double h : hs) {
      const long m = std::lround(h / kReferenceH);  // the run's step k is the reference's step k m
      std::vector<double> pooled;
      RunTotals all;
      int finished = 0;
      for (int k = 1; k <= polygons; ++k) {
        options.h = h;
        const Scene scene = grasp_2d_scene(options, k);
        RunTotals run;
        std::vector<PdController> tracked;  // polygon 1 at h = 0.005: joint angles against targets
        const bool track = k == 1 && std::abs(h - 0.005) < 1e-12;
        if (track)
          for (const PdControllerSpec& spec : scene.model.controllers) tracked.emplace_back(scene.model, spec);
        RunHooks hooks;
        hooks.after = [&](World& w, const StepReport& r) {
          const long step = w.state().step;
          const std::vector<Vec2>& ref = reference[k];
          if (step * m < static_cast<long>(ref.size())) {
            const double e = (object_position(w) - ref[step * m]).norm();
            pooled.push_back(e);
            run.final_error = e;
            errors << static_cast<long>(k);
            errors.step_size(h) << step << w.state().time << e;
            errors.end_row();
          }
          run.traps += r.traps;
          run.overlap = std::max(run.overlap, r.max_penetration);
          if (w.state().bodies[B::object].linear_velocity.norm() > kExplosionSpeed) ++run.explosions;
          for (std::size_t j = 0; j < tracked.size(); ++j) {
            joints.step_size(h) << step << w.state().time << static_cast<long>(j + 1)
                                << joint_position(w.model(), w.state(), tracked[j].spec().joint)
                                << tracked[j].target(w.state().time, step, h);
            joints.end_row();
          }
        };
        const Outcome o = simulate(scene, kind, h, 0.0, std::lround(options.duration / h), hooks);
        log.add(name, h, k, o);
        if (o.status == "not-run") continue;
        run.failures = o.solver_failures;
        run.finished = o.status == "ok";
        finished += run.finished;
        all.failures += run.failures;
        all.traps += run.traps;
        all.explosions += run.explosions;
        all.overlap = std::max(all.overlap, run.overlap);
        all.final_error = std::max(all.final_error, run.final_error);
      }
      if (pooled.empty()) continue;  // every run of this row belongs to another process
      const Quartiles q = quartiles(pooled);
      summary << name;
      summary.step_size(h) << static_cast<long>(finished) << q.median << q.q1 << q.q3 << all.final_error
                           << all.failures << all.traps << all.explosions << all.overlap;
      summary.end_row();
    }
  }
}

}  // namespace

void grasp_2d(const Context& ctx) { run_grasp(ctx, 0.0); }
void grasp_2d_friction(const Context& ctx) { run_grasp(ctx, 0.25); }

}  // namespace pegsim::cli::experiment
