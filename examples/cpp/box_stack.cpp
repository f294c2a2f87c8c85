// A box stack: five 1 m cubes stacked 1 cm apart on the ground, released.
// Checks: the stack stands: every box ends on the one below (centre within
// 1e-4 m of its height k + 0.5), has not slid sideways (1e-4 m), and is still.
#include "example.hpp"

#include "sim/world.hpp"

#include <cmath>
#include <cstdio>

int main() {
  using namespace example;
  const int boxes = 5;
  Model model;
  State state;
  model.options.h = 0.005;
  model.options.eps = 0.03;
  model.options.model = ContactModelKind::Peg;
  model.add_material("default");
  model.set_friction(MaterialId{0}, MaterialId{0}, 0.5);
  add_static(model, state, "ground", HalfSpace{Vec3::UnitZ(), 0.0});
  for (int k = 0; k < boxes; ++k) {
    Pose pose;
    pose.position = Vec3(0.0, 0.0, 0.5 + 1.01 * k);
    add_dynamic(model, state, "box" + std::to_string(k), make_cube(1.0), 500.0, pose);
  }
  World world(std::move(model), std::move(state));
  const long steps = std::lround(run_time(3.0, 1.0) / world.model().options.h);
  double deepest = 0.0;
  for (long s = 0; s < steps; ++s) deepest = std::max(deepest, world.step().max_penetration);

  bool stands = true;
  for (int k = 0; k < boxes; ++k) {
    const BodyState& b = world.state().bodies[static_cast<std::size_t>(k + 1)];
    const Vec3& p = b.pose.position;
    // 1e-4 m: the 1 cm drops settle within a few steps; what is left is the
    // solver's residual, orders of magnitude below it
    const bool ok = std::abs(p.z() - (0.5 + k)) < 1e-4 && std::hypot(p.x(), p.y()) < 1e-4 &&
                    b.linear_velocity.norm() < 1e-4;
    std::printf("box%d: centre (%.2e, %.2e, %.6f) m, speed %.1e m/s %s\n", k, p.x(), p.y(), p.z(),
                b.linear_velocity.norm(), ok ? "" : "<- fell or moving");
    stands = stands && ok;
  }
  std::printf("deepest penetration %.2e m; the stack %s\n", deepest, stands ? "stands" : "DID NOT STAND");
  return stands && deepest < 1e-4 ? 0 : 1;
}
