// The solver-neutral output of a contact model (thesis ch. 4).
//
// A contact model turns the feature pairs found by contact determination into
// constraints. Every model emits this same structure, and every formulation
// reads it:
// - `contacts`: the sub-contacts the constraints are made of (gap, normal,
//   points), each with the friction coefficient of its material pair;
// - `constraints`: groups of sub-contacts. The standard model emits one
//   U-constraint (a plain unilateral constraint, 0 <= psi perp p_n >= 0) per
//   contact. PEG (thesis 4.2) adds I-constraints (at least one of a vertex's
//   sub-contacts holds, eq. 4.9) and X-constraints (at least one of two sets
//   holds: a mask against crossing edges, eq. 4.15), which the formulation
//   turns into the c and d slack rows of eqs. 4.41-4.51.
//
// Layout of an I- or X-constraint's `contacts` (thesis 4.7: "we let that
// primary contact be the first in the set"): the `primaries` leading entries
// are C_iota, the sub-contacts that may carry a force, first the one that
// carries the constraint's inequality (eq. 4.11 / 4.14); the rest are C_kappa,
// sub-contacts that only shape the geometry (c slack rows, eq. 4.10). An
// X-constraint is written as an I-constraint with one force (thesis 4.2.3);
// the formulation may move that force to another of its sub-contacts.
#pragma once

#include "collision/contact.hpp"
#include "math/spare.hpp"

#include <cstdint>
#include <utility>
#include <vector>

namespace pegsim {

enum class ConstraintKind : std::uint8_t { U, I, X };

struct ContactConstraint {
  ConstraintKind kind = ConstraintKind::U;
  std::vector<int> contacts;  // indices into ConstraintSet::contacts (U: exactly one)
  std::vector<int> friction;  // sub-contacts that carry friction (thesis 4.7: the primary ones)
  int primaries = 1;          // I: leading entries of `contacts` that may push (|C_iota|); U, X: 1
};

// How many constraints of each kind a set holds (thesis Fig. 5.13 counts).
struct ConstraintCounts {
  int u = 0, i = 0, x = 0;
};

struct ConstrainedContact {
  Contact contact;
  double mu = 0.0;  // friction coefficient of the material pair
  // The contact's tangential drift over the last step, per unit time (m/s,
  // world frame): how far B's material point at the contact moved from A's
  // beyond what the step's velocities said, over h (sim/contact_drift.hpp).
  // The friction rows measure d . (u + drift_rate), so that a sticking
  // contact takes the drift back. Zero unless SimOptions::
  // contact_drift_correction.
  Vec3 drift_rate = Vec3::Zero();
};

struct ConstraintSet {
  std::vector<ConstrainedContact> contacts;
  std::vector<ContactConstraint> constraints;
  // Constraints put away by clear(), whose vectors add_constraint() reuses:
  // a model that rebuilds the set every step allocates nothing once the set
  // has reached its size (math/spare.hpp).
  Spare<ContactConstraint> spare;

  void clear() {
    contacts.clear();
    for (ContactConstraint& k : constraints) spare.put(std::move(k));
    constraints.clear();
  }
  // Appends an empty constraint of this kind (primaries = 1) and returns it;
  // valid until the next append.
  ContactConstraint& add_constraint(ConstraintKind kind) {
    ContactConstraint& k = constraints.emplace_back();
    spare.take(k);
    k.kind = kind;
    k.contacts.clear();
    k.friction.clear();
    k.primaries = 1;
    return k;
  }
  // Appends contact c and a U-constraint on it (friction on it when mu > 0);
  // returns its index in `contacts`.
  int add_unilateral(const Contact& c, double mu) {
    const int index = static_cast<int>(contacts.size());
    contacts.push_back(ConstrainedContact{c, mu});
    ContactConstraint& u = add_constraint(ConstraintKind::U);
    u.contacts.push_back(index);
    if (mu > 0.0) u.friction.push_back(index);
    return index;
  }
  // Appends every contact and constraint of `other`, its contacts renumbered.
  void append(const ConstraintSet& other) {
    const int offset = static_cast<int>(contacts.size());
    contacts.insert(contacts.end(), other.contacts.begin(), other.contacts.end());
    for (ContactConstraint k : other.constraints) {
      for (int& c : k.contacts) c += offset;
      for (int& c : k.friction) c += offset;
      constraints.push_back(std::move(k));
    }
  }
  bool has_peg_constraints() const {  // any I- or X-constraint
    for (const ContactConstraint& k : constraints)
      if (k.kind != ConstraintKind::U) return true;
    return false;
  }
  ConstraintCounts counts() const {
    ConstraintCounts n;
    for (const ContactConstraint& k : constraints) {
      if (k.kind == ConstraintKind::U) ++n.u;
      else if (k.kind == ConstraintKind::I) ++n.i;
      else ++n.x;
    }
    return n;
  }
};

}  // namespace pegsim
