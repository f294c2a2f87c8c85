// The rolling cart (thesis 6.1.2, Script 2), built in code: a chassis on four
// 20-sided wheels, each on a revolute joint about x, dropped onto the plane
// z = -0.1 y (a 5.71 degree slope, mu = 1). An observer logs the chassis
// speed and each wheel's rolling speed |omega| r to rolling_cart.csv.
// Checks: the cart rolls downhill (+y), and the wheels roll without slipping:
// |omega| r equals the chassis speed within 5% at the end (a 20-gon's centre
// speed varies by 1 - cos(pi / 20) = 1.2% over a roll, and the four wheels are
// not in phase). scenes/rolling-cart.yaml is the same cart as a scene file.
//
//     build/examples/example_rolling_cart
#include "example.hpp"

#include "geometry/polyhedron.hpp"
#include "joints/controllers.hpp"
#include "joints/joint_frames.hpp"
#include "sim/world.hpp"

#include <cmath>
#include <cstdio>
#include <numbers>
#include <vector>

using namespace example;

constexpr double kWheelRadius = 0.25;  // m: mesh_cylinder(20, 1, 0.25, 0.2)

// the chassis speed and each wheel's |omega| r after every step
struct RollLog final : StepObserver {
  std::vector<double> t, speed;
  std::vector<std::vector<double>> rolling;
  void on_step(const Model& model, const State& state, const StepReport&) override {
    t.push_back(state.time);
    speed.push_back(state.bodies[1].linear_velocity.norm());
    rolling.emplace_back();
    for (std::size_t j = 0; j < model.joints.size(); ++j)
      rolling.back().push_back(std::abs(joint_velocity(model, state, j)) * kWheelRadius);
  }
};

int main() {
  Model model;
  State state;
  model.options.h = 0.01;
  model.options.eps_auto = true;  // thesis eq. 5.1
  model.options.model = ContactModelKind::Peg;
  model.options.solver = "path";
  model.add_material("default");
  model.set_friction(MaterialId{0}, MaterialId{0}, 1.0);

  // Body_plane([0; 0; 0], [0; .1; 1])
  add_static(model, state, "ground", HalfSpace{Vec3(0, 0.1, 1).normalized(), 0.0});
  // mesh_rectangularBlock(1, 3, 0.25) at (0, 0, 1), mass 1 (inertia of the uniform block)
  BodyModel chassis;
  chassis.name = "chassis";
  chassis.shape = Shape(make_box(Vec3(1, 3, 0.25)));
  chassis.mass = 1.0;
  chassis.inertia = mass_properties(std::get<Polyhedron>(chassis.shape), 1.0).inertia /
                    mass_properties(std::get<Polyhedron>(chassis.shape), 1.0).mass;
  const BodyId c = model.add_body(std::move(chassis));
  BodyState cs;
  cs.pose.position = Vec3(0, 0, 1);
  state.bodies.push_back(cs);

  // four wheels mesh_cylinder(20, 1, 0.25, 0.2), mass 1, turned pi/2 about y, on hinges about x
  const double corners[4][2] = {{0.5, 1.3}, {-0.5, 1.3}, {0.5, -1.3}, {-0.5, -1.3}};
  for (int w = 0; w < 4; ++w) {
    BodyModel wheel;
    wheel.name = "wheel" + std::to_string(w);
    wheel.shape = Shape(make_prism(20, kWheelRadius, 0.2));
    const MassProperties mp = mass_properties(std::get<Polyhedron>(wheel.shape), 1.0);
    wheel.mass = 1.0;
    wheel.inertia = mp.inertia / mp.mass;
    const BodyId id = model.add_body(std::move(wheel));
    BodyState ws;
    ws.pose.position = Vec3(corners[w][0], corners[w][1], 0.75);
    ws.pose.orientation = Quat(Eigen::AngleAxisd(std::numbers::pi / 2, Vec3::UnitY()));
    state.bodies.push_back(ws);
    JointSpec axle;
    axle.name = "axle" + std::to_string(w);
    axle.kind = JointKind::Revolute;
    axle.body_a = c.index;
    axle.body_b = id.index;
    axle.anchor = ws.pose.position;
    axle.axis = Vec3::UnitX();
    model.joints.push_back(make_joint(axle, model, state));  // joined bodies do not collide
  }

  World world(std::move(model), std::move(state));
  RollLog log;
  world.add_observer(&log);
  const double duration = run_time(3.0, 1.5);
  while (world.state().time < duration - 1e-9) world.step();

  if (std::FILE* out = std::fopen("rolling_cart.csv", "w")) {
    std::fprintf(out, "t,chassis_speed,wheel0,wheel1,wheel2,wheel3\n");
    for (std::size_t k = 0; k < log.t.size(); ++k)
      std::fprintf(out, "%.4f,%.9e,%.9e,%.9e,%.9e,%.9e\n", log.t[k], log.speed[k], log.rolling[k][0],
                   log.rolling[k][1], log.rolling[k][2], log.rolling[k][3]);
    std::fclose(out);
  }
  const double downhill = world.state().bodies[1].pose.position.y(), v = log.speed.back();
  double slip = 0.0;
  for (double r : log.rolling.back()) slip = std::max(slip, std::abs(r - v) / v);
  std::printf("%zu steps; chassis %.3f m downhill at %.3f m/s; wheels' |omega| r within %.2f%% of it\n",
              log.t.size(), downhill, v, 100 * slip);
  return downhill > 0.05 && slip < 0.05 ? 0 : 1;
}
