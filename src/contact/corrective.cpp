// The corrective method (thesis 5.2, the comparison model of 5.2.1-5.2.6):
// "only violated contacts, one contact per overlapping region, solved
// simultaneously as unilateral constraints". Unlike a penalty method the
// corrective impulses are not springs: each overlap is one U-constraint of the
// same complementarity problem the other models build, and the
// Stewart-Trinkle psi/h term asks the step to remove the whole depth ("applies
// impulses to reduce the interpenetration to zero at the end of the
// time-step", 5.2.3). Bodies that are apart, or only touching, get nothing:
// the method reacts after penetration, which is why it bounces (5.2.1-5.2.2)
// and why its overlap grows with h (5.2.3-5.2.4).
//
// Decisions:
// C1 Which pairs. The model looks at the geometry itself (the state's poses),
//    not at the narrowphase's contacts: an overlap needs no contact distance,
//    and two convex bodies can overlap with no feature pair within eps (two
//    triangles crossed like a six-pointed star have no vertex inside the
//    other). Candidates are the pairs whose bounding circles (spheres) meet,
//    found by a sweep along x, plus every body against every half-space;
//    pairs of two static bodies are skipped, and so are the pairs no contact
//    search takes (links of one tree, joined bodies: collision_filter.hpp).
//    The contacts handed in are not used.
// C2 What overlaps. A pair overlaps when the intersection of the two shapes
//    (geometry/intersection.hpp, the clipping the overlap measurement of
//    analysis/overlap.hpp also uses) has positive area (volume) and the
//    separating axis test gives a positive depth. The clipping's relative
//    tolerance (1e-12 of the size) makes touching and round-off contacts
//    count as apart: a resting body gets a constraint only once it has sunk.
// C3 One contact per region. Two convex shapes meet in one convex region, so
//    one contact per overlapping pair. Its normal is the separating axis
//    test's axis of least penetration (geometry/penetration.hpp), from A onto
//    B, the direction in which the overlap is removed by the smallest
//    translation; gap = minus that depth. A compound (non-convex) body is
//    a union of convex parts (thesis 4.5): one contact per overlapping pair
//    of parts, each with its parts in Contact::part_a / part_b.
// C4 Where. The contact acts at the centroid m of the overlap region (the
//    "area of overlap" of 5.2.3): point_a = m moved along the normal onto A's
//    supporting plane (A's furthest extent along n), point_b = point_a +
//    gap * n, on B's supporting plane (B's nearest extent) up to round-off.
//    The shift along n leaves the normal impulse's torque unchanged
//    (n x (r + s n) = n x r); friction acts at A's surface.
// C5 A and B. A half-space (half-plane) is A, as in the narrowphase's
//    vertex-plane contacts; otherwise A is the body of lower index.
// C6 Ids. kind = FeatureKind::Overlap, feature_a = feature_b = -1: one contact
//    per pair makes (A, B, Overlap, -1, -1) a unique warm-start key, so the
//    impulse of a persisting overlap is reused. applicability = 1 and
//    primary = true (no feature, nothing to be inapplicable).
// C7 Friction: the contact carries friction with mu of the pair's materials
//    (model.mu), as the standard model's contacts do.
// C8 Curved shapes (geometry/curved.hpp): a pair of parts with a curved kind
//    overlaps when its signed distance (geometry/gjk.hpp, shape_distance;
//    against a half-space the shape's support point along the inward normal)
//    is negative, and its one contact joins the deepest points along the
//    normal of least penetration: the overlap measure of C2 would need a
//    quadrature (geometry/curved_pairs.hpp) that misses overlaps thinner than
//    its cells, and the deepest points are where the overlap is removed.
// The same in 2D and 3D. Under the Anitescu-Potra formulation (no psi/h
// term) the constraint only stops further approach and leaves the depth.
#include "contact/corrective.hpp"

#include "contact/collision_filter.hpp"
#include "geometry/gjk.hpp"
#include "geometry/intersection.hpp"
#include "geometry/penetration.hpp"

#include <algorithm>
#include <utility>
#include <vector>

namespace pegsim {
namespace {

class CorrectiveModel final : public ContactModel {
 public:
  std::string_view name() const override { return "corrective"; }

  void build(const Model& model, const State& state, const std::vector<Contact>& /*contacts*/,
             ConstraintSet& out) override {
    out.clear();
    candidate_pairs(model, state);
    for (const auto& [i, j] : pairs_) add_if_overlapping(model, state, i, j, out);
  }

 private:
  // C1: pairs (i < j) whose bounding circles/spheres meet, and body-half-space pairs.
  void candidate_pairs(const Model& model, const State& state) {
    pairs_.clear();
    spans_.clear();
    filter_.reset(model);
    half_spaces_.clear();
    const std::size_t n = model.bodies.size();
    for (std::size_t i = 0; i < n; ++i) {
      const Shape& s = model.bodies[i].shape;
      if (is_half_space(s)) {
        half_spaces_.push_back(static_cast<std::uint32_t>(i));
        continue;
      }
      const double x = state.bodies[i].pose.position.x(), r = bounding_radius(s);
      spans_.push_back({x - r, static_cast<std::uint32_t>(i)});
    }
    std::sort(spans_.begin(), spans_.end());
    for (std::size_t k = 0; k < spans_.size(); ++k) {
      const std::uint32_t i = spans_[k].second;
      const Vec3& ci = state.bodies[i].pose.position;
      const double ri = bounding_radius(model.bodies[i].shape);
      for (std::size_t l = k + 1; l < spans_.size() && spans_[l].first <= ci.x() + ri; ++l) {
        const std::uint32_t j = spans_[l].second;
        if ((model.bodies[i].is_static && model.bodies[j].is_static) || !filter_.may_touch(i, j)) continue;
        const double reach = ri + bounding_radius(model.bodies[j].shape);
        if ((state.bodies[j].pose.position - ci).squaredNorm() > reach * reach) continue;
        pairs_.emplace_back(std::min(i, j), std::max(i, j));
      }
    }
    for (std::uint32_t h : half_spaces_)
      for (const auto& span : spans_) {
        const std::uint32_t b = span.second;
        if ((model.bodies[h].is_static && model.bodies[b].is_static) || !filter_.may_touch(h, b)) continue;
        pairs_.emplace_back(std::min(h, b), std::max(h, b));
      }
    std::sort(pairs_.begin(), pairs_.end());  // deterministic contact order: by body pair
  }

  void add_if_overlapping(const Model& model, const State& state, std::uint32_t i, std::uint32_t j,
                          ConstraintSet& out) const {
    std::uint32_t a = i, b = j;
    if (is_half_space(model.bodies[j].shape)) std::swap(a, b);  // C5
    const Shape& sa = model.bodies[a].shape;
    const Shape& sb = model.bodies[b].shape;
    for (int i = 0; i < part_count(sa); ++i)
      for (int j = 0; j < part_count(sb); ++j) add_if_overlapping(model, state, a, i, b, j, out);
  }

  void add_if_overlapping(const Model& model, const State& state, std::uint32_t a, int part_a, std::uint32_t b,
                          int part_b, ConstraintSet& out) const {
    const Shape& sa = part_of(model.bodies[a].shape, part_a);
    const Shape& sb = part_of(model.bodies[b].shape, part_b);
    const Pose& pa = state.bodies[a].pose;
    const Pose& pb = state.bodies[b].pose;
    if (is_curved(sa) || is_curved(sb)) return add_if_overlapping_curved(model, a, part_a, sa, pa, b, part_b, sb, pb, out);
    const ShapeIntersection region = intersect_shapes(sa, pa, sb, pb);  // C2
    if (!(region.measure > 0.0)) return;
    const PenetrationAxis axis = penetration_axis(sa, pa, sb, pb);  // C3
    if (!(axis.depth > 0.0) || !axis.normal.allFinite()) return;

    Contact c;
    c.body_a = a;
    c.body_b = b;
    c.kind = FeatureKind::Overlap;  // C6
    c.features.feature_a = -1;
    c.features.feature_b = -1;
    c.part_a = static_cast<std::uint16_t>(part_a);
    c.part_b = static_cast<std::uint16_t>(part_b);
    c.normal = axis.normal;
    c.gap = -axis.depth;
    const Vec3& m = region.centroid;  // C4
    c.point_a = m + (axis.a_max - axis.normal.dot(m)) * axis.normal;
    c.point_b = c.point_a + c.gap * c.normal;
    c.features.applicability = 1.0;
    c.features.primary = true;

    out.add_unilateral(c, model.mu(model.bodies[a].material, model.bodies[b].material));  // C7
  }

  // C8
  void add_if_overlapping_curved(const Model& model, std::uint32_t a, int part_a, const Shape& sa, const Pose& pa,
                                 std::uint32_t b, int part_b, const Shape& sb, const Pose& pb,
                                 ConstraintSet& out) const {
    Contact c;
    if (is_half_space(sa)) {
      const PenetrationAxis axis = penetration_axis(sa, pa, sb, pb);
      if (!(axis.depth > 0.0)) return;
      c.normal = axis.normal;
      c.gap = -axis.depth;
      c.point_b = pb.to_world(support(sb, pb.orientation.conjugate() * -axis.normal));
      c.point_a = c.point_b - c.gap * c.normal;
    } else {
      const ConvexDistance d = shape_distance(sa, pa, sb, pb);
      if (!(d.distance < 0.0) || !d.normal.allFinite()) return;
      c.normal = d.normal;
      c.gap = d.distance;
      c.point_a = d.point_a;
      c.point_b = d.point_b;
    }
    c.body_a = a;
    c.body_b = b;
    c.kind = FeatureKind::Overlap;  // C6
    c.features.feature_a = -1;
    c.features.feature_b = -1;
    c.part_a = static_cast<std::uint16_t>(part_a);
    c.part_b = static_cast<std::uint16_t>(part_b);
    c.features.applicability = 1.0;
    c.features.primary = true;
    out.add_unilateral(c, model.mu(model.bodies[a].material, model.bodies[b].material));  // C7
  }

  std::vector<std::pair<std::uint32_t, std::uint32_t>> pairs_;
  CollisionFilter filter_;
  std::vector<std::pair<double, std::uint32_t>> spans_;  // (left end of the bounding circle, body)
  std::vector<std::uint32_t> half_spaces_;
};

}  // namespace

std::unique_ptr<ContactModel> make_corrective_model() { return std::make_unique<CorrectiveModel>(); }

}  // namespace pegsim
