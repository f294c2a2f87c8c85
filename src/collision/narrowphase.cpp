// Contact determination dispatch on the pair of shape kinds (thesis ch. 3):
// the collision table (collision_table.cpp) gives each pair's routine, none,
// or "parts": a compound is taken pair of convex parts by pair, each contact
// tagged with its parts (thesis 4.5: PEG then works per part pair, unchanged).
#include "collision/collision_table.hpp"

namespace pegsim {

namespace {

void find_contacts_convex(const CollisionTable& table, const BodyGeometry& a, const BodyGeometry& b,
                          const NarrowphaseParams& params, std::vector<Contact>& out) {
  const CollisionTable::Entry& e = table.at(*a.shape, *b.shape);
  if (e.rule == CollisionTable::Rule::Call) e.routine(a, b, params, out);
  else if (e.rule != CollisionTable::Rule::None)
    throw std::logic_error(std::string("narrowphase: a compound's part is a ") + shape_kind_name(*a.shape) +
                           " or " + shape_kind_name(*b.shape));
}

}  // namespace

void find_contacts(const BodyGeometry& a, const BodyGeometry& b, const NarrowphaseParams& params,
                   std::vector<Contact>& out) {
  const CollisionTable& table = collision_table();
  if (table.at(*a.shape, *b.shape).rule != CollisionTable::Rule::Parts) {
    find_contacts_convex(table, a, b, params, out);
    return;
  }
  for (int i = 0; i < part_count(*a.shape); ++i) {
    for (int j = 0; j < part_count(*b.shape); ++j) {
      const std::size_t first = out.size();
      find_contacts_convex(table, {a.index, &part_of(*a.shape, i), a.pose},
                           {b.index, &part_of(*b.shape, j), b.pose}, params, out);
      for (std::size_t k = first; k < out.size(); ++k) {
        const bool same_order = out[k].body_a == a.index;
        out[k].part_a = static_cast<std::uint16_t>(same_order ? i : j);
        out[k].part_b = static_cast<std::uint16_t>(same_order ? j : i);
      }
    }
  }
}

}  // namespace pegsim
