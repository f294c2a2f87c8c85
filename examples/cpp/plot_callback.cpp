// A per-step callback (thesis 6.2, Script 4 "plotPVA"): after every step an
// observer logs a body's vertical position, velocity and acceleration, here a
// box dropped on the ground (the thesis's hanging rod needs joints, which
// pegsim does not have). Writes pva.csv (t, P, V, A); plot it with any tool,
// or see examples/python/plot_callback.py for the matplotlib version.
// Checks: in free fall A = g, and the box ends at rest on the ground.
#include "example.hpp"

#include "sim/world.hpp"

#include <cmath>
#include <cstdio>
#include <array>
#include <fstream>
#include <vector>

namespace {

using namespace pegsim;

// RPIsim's userFunction as a StepObserver: called with the state after each step
class PlotPva final : public StepObserver {
 public:
  PlotPva(std::uint32_t body, double h, double v0) : body_(body), h_(h), previous_v_(v0) {}
  void on_step(const Model& model, const State& state, const StepReport& report) override {
    const BodyState& b = state.bodies[body_];
    const double p = b.pose.position.z(), v = b.linear_velocity.z();
    const double a = (v - previous_v_) / h_;  // acceleration over the step
    previous_v_ = v;
    rows.push_back({state.time, p, v, a});
  }
  std::vector<std::array<double, 4>> rows;

 private:
  std::uint32_t body_;
  double h_, previous_v_;
};

}  // namespace

int main() {
  using namespace example;
  Model model;
  State state;
  model.options.h = 0.005;
  model.options.eps = 0.02;
  model.options.model = ContactModelKind::Peg;
  add_static(model, state, "ground", HalfSpace{Vec3::UnitZ(), 0.0});
  Pose pose;
  pose.position = Vec3(0.0, 0.0, 1.5);
  const BodyId box = add_dynamic(model, state, "box", make_box(Vec3(0.5, 0.5, 0.5)), 800.0, pose);
  World world(std::move(model), std::move(state));
  PlotPva pva(box.index, world.model().options.h, 0.0);
  world.add_observer(&pva);
  const long steps = std::lround(run_time(2.0, 1.0) / world.model().options.h);
  for (long s = 0; s < steps; ++s) world.step();

  std::ofstream csv("pva.csv");
  csv << "t,P,V,A\n";
  for (const auto& r : pva.rows) csv << r[0] << "," << r[1] << "," << r[2] << "," << r[3] << "\n";
  std::printf("wrote pva.csv: %zu rows\n", pva.rows.size());

  // the first 0.3 s are free fall (1.25 m takes 0.5 s): A = g = -9.81 m/s^2 to
  // round-off (semi-implicit Euler adds exactly h g each step, thesis eq. 2.30)
  bool falls = true;
  for (const auto& r : pva.rows)
    if (r[0] <= 0.3) falls = falls && std::abs(r[3] + 9.81) < 1e-9;
  const auto& last = pva.rows.back();
  const bool rests = std::abs(last[1] - 0.25) < 1e-6 && std::abs(last[2]) < 1e-6;
  std::printf("free fall at g: %s; at the end P = %.9f m, V = %.1e m/s: %s\n", falls ? "yes" : "NO", last[1],
              last[2], rests ? "at rest" : "NOT at rest");
  return falls && rests ? 0 : 1;
}
