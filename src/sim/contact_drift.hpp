// Contact drift correction (SimOptions::contact_drift_correction): a sticking
// contact's tangential drift from the first-order position update, measured
// over one step and taken back in the next.
//
// Why: every stepper here holds a sticking contact at the velocity level, at
// the step's start configuration: the relative velocity u of the two bodies'
// material points at the contact has no tangential part (Stewart-Trinkle's
// friction rows with slip 0, thesis eqs. 2.21-2.22; reference 002's no-slip
// rows S v+ = T v+ = 0). The position update then moves each body along its
// velocity (eq. 2.36; a tree by q + h v+, its links by forward kinematics),
// and the material points' true paths differ from h u by the relative
// acceleration's part, (h^2 / 2) a, at every step. For a ball held in a
// turning gripper that is the pads' centripetal acceleration: with the
// shoulder of arm7-grasp-ball turning at up to 0.5 rad/s about an axis 1 m
// away, a ~ 0.16 m/s^2 on average and the ball creeps ~0.08 mm/s along the
// pads (docs/experiments.md, "arm7-grasp-ball"): first order in h, and
// accumulating, as normal gaps would without the psi/h term.
//
// The correction is the tangential counterpart of that psi/h term. After the
// solve, per contact: the material points at point_a (on A) and point_b (on
// B) in each body's frame, their separation s0 = point_b - point_a, and the
// displacement the step's velocities give them, h u (u = u_B - u_A with v+
// at the start configuration). At the next step, for the contact with the
// same features (bodies, parts, kind, feature indices: the warm starts'
// names), the drift is
//     delta = (p_B - p_A) - s0 - h u + (h / 2) Omega x (c - p_A),
// p_X = X's material point now, c the contact's point on A now, Omega =
// w_B - w_A over the last step; less its part along the contact's normal (the
// gap term's). The friction rows measure d . (u + delta / h)
// (ConstrainedContact::drift_rate), so that the step that sticks takes delta
// back. The drift never accumulates: it stays at one step's, O(h^2).
// The last term is rolling's own: B turning on A at Omega keeps the contact
// point's relative velocity at zero while the contact point moves across A at
// v_c, and the material points that touched part by -(h^2 / 2) Omega x v_c
// (the relative velocity at a fixed point is -Omega x (c(t) - c0) once the
// contact has moved on), c - p_A = h v_c to first order. A ball that rolls
// and spins on the ground parts from its old contact point by that much
// (tangentially, for the spin about the normal): without the term the
// correction would drag it (0.4 mm in 1 s, tests/sim/contact_drift_test.cpp).
// With it, rolling is left alone to O(h^3) per step, and a pair that turns
// together (Omega = 0: a grasp) gets delta = the integration error. A sliding
// contact's delta is the same integration error (h u is subtracted), so the
// correction moves its slip velocity by O(h) only.
//
// The targets, each measured on its own, are made ones the bodies can meet
// together: per island, projected onto the range of W = X M^-1 X', X the
// contacts' tangent rows (contact_drift.cpp, project). Sticking at them is
// then as feasible as sticking at zero.
//
// Storage: flat arrays sorted by name, reused from step to step (no
// allocation once grown); ties keep the later entry, as the warm starts do.
#pragma once

#include "contact/constraint_set.hpp"
#include "dynamics/contact_space.hpp"
#include "dynamics/mass.hpp"
#include "sim/model.hpp"
#include "sim/state.hpp"

#include <compare>
#include <cstdint>
#include <utility>
#include <vector>

namespace pegsim {

class ContactDrift {
 public:
  // Sets every contact's drift_rate from last step's anchors (zero for a
  // contact that is new), made consistent island by island (below):
  // `inverse_mass` per body (link bodies zero) and `trees` (the trees'
  // terms, null without trees) as the steppers have them after their free
  // velocities.
  void measure(const Model& model, const State& state, const std::vector<InverseMass>& inverse_mass,
               const TreeTerms* trees, ConstraintSet& set);
  // Anchors this step's contacts: `state` at the step's start (poses not yet
  // moved), `velocity` per model body the velocity the positions move with
  // (v+; a link body J_i v+ at the start configuration; static bodies are
  // read as still, kinematic ones from the state).
  void remember(const Model& model, const State& state, const ConstraintSet& set,
                const std::vector<Vec6>& velocity);
  void clear() { anchors_.clear(); }

 private:
  struct Name {
    std::uint32_t body_a, body_b;
    int feature_a, feature_b;
    std::uint16_t part_a, part_b;
    std::uint8_t kind;
    friend auto operator<=>(const Name&, const Name&) = default;
  };
  struct Anchor {
    Name name;
    std::uint32_t order;  // insertion order: the later of two equal names wins
    Vec3 local_a, local_b;  // the material points in A's and B's frames
    Vec3 expected;          // s0 + h u: where B's point should be from A's now
    Vec3 half_turn;         // (h / 2) Omega, Omega = w_B - w_A over the step (rad)
  };
  static Name name_of(const Contact& c);
  // the targets of anchored_[first, last), one island's, made consistent (contact_drift.cpp)
  void project(const Model& model, const State& state, const std::vector<InverseMass>& inverse_mass,
               const TreeTerms* trees, ConstraintSet& set, std::size_t first, std::size_t last);

  std::vector<Anchor> anchors_, next_;
  // measure's scratch: the contacts with an anchor, a union-find over bodies, one island's set and space
  std::vector<std::uint32_t> anchored_, component_, bodies_;
  std::vector<std::pair<std::uint32_t, std::uint32_t>> island_of_;  // measure's (island root, contact) pairs
  std::vector<int> first_link_;  // per tree
  ConstraintSet island_;
  ContactSpace space_;
};

}  // namespace pegsim
