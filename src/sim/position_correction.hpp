// Position correction (SimOptions::position_correction): after the step, poses
// are projected out of any overlap the step left, by a complementarity
// problem of the step's own form (below); velocities are left alone.
//
// Why: the step is exact only to first order in the rotation (thesis 5.3,
// Figs. 5.23-5.25): contact normals, points and applicability are fixed at the
// start of the step, so a body that turns by phi in the step can end it
// overlapping another by about r phi^2 / 2, even under PEG. Post-stabilization
// (Cline and Pai, "Post-stabilization for rigid body simulation with contact
// and constraints", ICRA 2003; Box2D's position pass is a Gauss-Seidel form of
// it) removes that error without touching the dynamics.
//
// The projection is the step's own problem at the end-of-step poses with
// h = 1, zero velocities, no external impulses and no friction (thesis eq.
// 6.1 with nu* = 0):
//   0 <= p_n  perp  G_n' M^-1 G_n p_n + psi_n >= 0,   dq = M^-1 G_n p_n,
// the smallest mass-weighted displacement dq that brings every constrained gap
// to >= 0 to first order. Its constraints:
// - each overlapping pair of bodies (of convex parts) gets the corrective
//   method's one contact (contact/corrective.cpp, thesis 5.2): along the
//   separating axis of least penetration, gap = minus that depth. That axis
//   always separates the pair, whatever its features (the features' own
//   constraints may have let the overlap through in the first place);
// - every other pair within contact distance gets the scene's contact model
//   (PEG's I- and X-constraints under PEG), so that pushing one pair apart does
//   not push a body into a third one, and does not trap it there. Those pairs
//   are apart, so their gaps are taken as max(gap, 0): held, never pushed (a
//   negative one is a falsely extended facet plane; Contact's points are left
//   as they are, only the projection's psi changes).
// One problem per contact island, for the islands that hold an overlap (in
// the others every gap is >= 0, so their projection is zero). The poses move
// by dq as integrate() would move them in a step of length 1
// (dynamics/integration.hpp, displace()). A projection is linear, so it is
// repeated while the deepest overlap (separating axis theorem, as
// StepReport::max_penetration) is above correction_tolerance, at most
// correction_iterations times.
// Kinematic trees (sim/tree_stepping.hpp) are projected in joint space, as a
// step moves them: the rows on links enter through M(q)^-1 (A += R' M^-1 G)
// and the tree's configuration moves by dq = M^-1 G p_n, its links following
// by forward kinematics, so the correction never pulls a link off its joints.
#pragma once

#include "contact/contact_model.hpp"
#include "dynamics/formulation.hpp"
#include "dynamics/mass.hpp"
#include "sim/contact_finder.hpp"
#include "sim/islands.hpp"
#include "sim/solver_chain.hpp"
#include "sim/step_report.hpp"
#include "sim/tree_stepping.hpp"

#include <memory>
#include <vector>

namespace pegsim {

class PositionCorrector {
 public:
  // Projects the poses of `state` out of any overlap deeper than
  // correction_tolerance (`depth`: the deepest overlap now, as the
  // penetration meter measured it), re-finding contacts over the finder's
  // pairs and building constraints with `scene_model` (the scene's contact
  // model) and solving with `chain`. Counts projections and failed island
  // projections in the report; returns the deepest overlap after it. A no-op
  // when SimOptions::position_correction is off.
  double correct(const Model& model, State& state, ContactFinder& finder, ContactModel& scene_model,
                 SolverChain& chain, double depth, StepReport& report);

 private:
  void build_set(const Model& model, const State& state, const std::vector<Contact>& contacts,
                 ContactModel& scene_model);
  bool project_island(const Model& model, const State& state, SolverChain& chain, std::vector<Vec6>& displacement);

  std::unique_ptr<ContactModel> overlap_model_;  // the corrective method's one contact per overlapping pair
  ConstraintSet set_, others_set_, island_set_;
  std::vector<Contact> others_;
  std::vector<Island> islands_;
  std::vector<InverseMass> inverse_mass_;
  std::vector<Vec6> at_rest_, displacement_;
  StepProblem problem_;
  VecX z_;
  TreeStepping trees_;  // kinematic trees: the projection in joint space
  std::vector<std::pair<std::uint32_t, std::uint32_t>> tree_ends_;  // (root link, link): one island per tree
};

}  // namespace pegsim
