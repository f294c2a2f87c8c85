// spinning-platter (Mirtich & Canny 6; shared/notes/mirtich-canny.md 2.2): a
// ball rolling on a kinematic platter, under the impulse stepper (collision
// envelope eps swept) and the time-stepping LCP with PEG (h swept).
//
// Writes orbit.csv (per run and step: t, the ball's x, y, its distance from
// the axis and unwrapped angle about it) and summary.csv (per run: the fitted
// orbit rate against the rolling analysis' Omega' = 2/7 Omega, the radius's
// growth rate against the explicit-Euler rate for the run's step T - h, or the
// mean hop period of the impulse stepper - and the radius at start and end).
#include "analysis/orbit.hpp"
#include "experiment.hpp"

#include <cmath>
#include <cstdio>

namespace pegsim::cli::experiment {

namespace {

struct PlatterRun {
  std::string stepper;
  double h = 0.0;    // the step (time-stepping) or the output step (impulse)
  double eps = 0.0;  // the impulse stepper's envelope
};

}  // namespace

void spinning_platter(const Context& ctx) {
  const Scene scene = load_shipped_scene(ctx, "spinning-platter");
  const std::uint32_t platter = body_named(scene, "platter"), ball = body_named(scene, "ball");
  const double duration = ctx.quick ? 7.0 : scene.model.options.duration;
  std::vector<PlatterRun> runs;
  for (double eps : ctx.quick ? std::vector<double>{1e-3} : std::vector<double>{1e-5, 1e-4, 1e-3})
    runs.push_back({"impulse", scene.model.options.h, eps});
  for (double h : ctx.quick ? std::vector<double>{0.005} : std::vector<double>{0.005, 0.0025, 0.00125})
    runs.push_back({"time-stepping", h, scene.model.options.impulse.collision_tolerance});

  const BodyModel& b = scene.model.bodies[ball];
  const double platter_rate = scene.state.bodies[platter].angular_velocity.z();
  const double radius = std::get<Sphere>(b.shape).radius;
  const double orbit_rate = rolling_orbit_rate(platter_rate, b.mass, radius, b.inertia(0, 0));

  RunLog log(ctx);
  Csv orbit(ctx.out / "orbit.csv", {"stepper", "h", "eps", "t", "x", "y", "radius", "angle"});
  Csv summary(ctx.out / "summary.csv",
              {"stepper", "h", "eps", "status", "steps", "orbit_rate", "rolling_rate", "growth_rate", "euler_step",
               "euler_growth_rate", "collisions", "radius_start", "radius_end", "solver_failures"});
  for (const PlatterRun& run : runs) {
    Scene s = scene;
    s.model.options.stepper = run.stepper;
    s.model.options.impulse.collision_tolerance = run.eps;
    OrbitFit fit(scene.state.bodies[platter].pose.position);
    long collisions = 0;
    auto sample = [&](const World& world) {
      const double t = world.state().time;
      const Vec3& p = world.state().bodies[ball].pose.position;
      fit.add(t, p);
      orbit << run.stepper;
      orbit.step_size(run.h).step_size(run.eps) << t << p.x() << p.y() << fit.last_radius()
                                                << 2.0 * M_PI * fit.turns();
      orbit.end_row();
    };
    RunHooks hooks;
    hooks.before = [&](World& world) {
      if (world.state().step == 0) sample(world);
    };
    hooks.after = [&](World& world, const StepReport& r) {
      collisions += r.impulse.collisions;
      sample(world);
    };
    const Outcome o = simulate(s, ContactModelKind::Peg, run.h, -1.0, std::lround(duration / run.h), hooks);
    log.add(run.stepper + (run.stepper == "impulse" ? " eps " + format_h(run.eps) : ""), run.h, -1, o);
    // the explicit-Euler step: h, or the impulse stepper's mean hop period
    const double T = run.stepper == "impulse" ? (collisions > 0 ? o.steps * run.h / collisions : NAN) : run.h;
    summary << run.stepper;
    summary.step_size(run.h).step_size(run.eps)
        << o.status << o.steps << fit.angular_frequency() << orbit_rate << fit.radius_growth_rate() << T
        << euler_orbit_growth_rate(orbit_rate, T) << collisions << fit.first_radius() << fit.last_radius()
        << o.solver_failures;
    summary.end_row();
  }
}

}  // namespace pegsim::cli::experiment
