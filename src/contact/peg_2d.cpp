// PEG 2D: polytope exact geometry for convex polygons (thesis 4.3,
// Algorithms 8-11).
//
// Contact determination (narrowphase_2d.cpp) reports every vertex-edge pair
// within eps, both ways, each marked primary (APPL >= eps_theta and FEAS,
// thesis 3.5); that is Algorithm 9's C-split test. Per body pair the model
// (Algorithm 11):
//  1. groups the vertex-edge contacts by vertex (the vertex's body and index);
//  2. finds the vertex-vertex configurations (v_a, v_b) and, with
//       e_a1 = (v_a-1, v_a), e_a2 = (v_a, v_a+1)  (edge indices prev(a), a of a
//       counter-clockwise polygon, polygon.hpp), and e_b1, e_b2 alike,
//       C1 = C(v_a, e_b1), C2 = C(v_a, e_b2), C3 = C(v_b, e_a1), C4 = C(v_b, e_a2),
//     emits the X-constraints of Algorithm 10 / eq. 4.17, X({C1}, {C4}) and
//     X({C2}, {C3});
//  3. gives each vertex group one constraint: a U-constraint on a lone contact
//     if it is applicable (eq. 4.16, Algorithm 8 without its FEAS test, D3),
//     an I-constraint I(C-split(group)) on several (eq. 4.9; for a vertex of
//     a configuration this is Algorithm 10's I(C-split{C1, C2}), D2).
// The four constraints of a configuration hold together iff (psi1 >= 0 and
// psi3 >= 0) or (psi2 >= 0 and psi4 >= 0): one of the two ways the corners can
// be apart (Figs. 4.3-4.4). Vertex-plane contacts (half-planes) are
// U-constraints (D6).
//
// Decisions where the pseudo-code leaves a choice, or where we depart from it:
// D1 Vertex-vertex test. The model is not told the contact distance (with
//    eps: auto it differs per body pair), so Algorithm 11's ||v_a - v_b|| <= eps
//    is replaced by "C1..C4 were all found". ||v_a - v_b|| <= eps implies it
//    (v_a ends e_a1 and e_a2, so dist(v_b, e_a*) <= ||v_a - v_b||); conversely,
//    with v_a outside B, one of e_b1, e_b2 has v_b as its point nearest v_a, so
//    finding C1 and C2 means ||v_a - v_b|| <= eps. The two differ only when
//    each vertex is inside the other body.
// D2 One I-constraint per vertex with several contacts, over all of them
//    (thesis 4.2.2, Fig. 4.5: "a vertex against multiple features"). Where an
//    edge is shorter than eps a vertex is in two configurations; one I over
//    three edges states max(psi) >= 0 over the three, which two overlapping
//    I's would state with duplicate rows. Outside any configuration Algorithm
//    11 would give each contact Algorithm 8's U instead; a vertex gets there
//    near an acute corner it is not within eps of, e.g. in triangle-drop at
//    h = 0.016 s the vertex sliding down the 60-degree face is 0.14 m inside
//    the base's line (within eps of that edge) but 0.166 m from the base
//    corner. The I lets it pass the corner and never pushes on the deep one.
// D3 Feasibility does not drop a contact. Algorithm 8 gives a lone vertex-edge
//    contact its U only if APPL >= eps_theta and FEAS; we keep the APPL test
//    and drop the FEAS one. A vertex within eps of one edge only is in that
//    edge's Voronoi slab (D1: else it is within eps of an end vertex and its
//    other edge), so it is infeasible only when it is inside the body deeper
//    than eps_feasible: it has gone through that edge and must be pushed
//    back. Algorithm 8 would leave it free, and it stays infeasible: in a 2D
//    pile of fast-spinning polygons (h = 0.01 s, 17 rad/s) a vertex with
//    APPL = -0.107 < eps_theta swung 5 mm through a static edge in one step
//    and the body then fell through the floor. (Keeping non-applicable lone
//    contacts too fixes that case as well, but makes false constraints where
//    a corner is just outside a configuration: in triangle-drop at
//    h = 0.016 s, 0.166 m from a vertex with eps = 0.16 m, a non-applicable
//    corner against the sliding triangle's base line gave it a spurious
//    kick and spin.) Likewise an I-constraint whose C_iota is empty (thesis
//    4.2.2: it "requires there be at least one contact in C_iota") is kept,
//    D4 choosing its first sub-contact among all of them.
// D4 The first primary carries eq. 4.11 through eq. 4.14 (its force may act
//    whenever the largest gap is zero); the others get d slacks (eqs. 4.12-
//    4.13: force only when their own gap is that zero maximum). The first is
//    the one most likely to be touching at the end of the step: among the
//    primaries with gap >= -eps_feasible the smallest gap, else the largest
//    gap (the least penetrating); ties keep contact order. (The reference
//    MATLAB code, rpi-matlab-simulator's peg_heuristic, also takes the
//    smallest non-negative gap.)
// D5 An X-constraint is written as an I-constraint with one force (thesis
//    4.2.3, 4.7). Which sub-contact carries it is the formulation's choice
//    (peg_rows.cpp, F2: the one predicted to hold the maximum); the order
//    given here only breaks ties: the primary one, or between two primaries
//    D4's choice, between two secondaries the larger gap. It lists no
//    friction: friction rows belong to the contact, and the formulation bounds
//    them by every normal impulse on that contact (U p_nIX of eq. 4.49).
// D6 Every vertex-plane contact is a U-constraint, as in the standard model: a
//    half-plane has no corner, so no trap and nothing to group.
// D7 An X-constraint of eq. 4.17 is written unless both its sub-contacts are
//    false extensions: vertices that project outside the other's edge
//    segment, so that their gaps are distances to the edges' lines beyond the
//    corner. Two such gaps can both be negative while the polygons are apart
//    (rectangles turned by about 90 degrees, corners 1 cm apart: gaps of -1 mm
//    and -1 cm), and the X-constraint then traps as the standard model does.
//    Found by tests/contact/peg_exactness_test.cpp (PEG's constraints hold iff
//    the bodies are apart, against the separating axis theorem); with D7 it
//    finds neither a trap nor an accepted overlap in 2000 + 2000 samples.
//    PEG 3D makes the same choice for edge-edge contacts (peg_3d.cpp P5).
//
// Known limitation (not a decision): eq. 4.17 describes two corners whose
// edges are longer than eps. Where an edge is shorter, a vertex is within eps
// of three edges of the other body and in two configurations, the other
// body's boundary turns again inside them, and bodies that are apart can
// violate an X-constraint; the psi/h term then pushes them apart with an
// impulse that can add energy (seen in a scratch pile of random hulls, 10
// points in 0.5 m squares, h = 0.01 s, eps = 0.1 m: once 52 J in one step).
// Leaving those configurations without X-constraints instead let two bodies
// sink 9 cm into each other edge through edge, the crossing of thesis Fig.
// 4.4. So no workaround is applied: eq. 4.17 is kept as the thesis writes it.
#include "contact/peg.hpp"
#include "contact/peg_writer.hpp"

#include <algorithm>
#include <utility>
#include <vector>

namespace pegsim {
namespace {

using VertexKey = std::pair<std::uint32_t, int>;  // (body owning the vertex, vertex index)

// The polygon of a body's part (a compound body is a union of convex parts,
// thesis 4.5; a body pair's contacts all come from one pair of parts).
const Polygon* polygon_of(const Model& model, std::uint32_t body, int part) {
  return std::get_if<Polygon>(&part_of(model.bodies[body].shape, part));
}

// A vertex's vertex-edge contacts: a run of Groups::members.
struct Group {
  const int* begin;
  const int* end;
};

// The vertex-edge contacts of a body pair grouped by vertex: sorted
// (vertex, contact) pairs, each group a run, in pair order within it. Storage
// kept by the thread (issue 11 item 5: a steady step allocates nothing).
struct Groups {
  std::vector<std::pair<VertexKey, int>> keyed;
  std::vector<int> members;          // keyed[k].second
  std::vector<std::size_t> starts;   // group g: members[starts[g] .. starts[g + 1])

  std::size_t size() const { return starts.size() - 1; }
  const VertexKey& key(std::size_t g) const { return keyed[starts[g]].first; }
  Group group(std::size_t g) const { return {members.data() + starts[g], members.data() + starts[g + 1]}; }
  // The group of vertex `key`, or size() when it has none.
  std::size_t find(const VertexKey& key) const {
    std::size_t lo = 0, hi = size();
    while (lo < hi) {  // binary search over the groups' keys
      const std::size_t mid = (lo + hi) / 2;
      if (this->key(mid) < key) lo = mid + 1;
      else hi = mid;
    }
    return lo < size() && this->key(lo) == key ? lo : size();
  }
  void build() {
    std::sort(keyed.begin(), keyed.end());
    members.resize(keyed.size());
    starts.assign(1, 0);
    for (std::size_t k = 0; k < keyed.size(); ++k) {
      members[k] = keyed[k].second;
      if (k > 0 && keyed[k].first != keyed[k - 1].first) starts.push_back(k);
    }
    if (!keyed.empty()) starts.push_back(keyed.size());
  }
};

// The contact of a vertex group against edge `edge` of the other body, or -1.
int find_edge(Group group, const std::vector<Contact>& contacts, int edge) {
  for (const int* i = group.begin; i != group.end; ++i)
    if (contacts[*i].features.feature_a == edge) return *i;
  return -1;
}

// Sub-contacts C1..C4 of Algorithm 10 (input contact indices).
struct VertexVertex {
  int c1, c2, c3, c4;
};

// D1: (v_a, v_b) is a configuration when v_a has contacts with both edges at
// v_b and v_b with both edges at v_a.
void find_vertex_vertex(const Model& model, const std::vector<Contact>& contacts, const Groups& groups,
                        std::vector<VertexVertex>& out) {
  thread_local std::vector<std::pair<VertexKey, VertexKey>> seen;  // few per pair: a list
  seen.clear();
  for (std::size_t ga = 0; ga < groups.size(); ++ga) {
    const VertexKey& key_a = groups.key(ga);
    const Group group_a = groups.group(ga);
    const Polygon* pa = polygon_of(model, key_a.first, contacts[*group_a.begin].part_b);
    if (!pa) continue;
    const int va = key_a.second;
    for (const int* i = group_a.begin; i != group_a.end; ++i) {
      const std::uint32_t body_b = contacts[*i].body_a;  // the edge's owner
      const Polygon* pb = polygon_of(model, body_b, contacts[*i].part_a);
      if (!pb) continue;
      const int edge = contacts[*i].features.feature_a;
      for (int vb : {edge, pb->next(edge)}) {
        const VertexKey key_b{body_b, vb};
        const std::pair<VertexKey, VertexKey> both = std::minmax(key_a, key_b);
        if (std::find(seen.begin(), seen.end(), both) != seen.end()) continue;
        seen.push_back(both);
        const std::size_t gb = groups.find(key_b);
        if (gb == groups.size()) continue;
        const Group group_b = groups.group(gb);
        const VertexVertex v{find_edge(group_a, contacts, pb->prev(vb)), find_edge(group_a, contacts, vb),
                             find_edge(group_b, contacts, pa->prev(va)), find_edge(group_b, contacts, va)};
        if (v.c1 < 0 || v.c2 < 0 || v.c3 < 0 || v.c4 < 0) continue;
        out.push_back(v);
      }
    }
  }
}

// D7: the vertex of vertex-edge contact c projects onto the edge's segment.
bool projects_on_edge(const Model& model, const State& state, const Contact& c) {
  const Polygon* polygon = polygon_of(model, c.body_a, c.part_a);
  if (!polygon) return true;
  const Pose& pose = state.bodies[c.body_a].pose;
  const Vec2 p = pose.to_world_2d(polygon->vertices[static_cast<std::size_t>(c.features.feature_a)]);
  const Vec2 q = pose.to_world_2d(polygon->vertices[static_cast<std::size_t>(polygon->next(c.features.feature_a))]);
  const Vec2 d = q - p;
  const double t = (Vec2(c.point_a.x(), c.point_a.y()) - p).dot(d) / d.squaredNorm();
  return t >= -1e-9 && t <= 1.0 + 1e-9;
}

}  // namespace

// Algorithm 11 for the contacts of one body pair (input indices, in order).
void peg_2d_body_pair(const Model& model, const State& state, const std::vector<Contact>& contacts,
                      const std::vector<int>& pair, PegWriter& writer) {
  thread_local Groups groups;  // ordered by vertex: deterministic output
  thread_local std::vector<int> group;
  thread_local std::vector<VertexVertex> configurations;
  groups.keyed.clear();
  for (int i : pair) {
    const Contact& c = contacts[i];
    if (c.kind == FeatureKind::VertexEdge) groups.keyed.push_back({{c.body_b, c.features.feature_b}, i});
    else writer.u(i);  // D6 (vertex-plane)
  }
  groups.build();
  const bool lnc = writer.variant() == PegVariant::Lnc;
  configurations.clear();
  if (!lnc) find_vertex_vertex(model, contacts, groups, configurations);
  for (std::size_t g = 0; g < groups.size(); ++g) {
    const Group members = groups.group(g);
    group.assign(members.begin, members.end);
    if (group.size() > 1) writer.i(group);  // eq. 4.9, D2
    else if (lnc || contacts[group[0]].features.applicability >= model.options.eps_theta) writer.u(group[0]);  // Alg. 8, D3
  }
  auto on_edges = [&](int a, int b) {
    return projects_on_edge(model, state, contacts[a]) || projects_on_edge(model, state, contacts[b]);
  };
  for (const VertexVertex& v : configurations) {  // eq. 4.17, D7
    if (on_edges(v.c1, v.c4)) writer.x(writer.add(v.c1), writer.add(v.c4));
    if (on_edges(v.c2, v.c3)) writer.x(writer.add(v.c2), writer.add(v.c3));
  }
}

}  // namespace pegsim
