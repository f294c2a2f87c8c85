#include "sim/model.hpp"

#include <stdexcept>
#include <utility>

namespace pegsim {

BodyId Model::add_body(BodyModel body) {
  if (body.material.index >= materials.size()) {
    if (!materials.empty() || body.material.index != 0)
      throw std::invalid_argument("body '" + body.name + "': unknown material index");
    add_material("default");
  }
  bodies.push_back(std::move(body));
  return BodyId{static_cast<std::uint32_t>(bodies.size() - 1)};
}

MaterialId Model::add_material(std::string name) {
  const std::size_t n = materials.size();
  materials.push_back(Material{std::move(name)});
  // grow the symmetric friction table, keeping existing coefficients (new pairs: 0)
  auto grow = [n](std::vector<double>& table) {
    std::vector<double> grown((n + 1) * (n + 1), 0.0);
    for (std::size_t i = 0; i < n; ++i)
      for (std::size_t j = 0; j < n; ++j) grown[i * (n + 1) + j] = table[i * n + j];
    table = std::move(grown);
  };
  grow(friction);
  grow(restitution);  // new pairs: 0, plastic
  return MaterialId{static_cast<std::uint32_t>(n)};
}

void Model::set_friction(MaterialId a, MaterialId b, double mu) {
  const std::size_t n = materials.size();
  if (a.index >= n || b.index >= n) throw std::invalid_argument("set_friction: unknown material");
  if (!(mu >= 0.0)) throw std::invalid_argument("set_friction: mu must be >= 0");
  friction[a.index * n + b.index] = mu;
  friction[b.index * n + a.index] = mu;
}

void Model::set_restitution(MaterialId a, MaterialId b, double e) {
  const std::size_t n = materials.size();
  if (a.index >= n || b.index >= n) throw std::invalid_argument("set_restitution: unknown material");
  if (!(e >= 0.0 && e <= 1.0)) throw std::invalid_argument("set_restitution: e must lie in [0, 1]");
  restitution[a.index * n + b.index] = e;
  restitution[b.index * n + a.index] = e;
}

}  // namespace pegsim
