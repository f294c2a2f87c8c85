// PEG 3D: polytope exact geometry for convex polyhedra (thesis 4.4,
// Algorithms 12-17), and the LNC model's 3D reading.
//
// Contact determination (narrowphase_3d.cpp) reports every vertex-face pair
// within eps both ways, where "within eps" is the distance to the facet
// polygon, and every non-parallel edge-edge pair within eps, including those
// whose nearest point is an edge end; each is marked primary (applicable and
// feasible, thesis 3.5). Per body pair the model:
//  1. groups the vertex-face contacts by vertex (vertex's body and index) and
//     gives each group one constraint: a U-constraint on a lone contact if it
//     is applicable (Algorithm 12 without its FEAS test: peg_2d.cpp D3), an
//     I-constraint I(C-split(group)) on several (eqs. 4.20-4.21, P1);
//  2. finds the vertex-edge configurations (v, e): v's group has contacts
//     with both facets of e (P2), and writes Algorithm 14's X-constraints for
//     them (eq. 4.20; for two vertices near each other, the edges at each give
//     Algorithm 16's, eq. 4.22, P3);
//  3. gives every edge-edge contact not used by an X-constraint a
//     U-constraint if it is applicable (Algorithm 13, P4).
// Vertex-plane contacts (half-spaces) are U-constraints (peg_2d.cpp D6).
//
// Decisions where the pseudo-code leaves a choice or has a slip:
// P1 One I-constraint per vertex over all its vertex-face contacts with the
//    other body, not one per configuration. For a vertex within eps of a
//    convex body, "outside the body" is exactly "above at least one facet
//    plane among the facets within eps" (the facet holding its nearest point
//    is among them), which is what I over the group states (eq. 4.1).
//    Algorithm 15's I(C-split{C1, C2}) and Algorithm 16's I over the facets
//    at v_b are the same constraint on fewer facets; where a vertex is in two
//    configurations (edges shorter than eps) two overlapping I's would state
//    it twice with duplicate rows (as in 2D, peg_2d.cpp D2).
// P2 Configuration test. The model is not told the contact distance (with
//    eps: auto it differs per body pair), so Algorithm 17's
//    point-segment-distance(e_b, v_a) <= eps is replaced by "v_a has contacts
//    with both facets of e_b". The distance to a facet polygon is at most the
//    distance to its edge, so the thesis's test implies ours; ours is what the
//    X-constraints need (they are written on C1 and C2). For
//    ||v_a - v_b|| <= eps, every edge at v_b passes the test, so Algorithm
//    16's loops over the edges at v_b (and at v_a, from v_b's group) are
//    covered by the same test; no separate vertex-vertex pass is needed.
// P3 Algorithm 14 as written, with e_a directed away from v_a and both
//    e_a and O_eb normalised (the thesis compares e_a/|e_a| . O_eb with
//    |eps_theta| and leaves O_eb = e_b x -(eta_b1 + eta_b2) unnormalised,
//    which would make the test depend on |e_b|). O_eb points into f_b1 (the
//    facet on the edge's left seen from outside, polyhedron.hpp's face_1).
//    Its "I(C-split(C1, C(e_a, e_b)))" is an X-constraint over single
//    contacts (eq. 4.20: X({C_ei}, {C1})); it is written as one (one force,
//    placed by the formulation: peg_rows.cpp F2). The flipped copy C4 of
//    the both-facets branch is a contact of its own in the set, with normal
//    and gap negated (points unchanged, so point_b = point_a + gap n holds).
// P4 Algorithm 17's edge-edge loop calls PEG-3D-vertex-face, a slip for
//    PEG-3D-edge-edge (Algorithm 13). Its guard "not e_a.collision or not
//    e_b.collision" keeps edge-edge contacts out of U-constraints when both
//    edges were marked by a vertex configuration: the purpose (4.4, before
//    Algorithm 14) is not to constrain twice what an X-constraint already
//    masks. Read literally it would also drop a genuine mid-edge crossing of
//    two edges that happen to touch configurations elsewhere, so the test is
//    made on the contact itself: an edge-edge contact gets a U-constraint
//    unless it is one of the C(e_a, e_b) of an X-constraint.
// P5 The gap of an edge-edge contact is the distance between the edges'
//    lines (narrowphase_3d.cpp), a false extension where the lines come
//    closest outside a segment, as a facet's plane is outside its polygon:
//    two corners apart by 1 mm had lines crossing 7 cm "deep" behind them,
//    and an X-constraint on such a contact traps as the standard model does
//    (tests/contact/peg_exactness_test.cpp found it). So Algorithm 14 drops
//    C(e_a, e_b) when it is violated (gap < -eps_feasible) and the lines come
//    closest outside a segment: e_a has not crossed e_b there. Unless the
//    two parts overlap at least as deep as the contact is violated (separating
//    axis depth >= -gap - eps_feasible): then the contact asks for no more
//    than separating the pair needs, and it is the one that holds a vertex
//    riding across e_b, whose edge crosses e_b a few micrometres past the
//    vertex once the step's rotation error (thesis 5.3) has let it dip in
//    (box-of-polyhedra seed 1 at h = 0.002 sank two polyhedra 2 mm into each
//    other without it; tests/sim/peg_pour_test.cpp). Bodies that are apart
//    never keep such a contact, so the exactness test is unchanged. A satisfied one
//    is kept: it stops e_a from crossing e_b during the step (cracked-ramp: a
//    cube's bottom edge reaching the seam of a 0.1 mm step down would dip
//    0.1 mm into the upper slab's edge without it). Step 3 gives a U-constraint only to contacts
//    whose lines come closest strictly inside both segments, the edge-edge
//    contact of 4.4.2; the others are vertex-edge or vertex-vertex
//    configurations, held by the vertices' I-constraints and the X-constraints.
// P6 The same test on step 3's U-constraints. An edge-edge contact's normal
//    is e_a x e_b signed by eq. 3.6 from the edges' facets; once the pair is
//    no longer applicable (APPL < 0, admitted by eps_theta's relaxation over
//    a fast rotation) that sign can point the wrong way, and two edges
//    3.7 mm apart read as crossed 3.7 mm deep while the bodies do not
//    overlap at all. A U-constraint on it demands 0.74 m/s of separation
//    along the wrong normal against the pair's true edge-edge contact,
//    nearly opposite: Lemke met both with opposing normal impulses of
//    290 N s, their friction launched a 2 kg polyhedron at 120 rad/s, and the
//    next step's eps: auto took in 800 contacts (random-pour seed 43,
//    tests/sim/pour_budget_test.cpp). Likewise in Algorithm 14: an
//    X-constraint over such a contact and the vertex's non-applicable facet
//    contact, both 3.6 cm "deep" between bodies apart, launched a body at
//    150 rad/s (pour seed 53). So a violated edge-edge contact whose lines
//    meet on both segments is constrained only when the parts overlap at all
//    (admissible() below); P5's rule stays for the others.
// P7 Algorithm 14 skips an X-constraint whose edge-edge contact C(e_a, e_b),
//    or its flipped copy C4, pushes opposite its facet contact C(v_a, f)
//    (normals opposite within the angle of applicability, sin(theta) =
//    -eps_theta, under which PEG takes directions as one). That happens where e_a lies
//    flat in f (a pad's edge flush with a box's face, its corner at the box's
//    edge): the edge-edge contact is then the facet contact with its normal
//    reversed at (up to the edges' crossing point) the same place, rho_C =
//    -rho_f, and max(rho_f, rho_C) = |rho_f| >= 0 holds for every motion: the
//    X-constraint excludes nothing (tilted by theta, a wedge of motions theta
//    wide). Its one force, though, may act whenever
//    rho_f = 0 (dynamics/peg_rows.cpp F2), opposite the vertex's own I- or
//    U-constraint force on C(v_a, f): a pair of opposing impulses of any size,
//    and friction bounded by them, so any friction at all. arm7-gripper holding
//    a 6 cm cube level with the pads' top corners met such pairs of 1.2e7 N s
//    in a solve accepted at tolerance 1e-7; they threw the pads apart at
//    0.42 m/s (docs/experiments.md, "arm7-grasp-box"). A tighter angle does
//    not do: the placement stays flush only to about 1e-5 rad, and a pair
//    tilted by theta still cancels all but theta of its size (6.4e4 N s pairs
//    at 1e-6 rad). The vertex's I-constraint over its facets still holds it
//    outside the body.
// P8 P6's test lets a violated edge-edge contact in when the parts overlap
//    anywhere, and a contact whose eq. 3.6 sign turned (P6) claims a
//    crossing where the edges are apart: random pour seed 53, on another
//    trajectory (a second Lemke rule set, docs/performance.md "Piles that
//    started inside each other"), put a U-constraint (step 3) on an
//    edge-edge contact "1.9 cm deep" (applicability -0.035, admitted by
//    eps_theta: auto over a 24 rad/s spin) between bodies that overlapped
//    0.97 mm elsewhere, its edges 1.6-1.9 cm apart. Against the vertex-face
//    contact 4.4 degrees from opposite (another constraint, so P7 does not
//    apply) Lemke and PATH both found impulses of 2.5e5 N s, and the pour
//    went from 43 J to 18,000 J. A genuine crossing d deep puts each edge's
//    witness point about d inside the other part; so a violated contact
//    whose lines meet on both segments (step 3's, and Algorithm 14's C3 and
//    its flipped copy C4) is kept only when one of its witness points lies
//    inside the other part or outside it by no more than the parts overlap
//    (admissible() below).
// P9 P7 compares an X-constraint's edge-edge contact only with its own facet
//    contact. Random pour seed 903 met the flipped copy C4 of a contact whose
//    edges were 0.14 mm apart (so C4 read 0.14 mm "deep": P8 keeps it, its
//    witness points within the parts' 2.7 mm overlap elsewhere), pushing 7.7
//    degrees from opposite an applicable vertex-face contact of another
//    constraint of the same pair; Lemke solved the island with opposing
//    impulses of up to 8.6e5 N s and the hulls gained 131,600 J. Two convex
//    parts cannot be pushed apart both ways: a violated edge-edge contact
//    (C3 or C4) of Algorithm 14 that opposes, as P7 judges it, any applicable
//    vertex-face contact of the pair is dropped (opposes_pair()). Over 1000
//    random pours with the energy bound off (sim/impulse_energy.hpp): no
//    seed gains energy (seed 903 did), solver failures 24 -> 16; no golden
//    hash moved.
// P10 A satisfied one can still not hold beside the contact it opposes. With
//    the energy bound on, pours 98, 492, 812 and 517 had certified solves
//    scaled by it: a flipped copy C4, its edges 5e-6 to 9e-5 m apart, opposite
//    an applicable contact 1e-4 m deep (a vertex-face contact; in 517 the C3
//    of the same edge against a neighbouring edge of the other vertex, whose
//    normal agrees with the pair's faces). Along opposite normals the pair's
//    relative motion d must meet n.d >= -gap_1 and n.d <= gap_2, which no
//    translation does once gap_1 + gap_2 < 0; Lemke met the two with
//    opposing impulses of ~100 N s that cancelled up to the couple between
//    their points, and the friction they allowed gave the hulls energy
//    (thesis 4.8). So P9 also drops a satisfied C3 or C4 that opposes an
//    applicable contact of the pair, vertex-face or edge-edge (not its own
//    source), when their gaps sum below -eps_feasible. 1000 pours: islands
//    scaled by the energy bound 5 -> 0, solver failures 19 -> 11; with the
//    bound off, no seed gains energy (tests/sim/pour_budget_test.cpp).
//
// LNC (PegVariant::Lnc): step 1 with every contact a primary (no C-split) and
// every lone contact constrained, no step 2, and a U-constraint on every
// applicable edge-edge contact whose lines come closest inside both segments (P5): the
// vertex-against-a-convex-set model of eqs. 4.2-4.4 (dvc3D section 4.2 defines
// it for vertices; with P5 its edge-edge contacts do not trap either). Where
// edges cross next to a corner it has nothing: that is the interpenetration
// thesis 4.1 (Fig. 4.4) says LNC permits.
#include "contact/peg.hpp"
#include "geometry/penetration.hpp"
#include "geometry/plane_height.hpp"

#include <algorithm>
#include <cmath>
#include <array>
#include <iterator>
#include <tuple>
#include <utility>
#include <vector>

namespace pegsim {
namespace {

using VertexKey = std::pair<std::uint32_t, int>;      // (body owning the vertex, vertex index)
using EdgePairKey = std::tuple<std::uint32_t, int, int>;  // (body of edge 1, edge 1, edge 2 of the other body)

// A pair's working lists, flat and sorted where the thesis' reading groups or
// looks up (the storage is the thread's: a steady step allocates nothing
// here, issue 11 item 5).
struct PairScratch {
  std::vector<std::pair<VertexKey, int>> vertex_contacts;  // (vertex, contact), sorted: the groups as runs
  std::vector<int> group;                                   // one group's contacts, in order
  std::vector<int> edge_edge;
  std::vector<std::pair<EdgePairKey, int>> edge_pairs;      // sorted; a key's last contact counts
  std::vector<std::pair<int, int>> facet_contact;           // (facet of q, contact), sorted, first per facet
  std::vector<int> used;  // edge-edge contacts (input indices) used by an X-constraint (P4); few per pair
};

// Parameters (s, t) of the closest approach of the lines p1 + s d1 and
// p2 + t d2 (not parallel: the narrowphase skips parallel edges).
void line_parameters(const Vec3& p1, const Vec3& d1, const Vec3& p2, const Vec3& d2, double& s, double& t) {
  const Vec3 r = p1 - p2;
  const double a = d1.dot(d1), b = d1.dot(d2), c = d2.dot(d2), d = d1.dot(r), e = d2.dot(r);
  const double det = a * c - b * b;
  s = (b * e - c * d) / det;
  t = (a * e - b * d) / det;
}

constexpr double kOnSegment = 1e-9;  // slack on line parameters in [0, 1] (P5)

bool within(double u) { return u >= -kOnSegment && u <= 1.0 + kOnSegment; }

class Pair3d {
 public:
  Pair3d(const Model& model, const State& state, const std::vector<Contact>& contacts, PegWriter& writer,
         PairScratch& scratch)
      : model_(model), state_(state), contacts_(contacts), writer_(writer), s_(scratch) {}

  void build(const std::vector<int>& pair) {
    if (pair.empty()) return;
    const Contact& first = contacts_[pair.front()];  // all of one pair of parts (thesis 4.5)
    part_body_ = {first.body_a, first.body_b};
    part_ = {first.part_a, first.part_b};
    s_.vertex_contacts.clear();
    s_.edge_edge.clear();
    s_.edge_pairs.clear();
    s_.used.clear();
    for (int i : pair) {
      const Contact& c = contacts_[i];
      if (c.kind == FeatureKind::VertexFace) {
        s_.vertex_contacts.push_back({{c.body_b, c.features.feature_b}, i});
      } else if (c.kind == FeatureKind::EdgeEdge) {
        s_.edge_edge.push_back(i);
        s_.edge_pairs.push_back({{c.body_a, c.features.feature_a, c.features.feature_b}, i});
        s_.edge_pairs.push_back({{c.body_b, c.features.feature_b, c.features.feature_a}, i});
      } else {
        writer_.u(i);  // vertex-plane
      }
    }
    // ordered by vertex, each group's contacts in pair order: deterministic output
    std::sort(s_.vertex_contacts.begin(), s_.vertex_contacts.end());
    std::sort(s_.edge_pairs.begin(), s_.edge_pairs.end());
    const bool lnc = writer_.variant() == PegVariant::Lnc;
    const double eps_theta = model_.options.eps_theta;
    for_each_group([&](const VertexKey&, const std::vector<int>& group) {  // step 1, P1
      if (group.size() > 1) writer_.i(group);
      else if (lnc || contacts_[group[0]].features.applicability >= eps_theta) writer_.u(group[0]);  // Alg. 12
    });
    if (!lnc)
      for_each_group([&](const VertexKey& vertex, const std::vector<int>& group) {
        vertex_edge_configurations(vertex, group);  // step 2
      });
    for (int i : s_.edge_edge) {  // step 3, Algorithm 13, P4, P5, P6, P8
      if (!lines_meet_on_segments(contacts_[i], true)) continue;
      if (!used(i) && contacts_[i].features.applicability >= eps_theta && admissible(contacts_[i], true))
        writer_.u(i);  // LNC: used stays empty
    }
  }

 private:
  // Calls f(vertex, group) for each vertex's vertex-face contacts (thesis 4.3 step 1), by vertex.
  template <class F>
  void for_each_group(F f) {
    const auto& vc = s_.vertex_contacts;
    for (std::size_t k = 0; k < vc.size();) {
      std::size_t end = k + 1;
      while (end < vc.size() && vc[end].first == vc[k].first) ++end;
      s_.group.clear();
      for (std::size_t j = k; j < end; ++j) s_.group.push_back(vc[j].second);
      f(vc[k].first, s_.group);
      k = end;
    }
  }

  // The input contact of edge pair `key` (the last one given, as an
  // assignment to a map would keep), -1 when none.
  int edge_pair(const EdgePairKey& key) const {
    const auto& v = s_.edge_pairs;
    const auto it = std::upper_bound(v.begin(), v.end(), key,
                                     [](const EdgePairKey& k, const std::pair<EdgePairKey, int>& e) { return k < e.first; });
    return it != v.begin() && std::prev(it)->first == key ? std::prev(it)->second : -1;
  }

  // P2: every edge of the other body both of whose facets v has contacts with.
  void vertex_edge_configurations(const VertexKey& vertex, const std::vector<int>& group) {
    const std::uint32_t body_q = contacts_[group[0]].body_a;  // the facets' owner
    const Polyhedron* q = polyhedron(body_q);
    if (!q || !polyhedron(vertex.first)) return;
    auto& facet_contact = s_.facet_contact;  // facet of q -> input contact (the first in the group)
    facet_contact.clear();
    for (int i : group) facet_contact.push_back({contacts_[i].features.feature_a, i});
    std::sort(facet_contact.begin(), facet_contact.end());
    facet_contact.erase(std::unique(facet_contact.begin(), facet_contact.end(),
                                    [](const auto& x, const auto& y) { return x.first == y.first; }),
                        facet_contact.end());
    for (const auto& [facet, c1] : facet_contact) {
      for (int e : q->faces[static_cast<std::size_t>(facet)].edges) {
        const PolyEdge& edge = q->edges[static_cast<std::size_t>(e)];
        if (edge.face_1 != facet) continue;  // each edge once, from its f_b1
        const auto c2 = std::lower_bound(facet_contact.begin(), facet_contact.end(), std::pair{edge.face_2, -1});
        if (c2 != facet_contact.end() && c2->first == edge.face_2) x_constraints(vertex, body_q, e, c1, c2->second);
      }
    }
  }

  // Algorithm 14 for vertex v_a against edge e_b of body q; c1 = C(v_a, f_b1),
  // c2 = C(v_a, f_b2) (input indices). P3.
  void x_constraints(const VertexKey& vertex, std::uint32_t body_q, int e_b, int c1, int c2) {
    const auto [body_p, v_a] = vertex;
    const Polyhedron& p = *polyhedron(body_p);
    const Polyhedron& q = *polyhedron(body_q);
    const Pose& pose_p = state_.bodies[body_p].pose;
    const Pose& pose_q = state_.bodies[body_q].pose;
    const PolyEdge& eb = q.edges[static_cast<std::size_t>(e_b)];
    const Vec3 along_b = q.vertices[static_cast<std::size_t>(eb.head)] - q.vertices[static_cast<std::size_t>(eb.tail)];
    const Vec3 bisector = q.faces[static_cast<std::size_t>(eb.face_1)].normal + q.faces[static_cast<std::size_t>(eb.face_2)].normal;
    const Vec3 orientation = pose_q.rotate(along_b.cross(-bisector)).normalized();  // O_eb (Fig. 3.9)
    const double eps_theta = model_.options.eps_theta;
    const double threshold = std::abs(eps_theta);
    for (int e_a : p.vertex_edges[static_cast<std::size_t>(v_a)]) {
      const int cee = edge_pair({body_p, e_a, e_b});
      if (cee < 0) continue;
      s_.used.push_back(cee);
      if (contacts_[cee].features.applicability < eps_theta) continue;
      // P5: a violated C(e_a, e_b) (or flipped copy) whose lines meet outside a segment is dropped
      const bool on_segments = lines_meet_on_segments(contacts_[cee], false);
      auto usable = [&](const Contact& c) { return admissible(c, on_segments); };
      const PolyEdge& ea = p.edges[static_cast<std::size_t>(e_a)];
      const int other = ea.tail == v_a ? ea.head : ea.tail;
      const Vec3 direction =
          pose_p.rotate(p.vertices[static_cast<std::size_t>(other)] - p.vertices[static_cast<std::size_t>(v_a)]).normalized();
      const double side = direction.dot(orientation);
      const Contact& c3 = contacts_[cee];
      if (side >= threshold) {  // only e_b.f_1
        if (usable(c3) && !opposed(contacts_[c1], c3)) writer_.x(writer_.add(c1), writer_.add(cee));
      } else if (side <= -threshold) {  // only e_b.f_2
        if (usable(c3) && !opposed(contacts_[c2], c3)) writer_.x(writer_.add(c2), writer_.add(cee));
      } else {  // both facets: C3 = C(e_a, e_b), C4 = C3 with its normal flipped
        Contact flipped = c3;
        flipped.normal = -flipped.normal;
        flipped.gap = -flipped.gap;
        flipped.features.primary = flipped.features.applicability >= eps_theta && flipped.gap >= -model_.options.eps_feasible;
        const int with_c3 = side >= 0.0 ? c1 : c2;
        const int with_c4 = side >= 0.0 ? c2 : c1;
        if (usable(c3) && !opposed(contacts_[with_c3], c3) && !opposes_pair(c3, cee))
          writer_.x(writer_.add(with_c3), writer_.add(cee));
        if (usable(flipped) && !opposed(contacts_[with_c4], flipped) && !opposes_pair(flipped, cee))
          writer_.x(writer_.add(with_c4), writer_.add_new(flipped));
      }
    }
  }

  // P7: the facet contact `facet` and the edge-edge contact (or flipped
  // copy) `edge` of an X-constraint push opposite ways, their normals taken
  // between the same two bodies (each Contact's normal points from its
  // body_a onto its body_b, and the two may name the bodies in either order).
  bool opposed(const Contact& facet, const Contact& edge) const {
    const Vec3 n = edge.body_a == facet.body_a ? edge.normal : Vec3(-edge.normal);
    const double sin_theta = std::min(1.0, std::abs(model_.options.eps_theta));
    return facet.normal.dot(n) <= -std::sqrt(1.0 - sin_theta * sin_theta);
  }

  // P9, P10: an edge-edge contact of Algorithm 14 (C3 or its flipped copy
  // C4, from input contact `source`) that pushes opposite (as P7 judges it)
  // an applicable contact of the same pair (P9: vertex-face; P10: also
  // another edge-edge contact), when it is violated or the two cannot both
  // hold: along opposite normals the pair's motion d must meet n.d >= -gap_1
  // and n.d <= gap_2, which no translation does once gap_1 + gap_2 < 0.
  bool opposes_pair(const Contact& edge, int source) const {
    const double tolerance = model_.options.eps_feasible;
    auto conflicts = [&](int k) {
      const Contact& other = contacts_[k];
      return k != source && other.features.applicability >= model_.options.eps_theta && opposed(other, edge) &&
             (edge.gap < -tolerance || other.gap + edge.gap < -tolerance);
    };
    for (const auto& [vertex, k] : s_.vertex_contacts)
      if (conflicts(k)) return true;
    for (int k : s_.edge_edge)
      if (conflicts(k)) return true;
    return false;
  }

  // World end points of edge e of body b (tail, head).
  std::pair<Vec3, Vec3> edge_points(std::uint32_t b, int e) const {
    const Polyhedron& p = *polyhedron(b);
    const PolyEdge& edge = p.edges[static_cast<std::size_t>(e)];
    const Pose& pose = state_.bodies[b].pose;
    return {pose.to_world(p.vertices[static_cast<std::size_t>(edge.tail)]),
            pose.to_world(p.vertices[static_cast<std::size_t>(edge.head)])};
  }

  // P5: the edges' lines come closest at a point inside both segments
  // (strictly inside when `strict`: a genuine edge-edge contact, 4.4.2).
  bool lines_meet_on_segments(const Contact& c, bool strict) const {
    const auto [pa, qa] = edge_points(c.body_a, c.features.feature_a);
    const auto [pb, qb] = edge_points(c.body_b, c.features.feature_b);
    double s = 0.0, t = 0.0;
    line_parameters(pa, qa - pa, pb, qb - pb, s, t);
    if (strict) return s > kOnSegment && s < 1.0 - kOnSegment && t > kOnSegment && t < 1.0 - kOnSegment;
    return within(s) && within(t);
  }

  // P5, P6: an edge-edge contact asks for no separation the pair does not
  // need. Satisfied within eps_feasible: kept. Violated, with the edges'
  // lines meeting inside both segments: kept only when the parts overlap
  // at all (a genuine crossing is an overlap, though the separating-axis
  // depth may be less than the contact's); else kept when violated no
  // deeper than the parts overlap.
  // P8: and, crossing, only when a witness point lies inside the other part,
  // or outside it by no more than the parts overlap: a crossing d deep puts
  // point_a about d inside B and point_b about d inside A (point_b = point_a
  // + gap * normal, the normal from A onto B); next to a corner one of them
  // can fall just outside (the tetrahedra of PegHoles: 7 um against a 78 um
  // crossing; a box-of-polyhedra crossing 0.74 mm deep: 0.21 and 0.65 mm),
  // never by more than the overlap. A turned sign reads the edges' distance
  // as depth, and both points lie about that far outside (pour seed 53: 7.7
  // and 18.5 mm against a 0.97 mm overlap).
  bool admissible(const Contact& c, bool on_segments) {
    const double tolerance = model_.options.eps_feasible;
    if (c.gap >= -tolerance) return true;
    if (!on_segments) return -c.gap <= overlap_depth() + tolerance;
    if (!(overlap_depth() > tolerance)) return false;
    return std::min(outside(c.body_b, c.point_a), outside(c.body_a, c.point_b)) <= overlap_depth() + tolerance;
  }

  // P8: how far the world point x lies outside body b's part (its height
  // above the part's face planes, geometry/plane_height.hpp; <= 0 inside).
  double outside(std::uint32_t b, const Vec3& x) const {
    return plane_height(*polyhedron(b), state_.bodies[b].pose.to_body(x));
  }

  // P5: how deep the two parts overlap at the step's start (separating axis
  // test, geometry/penetration.hpp; <= 0 when apart), computed once per pair
  // and only when a violated contact asks.
  double overlap_depth() {
    if (!depth_known_) {
      const std::uint32_t a = part_body_[0], b = part_body_[1];
      depth_ = penetration_depth(part_of(model_.bodies[a].shape, part_[0]), state_.bodies[a].pose,
                                 part_of(model_.bodies[b].shape, part_[1]), state_.bodies[b].pose);
      depth_known_ = true;
    }
    return depth_;
  }

  // The polyhedron of body b in this pair: its part, for a compound body.
  const Polyhedron* polyhedron(std::uint32_t b) const {
    const int part = b == part_body_[0] ? part_[0] : part_[1];
    return std::get_if<Polyhedron>(&part_of(model_.bodies[b].shape, part));
  }

  const Model& model_;
  const State& state_;
  std::array<std::uint32_t, 2> part_body_{};
  std::array<int, 2> part_{};
  const std::vector<Contact>& contacts_;
  PegWriter& writer_;
  PairScratch& s_;
  bool used(int contact) const { return std::find(s_.used.begin(), s_.used.end(), contact) != s_.used.end(); }

  bool depth_known_ = false;
  double depth_ = 0.0;
};

}  // namespace

void peg_3d_body_pair(const Model& model, const State& state, const std::vector<Contact>& contacts,
                      const std::vector<int>& pair, PegWriter& writer) {
  thread_local PairScratch scratch;
  Pair3d(model, state, contacts, writer, scratch).build(pair);
}

}  // namespace pegsim
