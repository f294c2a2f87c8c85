// Random pours (random_pour.hpp): YAML text written from a seed.
#include "io/random_pour.hpp"
#include "io/seeded_text.hpp"

#include <cmath>
#include <cstdio>
#include <random>
#include <stdexcept>

namespace pegsim {
namespace {

const auto num = seeded::number;

std::string vec3(double x, double y, double z) {
  char buf[128];
  std::snprintf(buf, sizeof buf, "[%.17g, %.17g, %.17g]", x, y, z);
  return buf;
}

using seeded::Uniform;

// the floor and four walls, static boxes touching the floor's top at z = 0
std::string container(const RandomPourOptions& o) {
  const double w = o.box_width, t = 0.2, hw = o.wall_height;
  const double side = w / 2 + t / 2;
  struct Part {
    const char* name;
    double sx, sy, sz, x, y, z;
  };
  const Part parts[] = {{"floor", w + 2 * t, w + 2 * t, t, 0, 0, -t / 2},
                        {"wall_x_minus", t, w + 2 * t, hw, -side, 0, hw / 2},
                        {"wall_x_plus", t, w + 2 * t, hw, side, 0, hw / 2},
                        {"wall_y_minus", w, t, hw, 0, -side, hw / 2},
                        {"wall_y_plus", w, t, hw, 0, side, hw / 2}};
  std::string s;
  for (const Part& p : parts) {
    char line[256];
    std::snprintf(line, sizeof line, "  - {name: %s, static: true, shape: {box: [%.17g, %.17g, %.17g]}, position: [%.17g, %.17g, %.17g]}\n",
                  p.name, p.sx, p.sy, p.sz, p.x, p.y, p.z);
    s += line;
  }
  return s;
}

}  // namespace

std::string random_pour_yaml(const RandomPourOptions& o, std::uint64_t seed) {
  if (o.bodies < 1 || o.hull_points < 4 || o.solver_chain.empty())
    throw std::invalid_argument("random pour: needs >= 1 body, >= 4 hull points and a solver");
  Uniform uniform(seed);
  std::string chain;
  for (const std::string& s : o.solver_chain) {
    if (!chain.empty()) chain += ", ";
    chain += s;
  }
  std::string y;
  y += "# random pour, seed " + std::to_string(seed) + " (src/io/random_pour.hpp)\n";
  y += "options:\n  name: random-pour-seed-" + std::to_string(seed) + "\n  dimension: 3\n";
  y += "  h: " + num(o.h) + "\n  duration: " + num(o.duration) + "\n";
  y += "  eps: auto\n  eps_theta: auto\n  model: peg\n  friction: " + num(o.mu) + "\n";
  y += "  solver_chain: [" + chain + "]\n  gravity: [0, 0, -9.81]\nbodies:\n";
  y += container(o);
  const double half = o.body_size / 2, spin = o.max_spin / std::sqrt(3.0);
  for (int k = 0; k < o.bodies; ++k) {
    // 2 x 2 per layer, centred over the box, layers `spacing` apart from z = spacing
    const double x = ((k % 2) - 0.5) * o.spacing, yy = (((k / 2) % 2) - 0.5) * o.spacing;
    const double z = o.spacing * (1 + k / 4);
    std::string hull;
    for (int p = 0; p < o.hull_points; ++p) {
      const double a = uniform(-half, half), b = uniform(-half, half), c = uniform(-half, half);
      if (p) hull += ", ";
      hull += vec3(a, b, c);
    }
    const double wx = uniform(-spin, spin), wy = uniform(-spin, spin), wz = uniform(-spin, spin);
    y += "  - {name: body" + std::to_string(k) + ", density: " + num(o.density) + ", position: " + vec3(x, yy, z) +
         ", angular_velocity: " + vec3(wx, wy, wz) + ", shape: {hull: [" + hull + "]}}\n";
  }
  return y;
}

Scene random_pour_scene(const RandomPourOptions& options, std::uint64_t seed) {
  return load_scene_string(random_pour_yaml(options, seed), "<random pour seed " + std::to_string(seed) + ">");
}

}  // namespace pegsim
