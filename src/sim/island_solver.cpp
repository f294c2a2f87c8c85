#include "sim/island_solver.hpp"

#include "joints/joint_problem.hpp"
#include "sim/certification.hpp"
#include "sim/impulse_energy.hpp"
#include "sim/stage_timer.hpp"
#include "solvers/solver_common.hpp"

#include <algorithm>
#include <cstdio>
#include <limits>

namespace pegsim {

void IslandSolver::configure(const Model& model) { chain_.configure(model.options); }

// Variables of the problem the formulation would build for `set`, at most:
// per constraint its forces and slacks (U: 1; I over K sub-contacts with m
// primaries: m forces, K - 1 c's and m - 1 d's, peg_rows.cpp; X: m = 1), per
// sub-contact with friction nd directions and a slip row (eq. 6.1). Cheap:
// checked before anything of size n^2 is allocated.
static long problem_size_bound(const ConstraintSet& set, int nd) {
  long n = 0;
  for (const ContactConstraint& k : set.constraints) {
    const long m = k.kind == ConstraintKind::I ? k.primaries : 1;
    n += static_cast<long>(k.contacts.size()) + m - 1;
  }
  for (const ConstrainedContact& c : set.contacts)
    if (c.mu > 0.0) n += nd + 1;
  return n;
}

const ConstraintSet& IslandSolver::island_constraints(const ConstraintSet& all, std::size_t island) const {
  return islands_.size() == 1 ? all : island_constraints_.at(island);
}

// islands_ from the constraint set; one island holding everything when
// options.islands is off.
void IslandSolver::group_islands(const Model& model, const std::vector<bool>& is_static,
                                 const ConstraintSet& constraints) {
  joint_ends_.clear();
  for (const JointModel& j : model.joints) joint_ends_.emplace_back(j.body_a, j.body_b);
  // a tree's links are one island: pseudo-joint ends, dropped from the islands' joint lists after
  const std::size_t model_joints = joint_ends_.size();
  append_tree_link_pairs(model, joint_ends_);
  find_islands(constraints, is_static, islands_, joint_ends_);
  if (joint_ends_.size() != model_joints) {
    for (Island& island : islands_) std::erase_if(island.joints, [&](int j) { return j >= static_cast<int>(model_joints); });
    std::erase_if(islands_, [&](const Island& island) {
      return island.contacts.empty() && island.joints.empty() && !(trees_ && trees_->has_limit_rows(island.bodies));
    });
  }
  if (model.options.islands || islands_.size() <= 1) return;
  Island all;
  for (const Island& island : islands_) all.bodies.insert(all.bodies.end(), island.bodies.begin(), island.bodies.end());
  std::sort(all.bodies.begin(), all.bodies.end());
  for (std::size_t c = 0; c < constraints.contacts.size(); ++c) all.contacts.push_back(static_cast<int>(c));
  for (std::size_t k = 0; k < constraints.constraints.size(); ++k) all.constraints.push_back(static_cast<int>(k));
  for (const Island& island : islands_) all.joints.insert(all.joints.end(), island.joints.begin(), island.joints.end());
  std::sort(all.joints.begin(), all.joints.end());
  islands_.assign(1, std::move(all));
}

void IslandSolver::formulate(const Model& model, const State& state, const ConstraintSet& set,
                             const std::vector<int>& joints, const std::vector<InverseMass>& inverse_mass,
                             const std::vector<Vec6>& free_velocity, StepProblem& problem, bool matrix) {
  FormulationInput in;
  in.model = &model;
  in.state = &state;
  in.inverse_mass = &inverse_mass;
  in.free_velocity = &free_velocity;
  in.h = model.options.h;
  in.matrix = matrix;
  build_problem(model.options.formulation, in, set, problem);
  append_joint_rows(in, joints, problem);  // the island's joints after its contact rows
  if (trees_ && island_bodies_) trees_->append_limit_rows(*island_bodies_, free_velocity, inverse_mass, model.options.h, problem);
  if (trees_ && trees_->touches(problem)) {  // joint-space terms of A (sim/tree_stepping.hpp)
    if (!problem.lcp.has_matrix()) assemble_matrix(problem.lcp);
    trees_->add_delassus(problem);
  }
}

void IslandSolver::solve(const Model& model, const State& state, const std::vector<bool>& is_static,
                         const ConstraintSet& constraints, const std::vector<InverseMass>& inverse_mass,
                         const std::vector<Vec6>& free_velocity, std::vector<Vec6>& velocity, StepReport& report) {
  warm_start_.begin_step();
  report.solved_by.assign(chain_.size(), 0);
  report.joint_wrenches.assign(model.joints.size(), Vec6::Zero());
  if (constraints.contacts.empty() && model.joints.empty() && !(trees_ && trees_->has_limit_rows())) {
    islands_.clear();
    problems_.clear();
    warm_start_.end_step();
    return;
  }
  group_islands(model, is_static, constraints);
  const std::size_t n = islands_.size();
  if (n > 1) island_constraints_.resize(n);  // a single island is the whole set, in its order: no copy
  problems_.resize(n);
  report.resize_islands(n);
  const int nc = static_cast<int>(constraints.contacts.size());
  report.contacts.resize(nc);
  report.impulses.resize(nc);
  for (std::size_t i = 0; i < n; ++i) {
    const Island& island = islands_[i];
    island_bodies_ = &island.bodies;
    if (n > 1) extract_island(constraints, island, island_constraints_[i]);
    const ConstraintSet& set = island_constraints(constraints, i);
    StepProblem& problem = problems_[i];
    const int nd = model.options.dimension == Dimension::Planar ? 2 : model.options.friction_directions;
    if (const long size = problem_size_bound(set, nd); size > model.options.max_problem_size) {
      problem = StepProblem{};  // nothing of it is solved or captured
      report_island(i, skip_over_budget(island, set, size, report.islands[i], report), report);
      continue;
    }
    {
      StageTimer timer(report.profile, Stage::Formulation);
      // the dense A only when the chain's first solver reads it (pgs, psor
      // work on the structure); a fallback that needs it assembles it then
      formulate(model, state, set, island.joints, inverse_mass, free_velocity, problem, chain_.first_needs_matrix());
      warm_start_.guess(set, problem, z_);
    }
    SolverResult result;
    {
      StageTimer timer(report.profile, Stage::Solver);
      IslandReport& ir = report.islands[i];
      ir.bodies = island.bodies;
      result = chain_.solve(set, problem, z_, model.options.max_cone_violation, ir);
      bool changed = false;  // z no longer the last attempt's: measure again
      if (!ir.certified && recover(model, state, set, island.joints, inverse_mass, free_velocity, z_)) {
        std::swap(problem, clamped_problem_);  // the impulses are the clamped problem's (its layout may differ: F2)
        warm_start_.rename(set, problem);
        ir.recovered = true;
        changed = true;
        result.message += "; recovered by solving without penetration correction";
      }
      if (z_.size() != problem.lcp.size() || !z_.allFinite()) {  // never integrate a NaN: drop the impulses
        z_.setZero(problem.lcp.size());
        changed = true;
        result.status = SolverStatus::NumericalFailure;
        result.message = "solver returned non-finite impulses; contact impulses dropped";
      }
      if (model.options.energy_bound && !(trees_ && trees_->touches(problem))) {
        const double s = energy_bounded_scale(impulse_work(problem, z_, inverse_mass, free_velocity));
        if (s < 1.0) {  // sim/impulse_energy.hpp: more kinetic energy than the gaps and targets allow
          z_ *= s;
          ir.impulse_scale = s;
          ir.certified = false;  // a solution that launches bodies is not one to trust
          ++report.impulses_scaled;
          changed = true;
          char part[96];
          std::snprintf(part, sizeof part, "; impulses scaled by %.3g to the energy bound", s);
          result.message += part;
          if (result.ok()) result.status = SolverStatus::NumericalFailure;
        }
      }
      if (changed) {
        SolverResult measured;
        measure_residuals(problem.lcp, z_, measured);
        ir.complementarity = measured.complementarity;
        ir.feasibility = measured.feasibility;
        ir.cone_violation = cone_violation(problem, z_, set);
      }
      report_island(i, result, report);
    }
    StageTimer timer(report.profile, Stage::Integration);
    apply_impulses(problem, z_, inverse_mass, velocity);
    if (trees_) trees_->add_impulses(problem, z_);
    if (!island.joints.empty()) add_joint_reactions(model, state, problem, z_, model.options.h, report.joint_wrenches);
    warm_start_.remember(z_);
    // per-contact impulses for observers, in the whole set's contact order
    for (std::size_t c = 0; c < island.contacts.size(); ++c) {
      const int global = island.contacts[c];
      report.contacts[global] = set.contacts[c].contact;
      ContactImpulse& imp = report.impulses[global];
      imp.normal = normal_impulse(problem, z_, static_cast<int>(c));  // 0 for a PEG secondary sub-contact
      imp.friction.setZero();
      const int f = problem.first_friction_var[c];
      if (f >= 0)
        for (int k = 0; k < problem.friction_directions; ++k) imp.friction += z_(f + k) * problem.friction_direction[f + k];
    }
  }
  warm_start_.end_step();
}

// See the header.
SolverResult skip_over_budget(const Island& island, const ConstraintSet& set, long size, IslandReport& ir,
                              StepReport& report) {
  ir = IslandReport{};
  ir.bodies = island.bodies;
  ir.contacts = static_cast<int>(set.contacts.size());
  ir.problem_size = static_cast<int>(std::min<long>(size, std::numeric_limits<int>::max()));
  ir.attempts.push_back(SolveAttempt{0, SolverStatus::MaxIterations, std::numeric_limits<double>::infinity(), 0.0, false});
  ir.certified = false;
  ir.over_budget = true;
  ++report.over_budget;
  for (std::size_t c = 0; c < island.contacts.size(); ++c) {
    report.contacts[island.contacts[c]] = set.contacts[c].contact;
    report.impulses[island.contacts[c]] = ContactImpulse{};
  }
  SolverResult skipped;
  skipped.status = SolverStatus::MaxIterations;
  skipped.message = "over max_problem_size: not solved";
  return skipped;
}

void IslandSolver::report_island(std::size_t i, const SolverResult& result, StepReport& report) {
  add_island_to_report(i, report.islands[i], result, report);
}

void add_island_to_report(std::size_t i, const IslandReport& ir, const SolverResult& result, StepReport& report) {
  ++report.solver_calls;
  report.problem_size += ir.problem_size;
  report.escalations += ir.escalations;
  if (!ir.certified) ++report.solver_failures;
  if (ir.recovered) ++report.solver_recoveries;
  if (!ir.attempts.empty() && ir.attempts.back().solver < static_cast<int>(report.solved_by.size()))
    ++report.solved_by[ir.attempts.back().solver];
  report.complementarity = std::max({report.complementarity, ir.complementarity, ir.feasibility});
  report.cone_violation = std::max(report.cone_violation, ir.cone_violation);
  const int iterations = report.solver.iterations + result.iterations;
  const bool worse = i == 0 || (!result.ok() && report.solver.ok()) ||
                     (result.ok() == report.solver.ok() &&
                      solver_detail::residual_norm(result) > solver_detail::residual_norm(report.solver));
  if (worse) report.solver = result;
  report.solver.iterations = i == 0 ? result.iterations : iterations;
}

// See the header: the island again with penetrating gaps clamped at zero.
bool IslandSolver::recover(const Model& model, const State& state, const ConstraintSet& set,
                           const std::vector<int>& joints, const std::vector<InverseMass>& inverse_mass,
                           const std::vector<Vec6>& free_velocity, VecX& z) {
  // Anitescu-Potra's U rows read no gap; PEG's I and X rows do under either formulation (peg_rows.cpp F1)
  if (model.options.formulation != FormulationKind::StewartTrinkle && !set.has_peg_constraints()) return false;
  bool any = false;
  for (const ConstrainedContact& c : set.contacts) any |= c.contact.gap < 0.0;
  if (!any) return false;
  clamped_ = set;
  for (ConstrainedContact& c : clamped_.contacts) c.contact.gap = std::max(c.contact.gap, 0.0);
  formulate(model, state, clamped_, joints, inverse_mass, free_velocity, clamped_problem_, true);
  VecX retry;
  if (!chain_.solve_with_last(clamped_problem_.lcp, retry)) return false;
  z = retry;
  return true;
}

}  // namespace pegsim
