// pegsim_impulse_compare: the impulse stepper's scenes (docs/impulse-stepper.md)
// under both steppers, side by side: wall time per step, kinetic + potential
// energy (start, end, largest rise over a step), drift of the total linear
// momentum (relative; meaningful where no static body pushes: billiards),
// deepest overlap after any step, collisions per step (impulse) or solver
// calls (time-stepping), and each scene's own outcome figure.
//
//   pegsim_impulse_compare [SCENE ...]     (default: the four scenes below)
//
// Figures, not a test: docs/experiments.md, "Impulse stepper", quotes them.
#include "analysis/orbit.hpp"
#include "impulse/ballistic_flight.hpp"
#include "io/scene.hpp"
#include "sim/world.hpp"

#include <chrono>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

using namespace pegsim;

namespace {

double energy(const World& w) {
  double e = 0.0;
  for (std::size_t i = 0; i < w.model().bodies.size(); ++i) {
    const BodyModel& b = w.model().bodies[i];
    if (b.is_static) continue;
    e += kinetic_energy(b, w.state().bodies[i]) - b.mass * w.model().options.gravity.dot(w.state().bodies[i].pose.position);
  }
  return e;
}

Vec3 momentum(const World& w) {
  Vec3 p = Vec3::Zero();
  for (std::size_t i = 0; i < w.model().bodies.size(); ++i)
    if (!w.model().bodies[i].is_static) p += w.model().bodies[i].mass * w.state().bodies[i].linear_velocity;
  return p;
}

double tilt(const BodyState& s) { return std::acos(std::clamp(s.pose.orientation.toRotationMatrix()(2, 2), -1.0, 1.0)); }

// The scene's outcome: billiards: slowest object ball's speed; block-on-block:
// the dropped block's largest speed from 1 s on and its final height; dominos:
// how many tilted past 30 deg; spinning-platter: the ball's orbit rate over
// the rolling analysis' (2/7 Omega) and its distance from the axis.
std::string outcome(const std::string& name, const World& w, double late_speed, const OrbitFit& orbit) {
  char buf[160];
  const auto& bodies = w.state().bodies;
  if (name == "spinning-platter") {
    const BodyModel& ball = w.model().bodies[1];
    const double rolling = rolling_orbit_rate(bodies[0].angular_velocity.z(), ball.mass,
                                              std::get<Sphere>(ball.shape).radius, ball.inertia(0, 0));
    std::snprintf(buf, sizeof buf, "orbit rate %.4f of 2/7 Omega, radius %.5f -> %.5f m (growth %.2e /s)",
                  orbit.angular_frequency() / rolling, orbit.first_radius(), orbit.last_radius(),
                  orbit.radius_growth_rate());
  } else if (name == "billiards-break") {
    double slowest = INFINITY;
    for (std::size_t i = 1; i < bodies.size(); ++i) slowest = std::min(slowest, bodies[i].linear_velocity.norm());
    std::snprintf(buf, sizeof buf, "slowest object ball %.3g m/s", slowest);
  } else if (name.rfind("block-on-block", 0) == 0) {
    std::snprintf(buf, sizeof buf, "dropped block: largest speed after 1 s %.2e m/s, z %.7f m", late_speed,
                  bodies[2].pose.position.z());
  } else {
    int fallen = 0;
    for (std::size_t i = 1; i < bodies.size(); ++i) fallen += tilt(bodies[i]) > M_PI / 6;
    std::snprintf(buf, sizeof buf, "%d of %zu tilted past 30 deg", fallen, bodies.size() - 1);
  }
  return buf;
}

void run(const std::string& path, const std::string& stepper) {
  Scene s = load_scene_file(path);
  World w(s.model, s.state);
  w.set_stepper(stepper);
  w.set_measure_penetration(true);
  const double e0 = energy(w);
  const Vec3 p0 = momentum(w);
  double e = e0, rise = 0.0, deepest = 0.0, drift = 0.0, late_speed = 0.0;
  long steps = 0, collisions = 0, solves = 0, failures = 0;
  double stepping = 0.0;
  OrbitFit orbit(w.state().bodies[0].pose.position);  // body 1 about body 0 (read for spinning-platter)
  if (w.state().bodies.size() > 1) orbit.add(0.0, w.state().bodies[1].pose.position);
  while (w.state().time < w.model().options.duration - 1e-12) {
    const auto t0 = std::chrono::steady_clock::now();
    const StepReport& r = w.step();
    stepping += std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    ++steps;
    collisions += r.impulse.collisions;
    solves += r.solver_calls;
    failures += r.solver_failures;
    deepest = std::max(deepest, r.max_penetration);
    if (w.state().bodies.size() > 1) orbit.add(w.state().time, w.state().bodies[1].pose.position);
    const double e1 = energy(w);
    rise = std::max(rise, e1 - e);
    e = e1;
    if (w.state().time >= 1.0 - 1e-12 && w.state().bodies.size() > 2)
      late_speed = std::max(late_speed, w.state().bodies[2].linear_velocity.norm());
    if (p0.norm() > 0.0) drift = std::max(drift, (momentum(w) - p0).norm() / p0.norm());
  }
  std::printf("  %-14s %8.1f us/step  energy %.6g -> %.6g J (largest rise %.2e J)  momentum drift %.1e  "
              "deepest overlap %.2e m  %s %.1f/step%s  %s\n",
              stepper.c_str(), 1e6 * stepping / static_cast<double>(steps), e0, e, rise, drift, deepest,
              stepper == "impulse" ? "collisions" : "solves", static_cast<double>(stepper == "impulse" ? collisions : solves) / static_cast<double>(steps),
              failures ? (" failures " + std::to_string(failures)).c_str() : "", outcome(s.name, w, late_speed, orbit).c_str());
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<std::string> names;
  for (int i = 1; i < argc; ++i) names.push_back(argv[i]);
  if (names.empty()) names = {"billiards-break", "block-on-block-impulse", "dominos", "spinning-platter"};
  for (const std::string& name : names) {
    const std::string path = std::string(PEGSIM_SCENES_DIR) + "/" + name + ".yaml";
    std::printf("%s\n", name.c_str());
    for (const char* stepper : {"impulse", "time-stepping"}) {
      try {
        run(path, stepper);
      } catch (const std::exception& e) {
        std::printf("  %-14s error: %s\n", stepper, e.what());
      }
    }
  }
}
