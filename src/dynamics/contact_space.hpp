// The contact-space blocks of the Drumwright-Shell models (references 000 and
// 002; reading guide shared/notes/drumwright-shell.md, "Notation"): for one
// island, the dense normal and tangent Jacobians N, S, T (n x m, one row per
// contact, positive = separating / along the tangent), the block-diagonal
// inverse mass M^-1 (m x m, m = 6 per dynamic body, thesis 2.4.1) and the
// island's generalized velocity as one vector.
//
// The rows are the time-stepping formulation's own (formulation_detail::
// contact_row, thesis eqs. 2.22, 2.26): a unit impulse along direction d acts
// -d on body A at point_a and +d on body B at point_b. The tangents are one
// orthonormal pair per contact (S along friction_basis's first direction, T
// along n x S), as 002's no-slip rows (45)-(46) and 000's G basis
// (n_i, s_i, t_i) need (the guide, B.9-12: never the n_d-direction pyramid).
// Planar scenes have S only (T is the zero row: the locked out-of-plane
// direction carries no velocity).
#pragma once

#include "contact/constraint_set.hpp"
#include "dynamics/mass.hpp"

#include <cstdint>
#include <vector>

namespace pegsim {

struct ContactSpace {
  std::vector<std::uint32_t> bodies;  // the island's dynamic bodies, ascending (model indices)
  std::vector<int> block;             // per model body: its block in the island's vectors, -1 if none
  int m = 0;                          // 6 * bodies
  MatX inverse_mass;                  // M^-1 (m x m, block diagonal)
  MatX N, S, T;                       // n x m
  VecX gap, mu;                       // per contact: psi_n (m), the material pair's friction coefficient
  std::vector<Vec3> normal, tangent_s, tangent_t;  // world-frame directions per contact

  int contacts() const { return static_cast<int>(N.rows()); }
  // The island's part of a per-body velocity list, stacked [v_0; w_0; v_1; ...].
  VecX gather(const std::vector<Vec6>& per_body) const;
  // Writes the island's blocks of v into the per-body list (other bodies untouched).
  void scatter(const VecX& v, std::vector<Vec6>& per_body) const;
};

// Builds the blocks for the island's `bodies` and the contacts of `set` (every
// contact's bodies must be among `bodies` or static).
void build_contact_space(const Model& model, const State& state, const std::vector<InverseMass>& inverse_mass,
                         const std::vector<std::uint32_t>& bodies, const ConstraintSet& set, ContactSpace& out);

}  // namespace pegsim
