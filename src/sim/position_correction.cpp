// Position correction: see position_correction.hpp.
#include "sim/position_correction.hpp"

#include "contact/corrective.hpp"
#include "dynamics/integration.hpp"
#include "sim/penetration_meter.hpp"
#include "sim/stage_timer.hpp"
#include "sim/stepper.hpp"

#include <algorithm>
#include <set>

namespace pegsim {

// set_: one corrective contact per overlapping pair of parts, the scene's
// contact model on the narrowphase's contacts of all other pairs.
void PositionCorrector::build_set(const Model& model, const State& state, const std::vector<Contact>& contacts,
                                  ContactModel& scene_model) {
  if (!overlap_model_) overlap_model_ = make_corrective_model();
  overlap_model_->build(model, state, contacts, set_);
  std::set<PartPairKey> overlapping;
  for (const ConstrainedContact& c : set_.contacts) overlapping.insert(part_pair_key(c.contact));
  others_.clear();
  for (const Contact& c : contacts)
    if (!overlapping.count(part_pair_key(c))) others_.push_back(c);
  scene_model.build(model, state, others_, others_set_);
  // these pairs are apart (or touch within the clipping's round-off): a
  // negative gap among their contacts is a facet plane's false extension
  // (thesis 4.1), not an overlap, and is only held, not pushed out; pushing it
  // would be the standard model's trap and leave the projection infeasible
  for (ConstrainedContact& c : others_set_.contacts) c.contact.gap = std::max(c.contact.gap, 0.0);
  set_.append(others_set_);
  for (ConstrainedContact& c : set_.contacts) c.mu = 0.0;  // a projection has no friction
  for (ContactConstraint& k : set_.constraints) k.friction.clear();
}

// island_set_'s projection (at_rest_: zero velocity per body, the problem's
// nu*), added to `displacement`; false if no solver of the chain solved it.
bool PositionCorrector::project_island(const Model& model, const State& state, SolverChain& chain,
                                       std::vector<Vec6>& displacement) {
  FormulationInput in;
  in.model = &model;
  in.state = &state;
  in.inverse_mass = &inverse_mass_;
  in.free_velocity = &at_rest_;
  in.prescribed_motion = false;
  in.h = 1.0;
  in.matrix = chain.first_needs_matrix();
  build_problem(FormulationKind::StewartTrinkle, in, island_set_, problem_);
  if (!model.trees.empty() && trees_.touches(problem_)) {  // rows on links: their terms through M(q)^-1
    if (!problem_.lcp.has_matrix()) assemble_matrix(problem_.lcp);
    trees_.add_delassus(problem_);
  }
  if (!chain.solve_first_accepted(problem_.lcp, z_)) return false;
  apply_impulses(problem_, z_, inverse_mass_, displacement);
  if (!model.trees.empty()) trees_.add_impulses(problem_, z_);
  return true;
}

double PositionCorrector::correct(const Model& model, State& state, ContactFinder& finder, ContactModel& scene_model,
                                  SolverChain& chain, double depth, StepReport& report) {
  const SimOptions& o = model.options;
  if (!o.position_correction) return depth;
  StageTimer timer(report.profile, Stage::PositionCorrection);
  const std::size_t nb = model.bodies.size();
  at_rest_.assign(nb, Vec6::Zero());
  inverse_mass_.resize(nb);
  for (int pass = 0; pass < o.correction_iterations && depth > o.correction_tolerance; ++pass) {
    finder.refind(model, state);
    build_set(model, state, finder.contacts(), scene_model);
    for (std::size_t i = 0; i < nb; ++i)
      inverse_mass_[i] = world_inverse_mass(model.bodies[i], state.bodies[i], o.dimension);
    if (!model.trees.empty()) trees_.begin_projection(model, state, inverse_mass_);  // links: zero inverse mass
    // one problem per island (sim/islands.hpp), and only islands with an
    // overlap in them: elsewhere every gap is >= 0 and the projection is zero
    tree_ends_.clear();
    append_tree_link_pairs(model, tree_ends_);  // a tree's links are one island
    find_islands(set_, finder.is_static(), islands_, tree_ends_);
    displacement_.assign(nb, Vec6::Zero());
    int projected = 0;
    for (const Island& island : islands_) {
      bool overlap = false;
      for (int c : island.contacts) overlap |= set_.contacts[c].contact.kind == FeatureKind::Overlap;
      if (!overlap) continue;
      extract_island(set_, island, island_set_);
      if (project_island(model, state, chain, displacement_)) ++projected;
      else ++report.correction_failures;
    }
    if (projected == 0) break;  // nothing solved (or the SAT depth has no clipped overlap behind it)
    displace(model, displacement_, state);
    if (!model.trees.empty()) trees_.finish_projection(model, state);  // q += M^-1 G p, links by kinematics
    check_finite(model, state);
    ++report.position_corrections;
    depth = deepest_penetration(model, state, finder.pairs());
  }
  return depth;
}

}  // namespace pegsim
