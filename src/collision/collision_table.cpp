// The narrowphase registrations (thesis ch. 3): one line per pair of shape
// kinds, every ordered pair covered (ShapePairTable::check_complete).
//
//   polyhedron - polyhedron : vertex-face both ways + edge-edge (narrowphase_3d.cpp)
//   polygon    - polygon    : vertex-edge both ways (narrowphase_2d.cpp)
//   half-space - polyhedron / polygon, either order : vertex-plane (half_space.cpp),
//     the half-space's owner body A
//   half-space - half-space, polyhedron - polygon : none (no contact is defined
//     between two half-spaces, and 2D and 3D bodies never meet in one scene)
//   compound - anything : every pair of convex parts, each contact tagged with
//     its parts (narrowphase.cpp; thesis 4.5: PEG then works per part pair)
#include "collision/collision_table.hpp"

namespace pegsim {

namespace {

CollisionTable registered() {
  CollisionTable t("narrowphase");
  register_pair<Polyhedron, Polyhedron, find_contacts_polyhedra>(t);
  register_pair<Polygon, Polygon, find_contacts_polygons>(t);
  register_both_orders<HalfSpace, Polyhedron, find_contacts_half_space>(t);
  register_both_orders<HalfSpace, Polygon, find_contacts_half_space>(t);
  t.none<HalfSpace, HalfSpace>();
  t.none<Polyhedron, Polygon>();
  t.parts<Compound>();
  t.check_complete();
  return t;
}

}  // namespace

const CollisionTable& collision_table() {
  static const CollisionTable table = registered();
  return table;
}

}  // namespace pegsim
