// Pieces shared by the Drumwright-Shell steppers (sim/normal_lcp_stepper.hpp:
// no-slip and viscous, reference 002; sim/convex_impulse_stepper.hpp: the
// convex-optimization impulse model, reference 000).
//
// Scope, checked by check_scope when the stepper is configured: these
// steppers read U-constraints only (one normal row per contact point, as both
// papers write their models with the standard model's contacts): PEG and LNC
// reach them with each I- and X-constraint reduced to its active piece
// (contact/active_piece.hpp; the slack rows are in neither paper); no
// maximal-coordinate joints (the
// papers' P with joint rows, guide B.10, is not built yet), kinematic trees
// where the stepper takes them (`trees`; all three do, contact in joint
// space, dynamics/contact_space.hpp; not with joint friction, which none of
// the models has), and no position correction. Anything else is refused
// with an std::invalid_argument naming the option, never silently changed.
#pragma once

#include "contact/constraint_set.hpp"
#include "dynamics/contact_space.hpp"
#include "dynamics/mass.hpp"
#include "sim/island_solver.hpp"
#include "sim/islands.hpp"
#include "sim/model.hpp"
#include "sim/state.hpp"
#include "sim/step_report.hpp"
#include "sim/tree_stepping.hpp"

#include <cstdint>
#include <string_view>
#include <utility>
#include <vector>

namespace pegsim {

void check_scope(const Model& model, std::string_view stepper, bool trees = false);

// The island's part of the set (the set itself when there is one island).
const ConstraintSet& island_set(const ConstraintSet& all, const std::vector<Island>& islands, std::size_t i,
                                ConstraintSet& scratch);

// Writes island contacts' impulses into the report (whole-set contact order):
// normal impulse f_n and tangential (f_s, f_t) along the space's tangents.
void report_contact_impulses(const Island& island, const ConstraintSet& set, const ContactSpace& space,
                             const VecX& normal, const MatX& tangential, StepReport& report);

// The chain's view of an LCP in the normal impulses (or forces) alone: every
// row Normal, no friction rows (the cone is not the chain's to check).
StepProblem normal_rows_problem(LcpProblem lcp);

// Drops the islands that have nothing to solve: no contact and no joint limit
// of `trees` (a tree alone, its links joined by append_tree_link_pairs).
void drop_empty_islands(std::vector<Island>& islands, const TreeTerms& trees);

// The kinematic trees at a step's (or an RK4 stage's) start, as these
// steppers take them in joint space: links follow q, v; the link bodies get a
// zero inverse_mass, and their entries of free_velocity are J_i v*; the terms
// for the contact spaces (joint limits included); per tree v and v*; the link
// pairs that make each tree one island (its links' rows couple through M^-1).
struct TreeStart {
  TreeStepping stepping;
  TreeTerms terms;
  std::vector<VecX> velocity, free;                           // per tree: v, v*
  std::vector<std::pair<std::uint32_t, std::uint32_t>> ends;  // append_tree_link_pairs
  // Fills all of the above from `state` (nothing, and no terms, without trees).
  void begin(const Model& model, const State& state, std::vector<InverseMass>& inverse_mass,
             std::vector<Vec6>& free_velocity);
};

// Forces and torques cleared, NaN check, time and step advanced (the report's
// time too): the end of a step whose poses and velocities are set.
void end_step(const Model& model, State& state, StepReport& report);

// Poses from velocity (eq. 2.36), then the trees' (`trees`: q from v+, links
// by forward kinematics), then end_step.
void finish_step(const Model& model, const std::vector<Vec6>& velocity, State& state, StepReport& report,
                 TreeStepping* trees = nullptr);

}  // namespace pegsim
