// The solver-neutral output of a contact model (thesis ch. 4).
//
// A contact model turns the feature pairs found by contact determination into
// constraints. Every model emits this same structure, and every formulation
// reads it:
// - `contacts`: the sub-contacts the constraints are made of (gap, normal,
//   points), each with the friction coefficient of its material pair;
// - `constraints`: groups of sub-contacts. The standard model emits one
//   U-constraint (a plain unilateral constraint, 0 <= psi perp p_n >= 0) per
//   contact. PEG (thesis 4.2) adds I-constraints (at least one of two
//   sub-contacts holds) and X-constraints (both hold or neither), which the
//   formulation turns into the c and d slack rows of eqs. 4.41-4.51.
#pragma once

#include "collision/contact.hpp"

#include <cstdint>
#include <vector>

namespace pegsim {

enum class ConstraintKind : std::uint8_t { U, I, X };

struct ContactConstraint {
  ConstraintKind kind = ConstraintKind::U;
  std::vector<int> contacts;  // indices into ConstraintSet::contacts (U: exactly one)
  std::vector<int> friction;  // sub-contacts that carry friction (thesis 4.7: the primary ones)
};

struct ConstrainedContact {
  Contact contact;
  double mu = 0.0;  // friction coefficient of the material pair
};

struct ConstraintSet {
  std::vector<ConstrainedContact> contacts;
  std::vector<ContactConstraint> constraints;
  void clear() { contacts.clear(); constraints.clear(); }
};

}  // namespace pegsim
