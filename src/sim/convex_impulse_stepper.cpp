#include "sim/convex_impulse_stepper.hpp"

#include "articulated/dynamics.hpp"
#include "contact/active_piece.hpp"
#include "dynamics/formulation_detail.hpp"
#include "sim/drumwright_shell_step.hpp"
#include "sim/penetration_meter.hpp"
#include "sim/stage_timer.hpp"

#include <algorithm>
#include <cmath>

namespace pegsim {
namespace {

constexpr double kApproachTolerance = 1e-9;  // m/s: a separating contact that phase 2 turns below this rejoins

// G = [N; S_1; T_1; S_2; T_2; ...] (000 l.76-80, the ordering of f_i's indices)
MatX stacked_jacobian(const ContactSpace& space) {
  const int n = space.contacts();
  MatX G(3 * n, space.m);
  G.topRows(n) = space.N;
  for (int i = 0; i < n; ++i) {
    G.row(n + 2 * i) = space.S.row(i);
    G.row(n + 2 * i + 1) = space.T.row(i);
  }
  return G;
}

// The contact drift correction (sim/contact_drift.hpp): phase 2 minimizes the
// tangential velocity less the target, || u_T + sigma ||, sigma the contacts'
// drift rates along (S, T): b_T += sigma (zero without the correction).
void add_drift_target(const ContactSpace& space, VecX& b) {
  const int n = space.contacts();
  for (int k = 0; k < n; ++k) {
    b(n + 2 * k) += space.drift_s(k);
    b(n + 2 * k + 1) += space.drift_t(k);
  }
}

}  // namespace

void ConvexImpulseStepper::configure(const Model& model) {
  check_scope(model, name(), true);
  contact_model_ = make_one_row_contact_model(model.options.model, model.options.dimension);
  drift_.clear();
}

// Trees: links follow q, v; link bodies get a zero inverse mass and J_i v*
// (the broadphase's sweep); the contact space's terms; v_k per tree. A joint
// limit joins like a contact (step 1): at it or past it (gap <= touch) and
// approaching or resting at v_k; it is a frictionless contact of the island
// (mu = 0: phase 2 leaves it no tangential impulse).
void ConvexImpulseStepper::tree_terms(const Model& model, const State& state) {
  trees_.begin(model, state, inverse_mass_, free_velocity_);
  const double touch = model.options.drumwright_shell.touch;
  std::erase_if(trees_.terms.limits, [&](const TreeTerms::Limit& l) {
    return l.gap > touch || formulation_detail::row_velocity(l.row, start_velocity_) > 0.0;
  });
}

// Step 3 and 4 for the trees: a = M(q_k)^-1 (tau + J' f_links - C(q_k, v+) - D v+),
// q_{k+1} = q_k + h v+ (integrate_configuration), v_{k+1} = v+ + h a (the links
// follow by kinematics after finish_step).
void ConvexImpulseStepper::integrate_trees(const Model& model, State& state) const {
  for (std::size_t t = 0; t < model.trees.size(); ++t) {
    const articulated::ArticulatedTree& tree = model.trees[t].tree;
    TreeState& ts = state.trees[t];
    const VecX& v_plus = tree_post_[t];
    VecX tau = trees_.stepping.applied_forces(model, state, t);
    for (const articulated::Link& l : tree.links())
      if (l.nv() == 1) tau(l.v_index) -= l.damping * v_plus(l.v_index);
    const VecX a = articulated::forward_dynamics_cholesky(tree, ts.q, v_plus, tau, model.options.gravity);
    ts.q = articulated::integrate_configuration(tree, ts.q, v_plus, model.options.h);
    articulated::normalize_configuration(tree, ts.q);
    ts.v = v_plus + model.options.h * a;
    ts.tau = VecX::Zero(tree.nv());
  }
}

void ConvexImpulseStepper::step(const Model& model, State& state, const StepNeeds& needs, StepReport& report) {
  const DrumwrightShellOptions& ds = model.options.drumwright_shell;
  {
    StageTimer timer(report.profile, Stage::FreeVelocity);
    if (!model.trees.empty()) sync_tree_bodies(model, state);  // links follow q, v even if a caller moved them
    body_velocities(model, state, false, inverse_mass_, start_velocity_);
    body_velocities(model, state, true, inverse_mass_, free_velocity_);  // the broadphase's sweep
    tree_terms(model, state);
  }
  finder_.find(model, state, free_velocity_, report.profile);
  report.short_contact_distance = finder_.short_contact_distance();
  std::vector<JacobianRow> normal_rows;
  std::vector<char> in_set;
  {
    StageTimer timer(report.profile, Stage::ContactModel);
    contact_model_->build(model, state, finder_.contacts(), constraints_);
    report.contacts_found = static_cast<int>(finder_.contacts().size());
    report.constraints = constraints_.counts();
    if (model.options.contact_drift_correction)
      drift_.measure(model, state, inverse_mass_, model.trees.empty() ? nullptr : &trees_.terms, constraints_);
    for (const ConstrainedContact& c : constraints_.contacts) {
      normal_rows.push_back(formulation_detail::contact_row(c.contact, c.contact.normal, model, state));
      const bool touching = c.contact.gap <= ds.touch;  // touching or overlapping
      in_set.push_back(touching && formulation_detail::row_velocity(normal_rows.back(), start_velocity_) <= 0.0);
    }
  }
  report.solved_by.assign(1, 0);
  std::vector<int> global;  // active_ contact -> constraints_ contact
  for (int pass = 0; pass < 4; ++pass) {
    StageTimer timer(report.profile, Stage::Solver);
    active_.clear();
    global.clear();
    for (std::size_t c = 0; c < in_set.size(); ++c)
      if (in_set[c]) {
        active_.add_unilateral(constraints_.contacts[c].contact, constraints_.contacts[c].mu);
        active_.contacts.back().drift_rate = constraints_.contacts[c].drift_rate;
        global.push_back(static_cast<int>(c));
      }
    islands_.clear();
    if (!active_.contacts.empty() || !trees_.terms.limits.empty())
      find_islands(active_, finder_.is_static(), islands_, trees_.ends);
    drop_empty_islands(islands_, trees_.terms);
    const std::size_t n_islands = islands_.size();
    spaces_.resize(n_islands);
    pre_.resize(n_islands);
    post_.resize(n_islands);
    results_.resize(n_islands);
    velocity_ = start_velocity_;
    tree_post_ = trees_.velocity;
    for (std::size_t i = 0; i < n_islands; ++i) {
      const ConstraintSet& set = island_set(active_, islands_, i, island_scratch_);
      ContactSpace& space = spaces_[i];
      build_contact_space(model, state, inverse_mass_, islands_[i].bodies, set, space,
                          model.trees.empty() ? nullptr : &trees_.terms);
      const MatX G = stacked_jacobian(space);
      const MatX MGt = space.inverse_mass * G.transpose();
      ConvexImpulseInput in;
      in.A = G * MGt;
      in.A = 0.5 * (in.A + in.A.transpose());
      pre_[i] = space.gather(start_velocity_, trees_.velocity);
      in.b = G * pre_[i];
      add_drift_target(space, in.b);
      in.mu = space.mu;
      in.restitution = ds.restitution;
      in.circular_cone = ds.circular_cone;
      in.normal_bound = ds.normal_bound;
      solve_convex_impulse(in, results_[i]);
      post_[i] = pre_[i] + MGt * results_[i].x;
      space.scatter(post_[i], velocity_, &tree_post_);
    }
    // a touching contact outside the set that now approaches joins it (guide A.1)
    bool grew = false;
    for (std::size_t c = 0; c < in_set.size(); ++c)
      if (!in_set[c] && constraints_.contacts[c].contact.gap <= ds.touch &&
          formulation_detail::row_velocity(normal_rows[c], velocity_) < -kApproachTolerance) {
        in_set[c] = 1;
        grew = true;
      }
    if (!grew) break;
  }
  // the report: one "problem" per island, certified by its barrier and its residuals
  const int nc = static_cast<int>(constraints_.contacts.size());
  report.contacts.resize(nc);
  report.impulses.assign(nc, ContactImpulse{});
  for (std::size_t c = 0; c < constraints_.contacts.size(); ++c) report.contacts[c] = constraints_.contacts[c].contact;
  report.resize_islands(islands_.size());
  for (std::size_t i = 0; i < islands_.size(); ++i) {
    const ConvexImpulseResult& r = results_[i];
    const int n = spaces_[i].contacts();
    IslandReport& ir = report.islands[i];
    ir = IslandReport{};
    ir.bodies = islands_[i].bodies;
    ir.contacts = n;
    ir.problem_size = 3 * n;
    const double scale = 1.0 + pre_[i].cwiseAbs().maxCoeff();
    SolverResult result;
    result.iterations = r.newton_steps;
    result.complementarity = r.restitution_residual;
    const bool ok = r.converged && r.restitution_residual <= 1e-9 * scale && r.cone_violation <= 1e-9 * scale;
    result.status = ok ? SolverStatus::Solved : SolverStatus::MaxIterations;
    if (!ok) result.message = r.converged ? "restitution or cone residual above 1e-9" : "log barrier missed its gap bound";
    SolveAttempt attempt{0, result.status, r.restitution_residual, r.cone_violation, ok};
    ir.attempts.push_back(attempt);
    ir.certified = ok;
    ir.complementarity = r.restitution_residual;
    ir.cone_violation = r.cone_violation;
    add_island_to_report(i, ir, result, report);
    report.restitution_residual = std::max(report.restitution_residual, r.restitution_residual);
    report.barrier_newton_steps += r.newton_steps;
    report.negative_normal_impulses += r.negative_normals;
    // per-contact impulses in the whole set's order (the joint-limit rows after the contacts are not contacts)
    for (int k = 0; k + spaces_[i].limit_rows < n; ++k) {
      const int c = global[static_cast<std::size_t>(islands_[i].contacts[static_cast<std::size_t>(k)])];
      ContactImpulse& imp = report.impulses[c];
      imp.normal = r.x(k);
      imp.friction = r.x(n + 2 * k) * spaces_[i].tangent_s[k] + r.x(n + 2 * k + 1) * spaces_[i].tangent_t[k];
    }
  }
  {
    // explicit Euler (000 l.156): a from (q_k, v+), q_{k+1} = q_k + h v+, v_{k+1} = v+ + h a
    StageTimer timer(report.profile, Stage::Integration);
    const Dimension dim = model.options.dimension;
    std::vector<Vec6> dv(model.bodies.size(), Vec6::Zero());
    for (std::size_t b = 0; b < model.bodies.size(); ++b) {
      if (model.bodies[b].is_static) continue;
      BodyState& s = state.bodies[b];
      s.linear_velocity = velocity_[b].head<3>();
      s.angular_velocity = velocity_[b].tail<3>();
      dv[b] = inverse_mass_[b].apply(external_impulse(model.bodies[b], s, model.options.gravity, model.options.h, dim,
                                                        model.options.gyroscopic));
    }
    if (model.options.contact_drift_correction) {  // anchors at the start poses, with v+
      trees_.stepping.start_link_velocities(model, tree_post_, velocity_);
      drift_.remember(model, state, constraints_, velocity_);
    }
    if (!model.trees.empty()) integrate_trees(model, state);  // before finish_step clears the links' applied forces
    finish_step(model, velocity_, state, report);
    if (!model.trees.empty()) sync_tree_bodies(model, state);  // the links' poses integrated there, replaced by q's
    for (std::size_t b = 0; b < model.bodies.size(); ++b) {
      if (model.bodies[b].is_static || (!trees_.terms.tree_of.empty() && trees_.terms.tree_of[b] >= 0)) continue;
      state.bodies[b].linear_velocity += dv[b].head<3>();
      state.bodies[b].angular_velocity += dv[b].tail<3>();
    }
    check_finite(model, state);
  }
  if (!needs.penetration) return;
  StageTimer timer(report.profile, Stage::Penetration);
  report.max_penetration = report.penetration_before_correction = deepest_penetration(model, state, finder_.pairs());
}

}  // namespace pegsim
