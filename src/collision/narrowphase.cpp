// Contact determination dispatch on the pair of shape kinds (thesis ch. 3).
//
//   polyhedron - polyhedron : vertex-face both ways + edge-edge (narrowphase_3d.cpp)
//   polygon    - polygon    : vertex-edge both ways (narrowphase_2d.cpp)
//   half-space - polyhedron / polygon, either order : vertex-plane (half_space.cpp)
//   half-space - half-space, polyhedron - polygon   : nothing (no contact is defined
//     between two half-spaces, and 2D and 3D bodies never meet in one scene)
//   compound - anything : every pair of convex parts, each contact tagged with
//     its parts (thesis 4.5: PEG then works per part pair, unchanged)
#include "collision/narrowphase.hpp"

namespace pegsim {

namespace {

void find_contacts_convex(const BodyGeometry& a, const BodyGeometry& b, const NarrowphaseParams& params,
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

}  // namespace

void find_contacts(const BodyGeometry& a, const BodyGeometry& b, const NarrowphaseParams& params,
                   std::vector<Contact>& out) {
  if (!is_compound(*a.shape) && !is_compound(*b.shape)) {
    find_contacts_convex(a, b, params, out);
    return;
  }
  for (int i = 0; i < part_count(*a.shape); ++i) {
    for (int j = 0; j < part_count(*b.shape); ++j) {
      const std::size_t first = out.size();
      find_contacts_convex({a.index, &part_of(*a.shape, i), a.pose}, {b.index, &part_of(*b.shape, j), b.pose},
                           params, out);
      for (std::size_t k = first; k < out.size(); ++k) {
        const bool same_order = out[k].body_a == a.index;
        out[k].part_a = static_cast<std::uint16_t>(same_order ? i : j);
        out[k].part_b = static_cast<std::uint16_t>(same_order ? j : i);
      }
    }
  }
}

}  // namespace pegsim
