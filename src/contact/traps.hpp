// Standard-model traps: how often the standard model would constrain a vertex
// against a falsely extended half-space (thesis 4.1, Fig. 4.1; the statistic
// counted per step in thesis Figs. 5.13 and 5.15).
//
// The standard model puts a unilateral constraint on every vertex-facet
// contact found within eps. When one vertex has contacts with several facets
// (edges in 2D) of the same body and lies below one of them, that facet's
// constraint extends it into an infinite half-space the vertex is already
// inside: enforcing it pushes the vertex out through a facet it never crossed
// (thesis Figs. 5.1, 5.11, 5.12) or holds it in the corner (Fig. 4.1).
//
// Definition (model-independent, on the narrowphase's contacts, before any
// contact model): a trap is a group of vertex-facet contacts sharing one
// vertex and one other body, i.e. one (body_b, feature_b, body_a) of
// FeatureKind::VertexEdge (2D), VertexFace (3D) or VertexPlane, that has
//   - two or more contacts, and
//   - at least one with gap psi < -eps_feasible (a negative gap beyond the
//     round-off allowance of feasibility, thesis 3.3).
// The count is the number of such groups. Edge-edge contacts are not counted.
#pragma once

#include "collision/contact.hpp"

#include <vector>

namespace pegsim {

int count_standard_model_traps(const std::vector<Contact>& contacts, double eps_feasible);

}  // namespace pegsim
