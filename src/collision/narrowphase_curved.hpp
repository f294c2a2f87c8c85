// Contact determination for pairs with a curved shape (geometry/curved.hpp;
// issue 15). A smooth surface has no vertices, edges or facets to pair, so a
// contact is a point pair: the closest points of the two shapes (or, when
// they overlap, their deepest points) with the normal between them and the
// signed gap, FeatureKind::Curved, one contact per feature pair:
//
//   round - round (sphere, capsule; disc, 2D capsule): closest points of the
//     cores (thesis Algorithm 7), gap = core distance - radii; two parallel
//     capsules: the two ends of their overlap along the axis (a line contact
//     held at both ends, as a box's edge on a face is by its two vertices);
//   round - half-space: each end of the core within eps (a capsule lying flat
//     has two contacts, one standing one);
//   round - polyhedron / polygon: each end of the core against the polytope
//     in closed form (closest point on the convex polytope's surface, or its
//     shallowest face when inside), plus a capsule's interior closest point
//     (GJK on the core segment, exact for a polytope) when it is nearer than
//     both ends; 2D: the same against the polygon's edges;
//   cylinder, cone - half-space: rim points (narrowphase_rim.cpp);
//   cylinder, cone - anything else: GJK / EPA (geometry/gjk.hpp), one contact.
//
// A contact's body A is the polytope or half-space where there is one, else
// the first kind of the registration; its normal points from A onto B and
// point_b = point_a + gap * normal (collision/contact.hpp). Contacts are kept
// when gap <= eps (penetrating ones included). Their PolytopeFeatures hold no
// polytope features: feature_a = -1, feature_b = the point's index within the
// pair (core end 0 or 1, interior 2; rim point), which names the contact for
// the warm start across steps; applicability 1, primary true. Every contact
// model takes such a contact as a plain unilateral point contact.
#pragma once

#include "collision/narrowphase.hpp"

namespace pegsim {

// A round kind's core in world coordinates (geometry/curved.hpp, RoundCore).
RoundCore world_core(const RoundCore& body_core, const Pose& pose);

// The shared routines, on cores and world planes (narrowphase_round.cpp).
void round_round(const BodyGeometry& a, const RoundCore& ca, const BodyGeometry& b, const RoundCore& cb,
                 const NarrowphaseParams& params, std::vector<Contact>& out);
void round_half_space(const BodyGeometry& a, const HalfSpace& plane, const BodyGeometry& b, const RoundCore& cb,
                      bool planar, const NarrowphaseParams& params, std::vector<Contact>& out);
void round_polyhedron(const BodyGeometry& a, const Polyhedron& pa, const BodyGeometry& b, const RoundCore& cb,
                      const NarrowphaseParams& params, std::vector<Contact>& out);
void round_polygon(const BodyGeometry& a, const Polygon& pa, const BodyGeometry& b, const RoundCore& cb,
                   const NarrowphaseParams& params, std::vector<Contact>& out);
// cylinder / cone against a half-space (narrowphase_rim.cpp)
void find_contacts_rim(const BodyGeometry& a, const HalfSpace& plane, const BodyGeometry& b, const Cylinder& cb,
                       const NarrowphaseParams& params, std::vector<Contact>& out);
void find_contacts_rim(const BodyGeometry& a, const HalfSpace& plane, const BodyGeometry& b, const Cone& cb,
                       const NarrowphaseParams& params, std::vector<Contact>& out);
// cylinder / cone against a polyhedron: rim points over a facet it faces, else
// the GJK point (narrowphase_rim.cpp)
void find_contacts_rim(const BodyGeometry& a, const Polyhedron& pa, const BodyGeometry& b, const Cylinder& cb,
                       const NarrowphaseParams& params, std::vector<Contact>& out);
void find_contacts_rim(const BodyGeometry& a, const Polyhedron& pa, const BodyGeometry& b, const Cone& cb,
                       const NarrowphaseParams& params, std::vector<Contact>& out);
// cylinders and cones with each other: flat face on flat face by rim points,
// else the GJK point (narrowphase_rim.cpp)
void find_contacts_flat(const BodyGeometry& a, const Cylinder& ca, const BodyGeometry& b, const Cylinder& cb,
                        const NarrowphaseParams& params, std::vector<Contact>& out);
void find_contacts_flat(const BodyGeometry& a, const Cylinder& ca, const BodyGeometry& b, const Cone& cb,
                        const NarrowphaseParams& params, std::vector<Contact>& out);
void find_contacts_flat(const BodyGeometry& a, const Cone& ca, const BodyGeometry& b, const Cone& cb,
                        const NarrowphaseParams& params, std::vector<Contact>& out);
// any two convex shapes by GJK / EPA, a round kind by its core (narrowphase_gjk.cpp)
void convex_pair(const BodyGeometry& a, const BodyGeometry& b, const NarrowphaseParams& params,
                 std::vector<Contact>& out);

// The collision table's routines (collision/collision_table.hpp, PairRoutine).
template <class A, class B>
void find_contacts_round(const BodyGeometry& a, const A& sa, const BodyGeometry& b, const B& sb,
                         const NarrowphaseParams& params, std::vector<Contact>& out) {
  round_round(a, world_core(core_of(sa), a.pose), b, world_core(core_of(sb), b.pose), params, out);
}
template <class B>
void find_contacts_round_plane(const BodyGeometry& a, const HalfSpace& plane, const BodyGeometry& b, const B& sb,
                               const NarrowphaseParams& params, std::vector<Contact>& out) {
  round_half_space(a, plane, b, world_core(core_of(sb), b.pose), B::kind_info.dims == ShapeDims::Planar, params,
                   out);
}
template <class B>
void find_contacts_round_polyhedron(const BodyGeometry& a, const Polyhedron& pa, const BodyGeometry& b, const B& sb,
                                    const NarrowphaseParams& params, std::vector<Contact>& out) {
  round_polyhedron(a, pa, b, world_core(core_of(sb), b.pose), params, out);
}
template <class B>
void find_contacts_round_polygon(const BodyGeometry& a, const Polygon& pa, const BodyGeometry& b, const B& sb,
                                 const NarrowphaseParams& params, std::vector<Contact>& out) {
  round_polygon(a, pa, b, world_core(core_of(sb), b.pose), params, out);
}
template <class A, class B>
void find_contacts_convex(const BodyGeometry& a, const A&, const BodyGeometry& b, const B&,
                          const NarrowphaseParams& params, std::vector<Contact>& out) {
  convex_pair(a, b, params, out);
}

// A curved contact (FeatureKind::Curved) from A's point, the normal and the gap.
Contact curved_contact(const BodyGeometry& a, const BodyGeometry& b, const Vec3& point_a, const Vec3& normal,
                       double gap, int point);

}  // namespace pegsim
