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
#include "contact/peg_2d.hpp"

#include <algorithm>
#include <map>
#include <set>
#include <stdexcept>
#include <utility>
#include <vector>

namespace pegsim {
namespace {

using VertexKey = std::pair<std::uint32_t, int>;  // (body owning the vertex, vertex index)

const Polygon* polygon_of(const Model& model, std::uint32_t body) {
  return std::get_if<Polygon>(&model.bodies[body].shape);
}

// The contact of a vertex group against edge `edge` of the other body, or -1.
int find_edge(const std::vector<int>& group, const std::vector<Contact>& contacts, int edge) {
  for (int i : group)
    if (contacts[i].feature_a == edge) return i;
  return -1;
}

// Sub-contacts C1..C4 of Algorithm 10 (input contact indices).
struct VertexVertex {
  int c1, c2, c3, c4;
};

class Builder {
 public:
  Builder(const Model& model, const std::vector<Contact>& contacts, ConstraintSet& out)
      : model_(model), contacts_(contacts), out_(out), out_index_(contacts.size(), -1),
        tolerance_(model.options.eps_feasible) {}

  // Algorithm 11 for the contacts of one body pair (input indices, in order).
  void body_pair(const std::vector<int>& pair) {
    std::map<VertexKey, std::vector<int>> groups;  // ordered: deterministic output
    for (int i : pair) {
      const Contact& c = contacts_[i];
      if (c.kind == FeatureKind::VertexEdge) groups[{c.body_b, c.feature_b}].push_back(i);
      else emit_u(i);  // D6 (vertex-plane)
    }
    std::vector<VertexVertex> configurations;
    find_vertex_vertex(groups, configurations);
    for (const auto& [vertex, group] : groups) {
      if (group.size() > 1) emit_i(group);  // eq. 4.9, D2
      else if (contacts_[group[0]].applicability >= model_.options.eps_theta) emit_u(group[0]);  // Alg. 8, D3
    }
    for (const VertexVertex& v : configurations) {  // eq. 4.17
      emit_x(v.c1, v.c4);
      emit_x(v.c2, v.c3);
    }
  }

 private:
  // D1: (v_a, v_b) is a configuration when v_a has contacts with both edges at
  // v_b and v_b with both edges at v_a.
  void find_vertex_vertex(const std::map<VertexKey, std::vector<int>>& groups, std::vector<VertexVertex>& out) const {
    std::set<std::pair<VertexKey, VertexKey>> seen;
    for (const auto& [key_a, group_a] : groups) {
      const Polygon* pa = polygon_of(model_, key_a.first);
      if (!pa) continue;
      const int va = key_a.second;
      for (int i : group_a) {
        const std::uint32_t body_b = contacts_[i].body_a;  // the edge's owner
        const Polygon* pb = polygon_of(model_, body_b);
        if (!pb) continue;
        const int edge = contacts_[i].feature_a;
        for (int vb : {edge, pb->next(edge)}) {
          const VertexKey key_b{body_b, vb};
          if (!seen.insert(std::minmax(key_a, key_b)).second) continue;
          const auto it = groups.find(key_b);
          if (it == groups.end()) continue;
          const VertexVertex v{find_edge(group_a, contacts_, pb->prev(vb)), find_edge(group_a, contacts_, vb),
                               find_edge(it->second, contacts_, pa->prev(va)),
                               find_edge(it->second, contacts_, va)};
          if (v.c1 < 0 || v.c2 < 0 || v.c3 < 0 || v.c4 < 0) continue;
          out.push_back(v);
        }
      }
    }
  }

  // D4: the primary that carries eq. 4.11 (index into `primaries`).
  int first_primary(const std::vector<int>& primaries) const {
    int best = -1;
    for (std::size_t k = 0; k < primaries.size(); ++k) {
      const double gap = contacts_[primaries[k]].gap;
      if (gap < -tolerance_) continue;
      if (best < 0 || gap < contacts_[primaries[best]].gap) best = static_cast<int>(k);
    }
    if (best >= 0) return best;
    best = 0;
    for (std::size_t k = 1; k < primaries.size(); ++k)
      if (contacts_[primaries[k]].gap > contacts_[primaries[best]].gap) best = static_cast<int>(k);
    return best;
  }

  int add(int input) {
    int& index = out_index_[static_cast<std::size_t>(input)];
    if (index < 0) {
      const Contact& c = contacts_[input];
      index = static_cast<int>(out_.contacts.size());
      out_.contacts.push_back(
          ConstrainedContact{c, model_.mu(model_.bodies[c.body_a].material, model_.bodies[c.body_b].material)});
    }
    return index;
  }

  void emit_u(int input) {  // eq. 4.7-4.8
    ContactConstraint u;
    u.kind = ConstraintKind::U;
    u.contacts = {add(input)};
    if (out_.contacts[u.contacts[0]].mu > 0.0) u.friction = u.contacts;
    out_.constraints.push_back(std::move(u));
  }

  // I(C_iota, C_kappa) of eq. 4.9 over one vertex's contacts (Algorithm 9 split).
  void emit_i(const std::vector<int>& group) {
    std::vector<int> primaries, secondaries;
    for (int i : group) (contacts_[i].primary ? primaries : secondaries).push_back(i);
    if (primaries.empty()) {  // D3: promote one
      const int f = first_primary(secondaries);
      primaries = {secondaries[static_cast<std::size_t>(f)]};
      secondaries.erase(secondaries.begin() + f);
    }
    const auto first = primaries.begin() + first_primary(primaries);
    std::rotate(primaries.begin(), first, first + 1);  // D4: to the front, the others keep their order
    ContactConstraint k;
    k.kind = ConstraintKind::I;
    k.primaries = static_cast<int>(primaries.size());
    for (int i : primaries) {
      k.contacts.push_back(add(i));
      if (out_.contacts[k.contacts.back()].mu > 0.0) k.friction.push_back(k.contacts.back());
    }
    for (int i : secondaries) k.contacts.push_back(add(i));
    out_.constraints.push_back(std::move(k));
  }

  // X({a}, {b}) (eq. 4.15), as an I-constraint with one force (D5).
  void emit_x(int a, int b) {
    const Contact& ca = contacts_[a];
    const Contact& cb = contacts_[b];
    bool b_first = false;
    if (ca.primary != cb.primary) b_first = cb.primary;
    else if (ca.primary) b_first = first_primary({a, b}) == 1;
    else b_first = cb.gap > ca.gap;
    if (b_first) std::swap(a, b);
    ContactConstraint x;
    x.kind = ConstraintKind::X;
    x.primaries = 1;
    x.contacts = {add(a), add(b)};
    out_.constraints.push_back(std::move(x));
  }

  const Model& model_;
  const std::vector<Contact>& contacts_;
  ConstraintSet& out_;
  std::vector<int> out_index_;  // input contact -> index in out_.contacts (-1: not used)
  double tolerance_;
};

class Peg2dModel final : public ContactModel {
 public:
  std::string_view name() const override { return "peg"; }

  void build(const Model& model, const State& /*state*/, const std::vector<Contact>& contacts,
             ConstraintSet& out) override {
    out.clear();
    if (model.options.dimension != Dimension::Planar) throw std::invalid_argument(kPeg3dMessage);
    // contacts of one body pair, in order of first appearance (they arrive grouped)
    pairs_.clear();
    pair_of_.clear();
    for (std::size_t i = 0; i < contacts.size(); ++i) {
      const auto key = std::minmax(contacts[i].body_a, contacts[i].body_b);
      const auto [it, added] = pair_of_.try_emplace(key, static_cast<int>(pairs_.size()));
      if (added) pairs_.emplace_back();
      pairs_[static_cast<std::size_t>(it->second)].push_back(static_cast<int>(i));
    }
    Builder builder(model, contacts, out);
    for (const std::vector<int>& pair : pairs_) builder.body_pair(pair);
  }

 private:
  std::vector<std::vector<int>> pairs_;
  std::map<std::pair<std::uint32_t, std::uint32_t>, int> pair_of_;
};

}  // namespace

std::unique_ptr<ContactModel> make_peg_2d_model() { return std::make_unique<Peg2dModel>(); }

}  // namespace pegsim
