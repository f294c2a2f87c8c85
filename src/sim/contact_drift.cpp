#include "sim/contact_drift.hpp"

#include <Eigen/QR>

#include <algorithm>
#include <utility>

namespace pegsim {
namespace {

// Body b's velocity (v, w) over the step: v+ (`velocity`) for a dynamic body or
// link, the state's for a kinematic one, zero for a static one.
Vec6 body_velocity(const Model& model, const State& state, const std::vector<Vec6>& velocity, std::uint32_t b) {
  const BodyModel& body = model.bodies[b];
  const BodyState& s = state.bodies[b];
  Vec6 v = Vec6::Zero();
  if (body.is_kinematic) v << s.linear_velocity, s.angular_velocity;
  else if (!body.is_static) v = velocity[b];
  return v;
}

// The velocity of the material point at `point` of a body moving with (v, w): v + w x r.
Vec3 point_velocity(const Vec6& v, const BodyState& s, const Vec3& point) {
  return v.head<3>() + v.tail<3>().cross(point - s.pose.position);
}

}  // namespace

ContactDrift::Name ContactDrift::name_of(const Contact& c) {
  return Name{c.body_a, c.body_b, c.features.feature_a, c.features.feature_b, c.part_a, c.part_b,
              static_cast<std::uint8_t>(c.kind)};
}

void ContactDrift::measure(const Model& model, const State& state, const std::vector<InverseMass>& inverse_mass,
                           const TreeTerms* trees, ConstraintSet& set) {
  const double h = model.options.h;
  anchored_.clear();
  for (std::size_t c = 0; c < set.contacts.size(); ++c) {
    ConstrainedContact& k = set.contacts[c];
    k.drift_rate.setZero();
    if (anchors_.empty()) continue;
    const Name name = name_of(k.contact);
    auto it = std::lower_bound(anchors_.begin(), anchors_.end(), name,
                               [](const Anchor& a, const Name& n) { return a.name < n; });
    if (it == anchors_.end() || it->name != name) continue;  // a new contact: nothing to take back
    const Contact& contact = k.contact;
    const Vec3 pa = state.bodies[contact.body_a].pose.to_world(it->local_a);
    const Vec3 pb = state.bodies[contact.body_b].pose.to_world(it->local_b);
    // rolling's own separation, -(h^2 / 2) Omega x v_c with v_c h = the contact's move across A (header)
    Vec3 delta = (pb - pa) - it->expected + it->half_turn.cross(contact.point_a - pa);
    delta -= contact.normal * contact.normal.dot(delta);  // the normal part is the gap term's
    k.drift_rate = delta / h;
    anchored_.push_back(static_cast<std::uint32_t>(c));
  }
  if (anchored_.empty()) return;
  // the anchored contacts' islands: bodies joined by contacts (static ones join nothing) and by trees
  component_.resize(model.bodies.size());
  for (std::uint32_t b = 0; b < component_.size(); ++b) component_[b] = b;
  auto root = [&](std::uint32_t b) {
    while (component_[b] != b) b = component_[b] = component_[component_[b]];
    return b;
  };
  auto join = [&](std::uint32_t a, std::uint32_t b) {
    if (model.bodies[a].is_static || model.bodies[b].is_static) return;
    a = root(a), b = root(b);
    if (a != b) component_[std::max(a, b)] = std::min(a, b);
  };
  if (trees) {  // a tree's links are one island (their rows couple through its M^-1)
    first_link_.assign(model.trees.size(), -1);
    for (std::uint32_t b = 0; b < trees->tree_of.size(); ++b)
      if (const int t = trees->tree_of[b]; t >= 0) {
        if (first_link_[t] < 0) first_link_[t] = static_cast<int>(b);
        else join(static_cast<std::uint32_t>(first_link_[t]), b);
      }
  }
  for (std::uint32_t c : anchored_) join(set.contacts[c].contact.body_a, set.contacts[c].contact.body_b);
  // each anchored contact's island (its root body), found once; then the contacts grouped by it
  island_of_.clear();
  for (std::uint32_t c : anchored_) {
    const Contact& k = set.contacts[c].contact;
    island_of_.push_back({root(model.bodies[k.body_a].is_static ? k.body_b : k.body_a), c});
  }
  std::sort(island_of_.begin(), island_of_.end());  // (island, contact): contact order within an island
  for (std::size_t i = 0; i < island_of_.size(); ++i) anchored_[i] = island_of_[i].second;
  for (std::size_t first = 0; first < anchored_.size();) {
    std::size_t last = first;
    while (last < anchored_.size() && island_of_[last].first == island_of_[first].first) ++last;
    project(model, state, inverse_mass, trees, set, first, last);
    first = last;
  }
}

// The targets of one island's anchored contacts, anchored_[first, last), made
// ones its bodies can meet together (the header: a closed chain of sticking
// contacts, a box held face to face between two jaws of one hand, cannot
// follow drifts that disagree by any amount: the LCP's sticking solution is
// then gone and one that slides takes its place; on arm7-grasp-box the
// measured drifts of a pad's top and bottom corners disagreed by 1.6e-8 m a
// step, 1.6e-5 m/s as targets, above the solver's tolerance). With X
// the island's tangent rows [S; T] (dynamics/contact_space.hpp) and W =
// X M^-1 X', the targets sigma (along each contact's S and T) are replaced by
// their orthogonal projection onto range(W), the contact velocities the
// bodies can take: W W^+ sigma (by a QR of X M^-1, below). Targets that fit
// already come back as they were (a ball held by two contacts: six freedoms,
// four targets). Cost: a stack's 170 PEG sub-contacts take the step from
// 0.37 to 0.89 ms (box-stack-3d-offset); an eigendecomposition of W took 44.
void ContactDrift::project(const Model& model, const State& state, const std::vector<InverseMass>& inverse_mass,
                           const TreeTerms* trees, ConstraintSet& set, std::size_t first, std::size_t last) {
  island_.clear();
  bodies_.clear();
  for (std::size_t i = first; i < last; ++i) {
    const ConstrainedContact& k = set.contacts[anchored_[i]];
    island_.contacts.push_back(k);
    for (std::uint32_t b : {k.contact.body_a, k.contact.body_b})
      if (!model.bodies[b].is_static) bodies_.push_back(b);
  }
  std::sort(bodies_.begin(), bodies_.end());
  bodies_.erase(std::unique(bodies_.begin(), bodies_.end()), bodies_.end());
  build_contact_space(model, state, inverse_mass, bodies_, island_, space_, trees);
  const int n = static_cast<int>(last - first);
  MatX X(2 * n, space_.m);
  X << space_.S.topRows(n), space_.T.topRows(n);
  VecX sigma(2 * n);
  sigma << space_.drift_s.head(n), space_.drift_t.head(n);
  // range(W) = range(X M^-1) (M^-1 symmetric PSD): an orthonormal basis of its
  // first r columns' span by a column-pivoted QR of the 2n x m matrix X M^-1,
  // m the island's coordinates (a stack's 170 PEG sub-contacts: 340 x 60)
  Eigen::ColPivHouseholderQR<MatX> qr(X * space_.inverse_mass);
  qr.setThreshold(1e-6);  // |R_ii| against the largest: the eigenvalues of W at 1e-12
  const Eigen::Index r = qr.rank();
  VecX coefficients = qr.householderQ().transpose() * sigma;
  coefficients.tail(coefficients.size() - r).setZero();
  const VecX projected = qr.householderQ() * coefficients;
  for (int i = 0; i < n; ++i)
    set.contacts[anchored_[first + static_cast<std::size_t>(i)]].drift_rate =
        projected(i) * space_.tangent_s[i] + projected(n + i) * space_.tangent_t[i];
}

void ContactDrift::remember(const Model& model, const State& state, const ConstraintSet& set,
                            const std::vector<Vec6>& velocity) {
  const double h = model.options.h;
  next_.clear();
  std::uint32_t order = 0;
  for (const ConstrainedContact& k : set.contacts) {
    const Contact& c = k.contact;
    const Pose& a = state.bodies[c.body_a].pose;
    const Pose& b = state.bodies[c.body_b].pose;
    const Vec6 va = body_velocity(model, state, velocity, c.body_a);
    const Vec6 vb = body_velocity(model, state, velocity, c.body_b);
    const Vec3 u = point_velocity(vb, state.bodies[c.body_b], c.point_b) -
                   point_velocity(va, state.bodies[c.body_a], c.point_a);
    next_.push_back(Anchor{name_of(c), order++, a.to_body(c.point_a), b.to_body(c.point_b),
                           (c.point_b - c.point_a) + h * u, 0.5 * h * (vb.tail<3>() - va.tail<3>())});
  }
  std::sort(next_.begin(), next_.end(), [](const Anchor& x, const Anchor& y) {
    return x.name != y.name ? x.name < y.name : x.order > y.order;  // equal names: latest first
  });
  next_.erase(std::unique(next_.begin(), next_.end(),
                          [](const Anchor& x, const Anchor& y) { return x.name == y.name; }),
              next_.end());
  anchors_.swap(next_);
}

}  // namespace pegsim
