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
//   curved kinds (sphere, capsule, cylinder, cone; disc, capsule_2d): point
//     contacts (narrowphase_curved.hpp): round cores with each other, with
//     half-spaces and polytopes in closed form (narrowphase_round.cpp);
//     cylinder / cone with a half-space, or a polyhedron's facet, by their
//     rims (narrowphase_rim.cpp),
//     with anything else by GJK / EPA (narrowphase_gjk.cpp); a 2D kind with
//     a 3D one: none
#include "collision/collision_table.hpp"
#include "collision/narrowphase_curved.hpp"

#include <type_traits>

namespace pegsim {

namespace {

template <class A, class B>
void round_pair(CollisionTable& t) {
  if constexpr (std::is_same_v<A, B>) register_pair<A, B, find_contacts_round<A, B>>(t);
  else register_both_orders<A, B, find_contacts_round<A, B>>(t);
}
template <class A, class B>
void gjk_pair(CollisionTable& t) {
  if constexpr (std::is_same_v<A, B>) register_pair<A, B, find_contacts_convex<A, B>>(t);
  else register_both_orders<A, B, find_contacts_convex<A, B>>(t);
}
template <class A, class... Bs>
void none_with(CollisionTable& t) {
  (t.none<A, Bs>(), ...);
}

void register_curved(CollisionTable& t) {
  // 3D
  round_pair<Sphere, Sphere>(t);
  round_pair<Sphere, Capsule>(t);
  round_pair<Capsule, Capsule>(t);
  register_both_orders<HalfSpace, Sphere, find_contacts_round_plane<Sphere>>(t);
  register_both_orders<HalfSpace, Capsule, find_contacts_round_plane<Capsule>>(t);
  register_both_orders<Polyhedron, Sphere, find_contacts_round_polyhedron<Sphere>>(t);
  register_both_orders<Polyhedron, Capsule, find_contacts_round_polyhedron<Capsule>>(t);
  register_both_orders<HalfSpace, Cylinder, find_contacts_rim>(t);
  register_both_orders<HalfSpace, Cone, find_contacts_rim>(t);
  register_both_orders<Polyhedron, Cylinder, find_contacts_rim>(t);
  gjk_pair<Cylinder, Sphere>(t);
  gjk_pair<Cylinder, Capsule>(t);
  register_pair<Cylinder, Cylinder, find_contacts_flat>(t);
  register_both_orders<Cylinder, Cone, find_contacts_flat>(t);
  register_both_orders<Polyhedron, Cone, find_contacts_rim>(t);
  gjk_pair<Cone, Sphere>(t);
  gjk_pair<Cone, Capsule>(t);
  register_pair<Cone, Cone, find_contacts_flat>(t);
  // 2D
  round_pair<Disc, Disc>(t);
  round_pair<Disc, Capsule2d>(t);
  round_pair<Capsule2d, Capsule2d>(t);
  register_both_orders<HalfSpace, Disc, find_contacts_round_plane<Disc>>(t);
  register_both_orders<HalfSpace, Capsule2d, find_contacts_round_plane<Capsule2d>>(t);
  register_both_orders<Polygon, Disc, find_contacts_round_polygon<Disc>>(t);
  register_both_orders<Polygon, Capsule2d, find_contacts_round_polygon<Capsule2d>>(t);
  // a 2D kind with a 3D one
  none_with<Polygon, Sphere, Capsule, Cylinder, Cone>(t);
  none_with<Disc, Polyhedron, Sphere, Capsule, Cylinder, Cone>(t);
  none_with<Capsule2d, Polyhedron, Sphere, Capsule, Cylinder, Cone>(t);
}

CollisionTable registered() {
  CollisionTable t("narrowphase");
  register_pair<Polyhedron, Polyhedron, find_contacts_polyhedra>(t);
  register_pair<Polygon, Polygon, find_contacts_polygons>(t);
  register_both_orders<HalfSpace, Polyhedron, find_contacts_half_space>(t);
  register_both_orders<HalfSpace, Polygon, find_contacts_half_space>(t);
  t.none<HalfSpace, HalfSpace>();
  t.none<Polyhedron, Polygon>();
  t.parts<Compound>();
  register_curved(t);
  t.check_complete();
  return t;
}

}  // namespace

const CollisionTable& collision_table() {
  static const CollisionTable table = registered();
  return table;
}

}  // namespace pegsim
