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
#include "dynamics/integration.hpp"
#include "contact/corrective.hpp"
#include "sim/stage_timer.hpp"
#include "sim/islands.hpp"
#include "sim/world.hpp"

#include <algorithm>
#include <set>

namespace pegsim {

// correction_set_: one corrective contact per overlapping pair of parts, the
// scene's contact model on the narrowphase's contacts of all other pairs.
void World::build_correction_set() {
  if (!overlap_model_) overlap_model_ = make_corrective_model();
  overlap_model_->build(model_, state_, contacts_, correction_set_);
  std::set<PartPairKey> overlapping;
  for (const ConstrainedContact& c : correction_set_.contacts) overlapping.insert(part_pair_key(c.contact));
  std::vector<Contact> others;
  for (const Contact& c : contacts_)
    if (!overlapping.count(part_pair_key(c))) others.push_back(c);
  contact_model_->build(model_, state_, others, scratch_set_);
  // these pairs are apart (or touch within the clipping's round-off): a
  // negative gap among their contacts is a facet plane's false extension
  // (thesis 4.1), not an overlap, and is only held, not pushed out; pushing it
  // would be the standard model's trap and leave the projection infeasible
  for (ConstrainedContact& c : scratch_set_.contacts) c.contact.gap = std::max(c.contact.gap, 0.0);
  correction_set_.append(scratch_set_);
}

// One island's projection (at_rest: zero velocity per body, the problem's
// nu*), added to `displacement`; false if no solver of the chain solved it.
bool World::project_island(const ConstraintSet& set, const std::vector<Vec6>& at_rest,
                           std::vector<Vec6>& displacement) {
  {
    StageTimer timer(report_.profile, Stage::Formulation);
    FormulationInput in;
    in.model = &model_;
    in.state = &state_;
    in.inverse_mass = &inverse_mass_;
    in.free_velocity = &at_rest;
    in.h = 1.0;
    in.matrix = solvers_.front()->needs_matrix();
    build_problem(FormulationKind::StewartTrinkle, in, set, correction_problem_);
  }
  LcpProblem& lcp = correction_problem_.lcp;
  VecX z;
  bool solved = false;
  {
    StageTimer timer(report_.profile, Stage::Solver);
    for (const auto& solver : solvers_) {  // the scene's chain, first accepted solution
      z = VecX::Zero(lcp.size());
      if (solver->needs_matrix() && !lcp.has_matrix()) assemble_matrix(lcp);
      solved = solver->solve(lcp, z).ok() && z.allFinite();
      if (solved) break;
    }
  }
  if (solved) apply_impulses(correction_problem_, z, inverse_mass_, displacement);
  return solved;
}

double World::correct_positions(double depth) {
  const SimOptions& o = model_.options;
  if (!o.position_correction) return depth;
  const std::size_t nb = model_.bodies.size();
  const Dimension dim = model_.options.dimension;
  const std::vector<Vec6> at_rest(nb, Vec6::Zero());
  for (int pass = 0; pass < o.correction_iterations && depth > o.correction_tolerance; ++pass) {
    narrowphase(false);
    {
      StageTimer timer(report_.profile, Stage::ContactModel);
      build_correction_set();
    }
    for (ConstrainedContact& c : correction_set_.contacts) c.mu = 0.0;  // a projection has no friction
    for (ContactConstraint& k : correction_set_.constraints) k.friction.clear();
    for (std::size_t i = 0; i < nb; ++i) inverse_mass_[i] = world_inverse_mass(model_.bodies[i], state_.bodies[i], dim);
    // one problem per island (sim/islands.hpp), and only islands with an
    // overlap in them: elsewhere every gap is >= 0 and the projection is zero
    find_islands(correction_set_, is_static_, correction_islands_);
    std::vector<Vec6> displacement(nb, Vec6::Zero());
    int projected = 0;
    for (const Island& island : correction_islands_) {
      bool overlap = false;
      for (int c : island.contacts) overlap |= correction_set_.contacts[c].contact.kind == FeatureKind::Overlap;
      if (!overlap) continue;
      extract_island(correction_set_, island, island_set_);
      if (project_island(island_set_, at_rest, displacement)) ++projected;
      else ++report_.correction_failures;
    }
    if (projected == 0) break;  // nothing solved (or the SAT depth has no clipped overlap behind it)
    displace(model_, displacement, state_);
    check_finite();
    ++report_.position_corrections;
    depth = measure_penetration();
  }
  return depth;
}

}  // namespace pegsim
