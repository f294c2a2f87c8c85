#include "sim/normal_lcp_stepper.hpp"

#include "contact/active_piece.hpp"
#include "sim/drumwright_shell_step.hpp"
#include "sim/impulse_energy.hpp"
#include "sim/penetration_meter.hpp"
#include "sim/stage_timer.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>

namespace pegsim {

void NormalLcpStepper::configure(const Model& model) {
  check_scope(model, name(), true);
  if (law_ != TangentialLaw::NoSlip && model.options.contact_drift_correction)
    throw std::invalid_argument("stepper viscous has no sticking contact whose drift to correct: set "
                                "contact_drift_correction: false");
  trees_.stepping.forget_sync();
  drift_.clear();
  SolverChain chain;
  chain.configure(model.options);
  contact_model_ = make_one_row_contact_model(model.options.model, model.options.dimension);
  chain_ = std::move(chain);
  bound_.configure(model);
}

void NormalLcpStepper::build(const Model& model, const ContactSpace& space, double gap_floor, NormalLcp& out) const {
  const DrumwrightShellOptions& d = model.options.drumwright_shell;
  const VecX v_free = space.gather(free_velocity_, trees_.free);
  if (law_ == TangentialLaw::NoSlip)
    build_no_slip_lcp(space, v_free, model.options.h, d.touch, gap_floor, out, released_);
  else
    build_viscous_lcp(space, space.gather(start_velocity_, trees_.velocity), v_free, model.options.h,
                      ViscousLaw{d.viscous, d.touch, d.viscous_implicit}, gap_floor, out);
}

// One island's LCP built and solved by the chain, with the recovery for
// penetrating contacts and the NaN guard (the class comment).
SolverResult NormalLcpStepper::solve_island(const Model& model, const ContactSpace& space, const ConstraintSet& set,
                                            const Island& island, StepReport& report, NormalLcp& lcp, VecX& z,
                                            IslandReport& ir) {
  {
    StageTimer timer(report.profile, Stage::Formulation);
    build(model, space, -std::numeric_limits<double>::infinity(), lcp);
  }
  StageTimer timer(report.profile, Stage::Solver);
  z.setZero(lcp.lcp.size());
  StepProblem problem = normal_rows_problem(lcp.lcp);
  const int n = lcp.lcp.size();
  ir = IslandReport{};
  ir.bodies = island.bodies;
  SolverResult result = chain_.solve(set, problem, z, std::numeric_limits<double>::infinity(), ir);
  const bool penetrating = (space.gap.array() < 0.0).any();
  if (!ir.certified && penetrating) {
    NormalLcp clamped;
    build(model, space, 0.0, clamped);
    VecX retry;
    if (chain_.solve_with_last(clamped.lcp, retry)) {
      lcp = std::move(clamped);
      z = retry;
      ir.recovered = true;
      result.message += "; recovered by solving without penetration correction";
      SolverResult measured;
      measure_residuals(lcp.lcp, z, measured);
      ir.complementarity = measured.complementarity;
      ir.feasibility = measured.feasibility;
    }
  }
  if (!z.allFinite()) {  // never integrate a NaN
    z.setZero(n);
    result.status = SolverStatus::NumericalFailure;
    result.message = "solver returned non-finite impulses; contact impulses dropped";
  }
  return result;
}

void NormalLcpStepper::step(const Model& model, State& state, const StepNeeds& needs, StepReport& report) {
  {
    StageTimer timer(report.profile, Stage::FreeVelocity);
    // links follow q, v even if a caller moved them
    if (!model.trees.empty()) trees_.stepping.sync_if_moved(model, state);
    body_velocities(model, state, false, inverse_mass_, start_velocity_);
    body_velocities(model, state, true, inverse_mass_, free_velocity_);
    trees_.begin(model, state, inverse_mass_, free_velocity_);
  }
  finder_.find(model, state, free_velocity_, report.profile);
  report.short_contact_distance = finder_.short_contact_distance();
  {
    StageTimer timer(report.profile, Stage::ContactModel);
    contact_model_->build(model, state, finder_.contacts(), constraints_);
    report.contacts_found = static_cast<int>(finder_.contacts().size());
    report.constraints = constraints_.counts();
    if (model.options.contact_drift_correction)
      drift_.measure(model, state, inverse_mass_, model.trees.empty() ? nullptr : &trees_.terms, constraints_);
  }
  velocity_ = free_velocity_;
  report.solved_by.assign(chain_.size(), 0);
  islands_.clear();
  if (!constraints_.contacts.empty() || !trees_.terms.limits.empty())
    find_islands(constraints_, finder_.is_static(), islands_, trees_.ends);
  drop_empty_islands(islands_, trees_.terms);
  tree_post_ = trees_.free;
  const std::size_t n_islands = islands_.size();
  spaces_.resize(n_islands);
  problems_.resize(n_islands);
  impulses_.resize(n_islands);
  post_velocities_.resize(n_islands);
  report.resize_islands(n_islands);
  report.contacts.resize(constraints_.contacts.size());
  report.impulses.resize(constraints_.contacts.size());
  for (std::size_t i = 0; i < n_islands; ++i) {
    const ConstraintSet& set = island_set(constraints_, islands_, i, island_scratch_);
    ContactSpace& space = spaces_[i];
    NormalLcp& lcp = problems_[i];
    // one variable per contact (and limit row): over the budget, not solved
    if (const long size = static_cast<long>(set.contacts.size()); size > model.options.max_problem_size) {
      space = ContactSpace{};
      lcp = NormalLcp{};
      impulses_[i].resize(0);
      post_velocities_[i].resize(0);
      add_island_to_report(i, report.islands[i], skip_over_budget(islands_[i], set, size, report.islands[i], report),
                           report);
      continue;
    }
    {
      StageTimer timer(report.profile, Stage::Formulation);
      build_contact_space(model, state, inverse_mass_, islands_[i].bodies, set, space,
                          model.trees.empty() ? nullptr : &trees_.terms);
    }
    VecX& z = impulses_[i];
    IslandReport& ir = report.islands[i];
    released_.assign(space.contacts(), 0);
    SolverResult result;
    for (int pass = 0;; ++pass) {
      result = solve_island(model, space, set, islands_[i], report, lcp, z, ir);
      if (law_ != TangentialLaw::NoSlip || pass + 1 == kReleasePasses) break;
      // a touching contact that separates without a normal impulse lets go (decision R1 in the header)
      const VecX v = lcp.velocities(z);
      bool released = false;
      for (int c = 0; c + space.limit_rows < space.contacts(); ++c)
        if (lcp.touching[c] && !(z(c) > 0.0) && space.N.row(c).dot(v) > kSeparating) {
          released_[c] = 1;
          released = true;
        }
      if (!released) break;
    }
    const VecX free = space.gather(free_velocity_, trees_.free);
    {
      StageTimer timer(report.profile, Stage::Integration);
      post_velocities_[i] = lcp.velocities(z);
      if (!post_velocities_[i].allFinite() || !lcp.tangent_impulse.allFinite()) {  // never integrate a NaN
        // finite impulses can still give a non-finite v+: no-slip's rho from a Y singular to rounding
        z.setZero();
        lcp.tangent_impulse.setZero();
        post_velocities_[i] = free;
        ir.certified = false;
        result.status = SolverStatus::NumericalFailure;
        result.message += "; non-finite velocities from the impulses: none applied (free motion)";
      }
    }
    report.viscous_overshoots += lcp.viscous_overshoots;
    bound_.apply(model, state, space, set, inverse_mass_, free, trees_.stepping, lcp, z, post_velocities_[i], result, ir,
                 report);
    add_island_to_report(i, ir, result, report);
    const int n = lcp.lcp.size();
    StageTimer timer(report.profile, Stage::Integration);
    space.scatter(post_velocities_[i], velocity_, &tree_post_);
    report_contact_impulses(islands_[i], set, space, z, lcp.tangent_impulse, report);
    if (law_ == TangentialLaw::NoSlip)  // (45)-(46) on every touching contact, the rows Algorithm 2 dropped included
      for (int c = 0; c < n; ++c)
        if (lcp.touching[c])
          report.slip_residual =
              std::max({report.slip_residual, std::abs(space.S.row(c).dot(post_velocities_[i]) + space.drift_s(c)),
                        std::abs(space.T.row(c).dot(post_velocities_[i]) + space.drift_t(c))});
  }
  {
    StageTimer timer(report.profile, Stage::Integration);
    for (std::size_t t = 0; t < model.trees.size(); ++t) trees_.stepping.set_velocity(t, tree_post_[t]);
    if (model.options.contact_drift_correction) {  // anchors at the start poses, with v+
      trees_.stepping.start_link_velocities(model, tree_post_, velocity_);
      drift_.remember(model, state, constraints_, velocity_);
    }
    finish_step(model, velocity_, state, report, &trees_.stepping);
  }
  if (!needs.penetration) return;
  StageTimer timer(report.profile, Stage::Penetration);
  report.max_penetration = report.penetration_before_correction = deepest_penetration(model, state, finder_.pairs());
}

}  // namespace pegsim
