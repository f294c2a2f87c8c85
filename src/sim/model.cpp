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

MaterialId Model::add_material(std::string name) { return add_materials({std::move(name)}); }

MaterialId Model::add_materials(std::vector<std::string> names) {
  const std::size_t n = materials.size(), m = n + names.size();
  for (std::string& name : names) materials.push_back(Material{std::move(name)});
  // grow the symmetric tables once to m x m, keeping existing coefficients
  // (new pairs: 0; restitution 0 is plastic). One copy for all the names: a
  // copy per name made 1000 materials take 7 s (issue 17).
  auto grow = [n, m](std::vector<double>& table) {
    std::vector<double> grown(m * m, 0.0);
    for (std::size_t i = 0; i < n; ++i)
      for (std::size_t j = 0; j < n; ++j) grown[i * m + j] = table[i * n + j];
    table = std::move(grown);
  };
  grow(friction);
  grow(restitution);
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
