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
//
// Kinematic trees (sim/tree_stepping.hpp, contact in joint space): a tree
// with links in the island contributes its generalized velocity (nv columns
// after the loose bodies' blocks) instead of 6 per link, its block of M^-1 is
// (M + h D)^-1 (dense), and a row on a link is j' J_i, J_i the link's 6 x nv
// Jacobian at its centre of mass. Active joint limits of those trees follow
// the contacts as rows of N (gap: the distance to the limit; S, T zero,
// mu 0): frictionless unilateral rows, as in the time-stepping stepper.
#pragma once

#include "contact/constraint_set.hpp"
#include "dynamics/mass.hpp"
#include "solvers/lcp.hpp"

#include <cstdint>
#include <vector>

namespace pegsim {

// The trees' part of a step (sim/tree_stepping.hpp fills it).
struct TreeTerms {
  struct Limit {
    std::uint32_t link_body = 0;  // the joint's child link (the island test)
    JacobianRow row;              // s a on the link bodies (model indices)
    double gap = 0.0;             // q - lower or upper - q
  };
  std::vector<int> tree_of;                // per model body: its tree, -1 for a loose body
  std::vector<const MatX*> jacobian;       // per model body: a link's 6 x nv Jacobian, [v_com; omega]
  std::vector<MatX> inverse_inertia;       // per tree: (M + h D)^-1
  std::vector<Limit> limits;               // active joint limits of every tree
};

struct ContactSpace {
  std::vector<std::uint32_t> bodies;  // the island's dynamic bodies, ascending (model indices), links included
  std::vector<int> block;             // per model body: its 6-block in the island's vectors, -1 if none (links)
  std::vector<int> tree_offset;       // per tree: its first column in the island's vectors, -1 if not in it
  int loose = 0;                      // loose bodies (6 columns each, first)
  int m = 0;                          // 6 * loose + the trees' nv
  int limit_rows = 0;                 // joint-limit rows, after the contacts' rows
  MatX inverse_mass;                  // M^-1 (m x m, block diagonal)
  MatX N, S, T;                       // (contacts + limit rows) x m
  VecX gap, mu;                       // per row: psi_n (m), the material pair's friction coefficient (limits: 0)
  // per row: the contact's drift rate along S and T (ConstrainedContact::drift_rate, m/s; zero unless
  // SimOptions::contact_drift_correction): a sticking contact's target is S v+ = -drift_s, T v+ = -drift_t
  VecX drift_s, drift_t;
  std::vector<Vec3> normal, tangent_s, tangent_t;  // world-frame directions per contact (limits: zero)

  int contacts() const { return static_cast<int>(N.rows()); }  // rows, limit rows included
  // The island's part of a per-body velocity list and the trees' generalized
  // velocities, stacked [v_0; w_0; v_1; ...; q'_t ...].
  VecX gather(const std::vector<Vec6>& per_body, const std::vector<VecX>& per_tree = {}) const;
  // Writes the island's blocks of v into the per-body list and the trees'
  // segments into per_tree (other bodies and trees untouched).
  void scatter(const VecX& v, std::vector<Vec6>& per_body, std::vector<VecX>* per_tree = nullptr) const;
};

// Builds the blocks for the island's `bodies` and the contacts of `set` (every
// contact's bodies must be among `bodies` or static); `trees`: the trees'
// terms when the model has trees (their link bodies among `bodies` are
// replaced by the trees' coordinates, and their active limits become rows).
void build_contact_space(const Model& model, const State& state, const std::vector<InverseMass>& inverse_mass,
                         const std::vector<std::uint32_t>& bodies, const ConstraintSet& set, ContactSpace& out,
                         const TreeTerms* trees = nullptr);

}  // namespace pegsim
