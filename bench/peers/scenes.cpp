// The scenes of pegsim_peers (bench_scene.hpp), built in code so that every
// engine gets the same numbers. Random draws come from std::mt19937 with fixed
// seeds and a mapping written here (std::uniform_real_distribution is
// implementation-defined), so a scene is the same on every platform.
#include "bench_scene.hpp"

#include <cmath>
#include <limits>
#include <numbers>
#include <random>
#include <stdexcept>

namespace pegsim::bench {
namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

class Draw {
 public:
  explicit Draw(std::uint32_t seed) : rng_(seed) {}
  double unit() { return static_cast<double>(rng_()) * 0x1p-32; }      // [0, 1)
  double in(double lo, double hi) { return lo + (hi - lo) * unit(); }  // [lo, hi)
  // a uniformly distributed rotation (Shoemake's subgroup algorithm)
  Quat rotation() {
    const double u1 = unit(), a = 2 * std::numbers::pi * unit(), b = 2 * std::numbers::pi * unit();
    const double r1 = std::sqrt(1 - u1), r2 = std::sqrt(u1);
    return Quat(r2 * std::cos(b), r1 * std::sin(a), r1 * std::cos(a), r2 * std::sin(b)).normalized();
  }

 private:
  std::mt19937 rng_;
};

BenchBody cube_at(double x, double y, double z) {
  BenchBody b;
  b.pose.position = Vec3(x, y, z);
  return b;
}

// the random-offset stack: 1 m cubes of 1 kg, 0.25 m gaps (the lowest 0.25 m
// above the ground), horizontal offsets uniform in +-0.1 m
BenchScene stack10() {
  BenchScene s;
  s.name = "stack10";
  Draw draw(20261125);
  for (int k = 0; k < 10; ++k) {
    const double x = draw.in(-0.1, 0.1), y = draw.in(-0.1, 0.1);
    s.bodies.push_back(cube_at(x, y, 0.75 + 1.25 * k));
    s.rest_height.push_back(0.5 + k);
  }
  return s;
}

// scenes/box-stack-3d.yaml: touching cubes, the lowest 15 m up, a 0.25 m zigzag
BenchScene box_stack_3d() {
  BenchScene s;
  s.name = "box-stack-3d";
  for (int k = 0; k < 10; ++k) {
    const double shift = k % 2 == 0 ? 0.0 : 0.25;
    s.bodies.push_back(cube_at(shift, shift, 15.5 + k));
    s.rest_height.push_back(0.5 + k);
  }
  return s;
}

// 4-3-2-1 in the x-z plane: 0.1 m between neighbours in a row, each box over
// the gap of two below, 1 mm above its supports at release
BenchScene pyramid() {
  BenchScene s;
  s.name = "pyramid";
  for (int level = 0; level < 4; ++level) {
    const int count = 4 - level;
    for (int i = 0; i < count; ++i) {
      const double x = (i - 0.5 * (count - 1)) * 1.1;
      s.bodies.push_back(cube_at(x, 0.0, 0.5 + 1.001 * level + 0.001));
      s.rest_height.push_back(0.5 + level);
    }
  }
  return s;
}

}  // namespace

// n cubes at random orientations, dropped from a grid of cells 2 m apart into
// a square walled container as wide as the grid: g x g cells a layer,
// g = ceil(sqrt(n / layers)). A turned unit cube reaches sqrt(3) / 2 = 0.866 m
// from its centre and each centre moves up to 0.1 m off its cell's: cells of
// 2 m leave 2 (1 - 0.966) = 0.068 m between any two cubes, 0.034 m to the
// walls and 0.134 m to the ground. (Cells of 1.8 m let neighbours start overlapping, by
// up to 0.13 m: a pile could begin with bodies inside each other.)
BenchScene make_pile(int n, int layers) {
  if (n < 1) throw std::invalid_argument("pile: needs at least one box");
  BenchScene s;
  s.name = "pile" + std::to_string(n);
  s.duration = 2.0;  // kept short: pegsim's steps cost over a second each once the pile forms
  s.settle_time = 1.5;
  const int g = static_cast<int>(std::ceil(std::sqrt(n / static_cast<double>(layers))));
  constexpr double kCell = 2.0, kWall = 0.4, kWallHeight = 3.0;
  const double width = g * kCell;
  Draw draw(static_cast<std::uint32_t>(7700 + n));
  for (int k = 0; k < n; ++k) {
    const int layer = k / (g * g), cell = k % (g * g);
    const double x = ((cell % g) + 0.5) * kCell - 0.5 * width + draw.in(-0.1, 0.1);
    const double y = ((cell / g) + 0.5) * kCell - 0.5 * width + draw.in(-0.1, 0.1);
    BenchBody b = cube_at(x, y, 0.5 * kCell + layer * kCell);
    b.pose.orientation = draw.rotation();
    s.bodies.push_back(b);
    s.rest_height.push_back(kNaN);
  }
  for (int side = 0; side < 4; ++side) {  // the walls, standing on the ground
    BenchBody w;
    w.is_static = true;
    const bool along_x = side < 2;
    const double at = (side % 2 == 0 ? -1 : 1) * 0.5 * (width + kWall);
    w.size = along_x ? Vec3(kWall, width + 2 * kWall, kWallHeight) : Vec3(width, kWall, kWallHeight);
    w.pose.position = along_x ? Vec3(at, 0, 0.5 * kWallHeight) : Vec3(0, at, 0.5 * kWallHeight);
    s.bodies.push_back(w);
  }
  return s;
}

Vec3 BenchBody::principal_inertia() const {
  if (!inertia.isZero()) return inertia;
  const Vec3 s2 = size.cwiseProduct(size);
  return mass / 12.0 * Vec3(s2.y() + s2.z(), s2.x() + s2.z(), s2.x() + s2.y());
}

bool BenchScene::uniform_friction() const {
  for (double f : friction)
    if (f != friction.front()) return false;
  return true;
}

int BenchScene::dynamic_count() const {
  int n = 0;
  for (const BenchBody& b : bodies) n += b.is_static ? 0 : 1;
  return n;
}

BenchScene make_scene(const std::string& name, double duration) {
  BenchScene s;
  if (name == "stack10") s = stack10();
  else if (name == "box-stack-3d") s = box_stack_3d();
  else if (name == "pyramid") s = pyramid();
  else if (name.rfind("pile", 0) == 0 && name.size() > 4 && name.find_first_not_of("0123456789", 4) == std::string::npos)
    s = make_pile(std::stoi(name.substr(4)), 4);
  else throw std::invalid_argument("unknown scene '" + name + "' (stack10, box-stack-3d, pyramid, pile<N>)");
  if (duration > 0) {
    s.settle_time *= duration / s.duration;
    s.duration = duration;
  }
  return s;
}

BenchScene make_free_fall(double duration) {
  BenchScene s;
  s.name = "free-fall";
  s.bodies.push_back(cube_at(0, 0, 10.0));
  s.rest_height.push_back(kNaN);
  s.duration = duration;
  s.settle_time = duration;
  return s;
}

}  // namespace pegsim::bench
