// A potential contact found by contact determination (thesis 2.3, ch. 3).
//
// Convention (thesis 2.3): the normal n points from body A onto body B, the gap
// psi is signed, and point_b = point_a + psi * n. For vertex-face (3D) and
// vertex-edge (2D) contacts, A owns the face/edge and B owns the vertex, so n is
// the face's outward normal eta. Edge-edge normals follow eq. 3.6.
// Planar contacts live in the z = 0 plane (normal.z() == 0).
#pragma once

#include "math/types.hpp"

#include <cstdint>
#include <tuple>

namespace pegsim {

enum class FeatureKind : std::uint8_t {
  VertexFace,    // 3D: vertex of B against a facet of A (thesis Alg. 6)
  EdgeEdge,      // 3D: edge of A against edge of B (thesis Alg. 7, eq. 3.6)
  VertexEdge,    // 2D: vertex of B against an edge of A (thesis Alg. 5)
  VertexPlane,   // vertex of B against a half-space/half-plane of A
  Overlap,       // a whole overlapping region of A and B, one contact per body pair (the
                 // corrective method, contact/corrective.cpp); feature_a = feature_b = -1
  Curved,        // a point pair of two shapes at least one of which is curved (sphere, capsule, ...:
                 // collision/narrowphase_curved.hpp): no polytope features; feature_b names the point
};

// The features of a polytope contact (thesis ch. 3): which facet, edge or
// vertex of each body, how applicable the pair is and whether it is primary.
// PEG (contact/peg*.cpp), the trap count (contact/traps.hpp) and the warm
// starts' names read them; a contact of a shape kind without features (the
// corrective method's Overlap; a Curved contact, which sets only feature_b to
// name its point for the warm starts) leaves the defaults.
struct PolytopeFeatures {
  int feature_a = -1;  // facet / edge index on A (VertexFace, VertexEdge: facet or edge; EdgeEdge: edge)
  int feature_b = -1;  // vertex / edge index on B
  double applicability = 0.0;  // APPL value (eqs. 3.3-3.5)
  bool primary = true;         // applicable and feasible (thesis 3.5)
};

struct Contact {
  std::uint32_t body_a = 0;  // internal body indices (BodyId::index)
  std::uint32_t body_b = 0;
  FeatureKind kind = FeatureKind::VertexFace;
  // Convex part of a compound body whose features these are (geometry/shape.hpp,
  // thesis 4.5); 0 for a convex body. Features index into that part.
  std::uint16_t part_a = 0;
  std::uint16_t part_b = 0;
  Vec3 point_a = Vec3::Zero();  // world frame
  Vec3 point_b = Vec3::Zero();  // world frame, = point_a + gap * normal
  Vec3 normal = Vec3::UnitZ();  // unit, from A onto B
  double gap = 0.0;             // psi_n, signed (negative: penetration)
  PolytopeFeatures features;    // the polytope kinds' payload (the kind above is every contact's)
};

// The pair of convex parts a contact joins, (body, part, body, part) with the
// lower body first: contacts of one pair of bodies' parts share it whichever
// body is A (thesis 4.5: models work per pair of parts).
using PartPairKey = std::tuple<std::uint32_t, int, std::uint32_t, int>;
inline PartPairKey part_pair_key(const Contact& c) {
  return c.body_a < c.body_b ? PartPairKey{c.body_a, c.part_a, c.body_b, c.part_b}
                             : PartPairKey{c.body_b, c.part_b, c.body_a, c.part_a};
}

// A contact's identity across steps: the name its impulses keep in the warm
// start (sim/warm_start.cpp), and the tie rule of choices that rounding would
// otherwise flip from step to step (dynamics/peg_rows.cpp F2, contact/active_piece.hpp).
inline auto contact_key(const Contact& c) {
  return std::make_tuple(static_cast<int>(c.kind), c.body_a, c.body_b, c.features.feature_a, c.features.feature_b,
                         c.part_a, c.part_b);
}

}  // namespace pegsim
