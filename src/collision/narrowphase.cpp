// Contact determination dispatch on the pair of shape kinds (thesis ch. 3).
//
//   polyhedron - polyhedron : vertex-face both ways + edge-edge (narrowphase_3d.cpp)
//   polygon    - polygon    : vertex-edge both ways (narrowphase_2d.cpp)
//   half-space - polyhedron / polygon, either order : vertex-plane (half_space.cpp)
//   half-space - half-space, polyhedron - polygon   : nothing (no contact is defined
//     between two half-spaces, and 2D and 3D bodies never meet in one scene)
#include "collision/narrowphase.hpp"

namespace pegsim {

void find_contacts(const BodyGeometry& a, const BodyGeometry& b, const NarrowphaseParams& params,
                   std::vector<Contact>& out) {
  const Shape& sa = *a.shape;
  const Shape& sb = *b.shape;
  if (const auto* ha = std::get_if<HalfSpace>(&sa)) {
    if (!is_half_space(sb)) find_contacts_half_space(a, *ha, b, params, out);
    return;
  }
  if (const auto* hb = std::get_if<HalfSpace>(&sb)) {
    find_contacts_half_space(b, *hb, a, params, out);
    return;
  }
  if (const auto* pa = std::get_if<Polyhedron>(&sa)) {
    if (const auto* pb = std::get_if<Polyhedron>(&sb)) find_contacts_polyhedra(a, *pa, b, *pb, params, out);
    return;
  }
  if (const auto* pa = std::get_if<Polygon>(&sa)) {
    if (const auto* pb = std::get_if<Polygon>(&sb)) find_contacts_polygons(a, *pa, b, *pb, params, out);
  }
}

}  // namespace pegsim
