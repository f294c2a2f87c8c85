#include "sim/viscous_rk4_stepper.hpp"

#include "contact/active_piece.hpp"
#include "math/pose.hpp"
#include "sim/drumwright_shell_step.hpp"
#include "sim/island_solver.hpp"
#include "sim/penetration_meter.hpp"
#include "sim/stage_timer.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>

namespace pegsim {

namespace {

// Every row of `lcp` (n of them) Normal and NonNegative, with no contact blocks.
void normal_rows(LcpProblem& lcp, int n) {
  lcp.bound.assign(n, RowBound::NonNegative);
  lcp.role.assign(n, RowRole::Normal);
  lcp.contact_of.assign(n, -1);
  lcp.layout.clear(n);
}

// The LCP of `rows` of `full`.
LcpProblem rows_of(const LcpProblem& full, const std::vector<int>& rows) {
  LcpProblem out;
  const int k = static_cast<int>(rows.size());
  out.A.resize(k, k);
  out.b.resize(k);
  for (int i = 0; i < k; ++i) {
    out.b(i) = full.b(rows[i]);
    for (int j = 0; j < k; ++j) out.A(i, j) = full.A(rows[i], rows[j]);
  }
  normal_rows(out, k);
  return out;
}

constexpr double kStageTime[4] = {0.0, 0.5, 0.5, 1.0};  // c_k
constexpr double kStageWeight[4] = {1.0, 2.0, 2.0, 1.0};  // RK4's weights, over 6

}  // namespace

void ViscousRk4Stepper::configure(const Model& model) {
  check_scope(model, name(), true);
  if (model.options.contact_drift_correction)
    throw std::invalid_argument("stepper viscous-rk4 has no sticking contact whose drift to correct: set "
                                "contact_drift_correction: false");
  if (model.options.drumwright_shell.viscous_implicit)
    throw std::invalid_argument("stepper viscous-rk4 integrates the explicit viscous force (002 eq. (15)) by RK4: "
                                "set viscous_integration: explicit");
  SolverChain chain;
  chain.configure(model.options);
  contact_model_ = make_one_row_contact_model(model.options.model, model.options.dimension);
  chain_ = std::move(chain);
  trees_.stepping.forget_sync();
  bound_.configure(model);
}

void ViscousRk4Stepper::prepare(const Model& model, const State& s, bool find, StepReport& report) {
  {
    StageTimer timer(report.profile, Stage::FreeVelocity);
    body_velocities(model, s, false, inverse_mass_, velocity_);
    body_velocities(model, s, true, inverse_mass_, free_velocity_);
    trees_.begin(model, s, inverse_mass_, free_velocity_);
  }
  if (find) {
    finder_.find(model, s, free_velocity_, report.profile);
    StageTimer timer(report.profile, Stage::ContactModel);
    contact_model_->build(model, s, finder_.contacts(), constraints_);
  }
  islands_.clear();
  if (!constraints_.contacts.empty() || !trees_.terms.limits.empty())
    find_islands(constraints_, finder_.is_static(), islands_, trees_.ends);
  drop_empty_islands(islands_, trees_.terms);
}

SolverResult ViscousRk4Stepper::solve(const ConstraintSet& set, LcpProblem lcp, VecX& z, IslandReport& ir,
                                      StepReport& report) {
  StageTimer timer(report.profile, Stage::Solver);
  const int n = lcp.size();
  z.setZero(n);
  StepProblem problem = normal_rows_problem(std::move(lcp));
  ir = IslandReport{};
  SolverResult result = chain_.solve(set, problem, z, std::numeric_limits<double>::infinity(), ir);
  if (!z.allFinite()) {  // never integrate a NaN
    z.setZero(n);
    result.status = SolverStatus::NumericalFailure;
    result.message = "solver returned non-finite normal forces; dropped";
  }
  return result;
}

// The frictionless inelastic impacts (header): only islands where some row's
// N v + psi/h is negative beyond the solver tolerance are solved (z = 0
// solves the others).
void ViscousRk4Stepper::impacts(const Model& model, State& s, StepReport& report) {
  prepare(model, s, true, report);
  report.contacts_found = static_cast<int>(finder_.contacts().size());
  report.constraints = constraints_.counts();
  report.short_contact_distance = finder_.short_contact_distance();
  const double h = model.options.h, touch = model.options.drumwright_shell.touch;
  impact_normal_.setZero(static_cast<Eigen::Index>(constraints_.contacts.size()));
  bool moved = false;
  for (std::size_t i = 0; i < islands_.size(); ++i) {
    const ConstraintSet& set = island_set(constraints_, islands_, i, island_scratch_);
    VecX v;  // the island's velocities before the impact
    {
      StageTimer timer(report.profile, Stage::Formulation);
      build_contact_space(model, s, inverse_mass_, islands_[i].bodies, set, space_,
                          model.trees.empty() ? nullptr : &trees_.terms);
      v = space_.gather(velocity_, trees_.velocity);
      build_viscous_lcp(space_, v, v, h, ViscousLaw{0.0, touch, false}, -std::numeric_limits<double>::infinity(),
                        lcp_);
    }
    // z = 0 solves it to the chain's tolerance (its residual is b's most negative entry, scaled as the
    // certificate scales it): a contact 1e-12 m into the ground after a stage's rounding is no impact
    const double b_scale = 1.0 + (lcp_.lcp.b.size() > 0 ? lcp_.lcp.b.cwiseAbs().maxCoeff() : 0.0);
    if (!(lcp_.lcp.b.size() > 0 && lcp_.lcp.b.minCoeff() < -model.options.solver_tolerance * b_scale)) continue;
    VecX z;
    IslandReport& ir = solves_.emplace_back();
    SolverResult result = solve(set, lcp_.lcp, z, ir, report);
    if (!ir.certified && (space_.gap.array() < 0.0).any()) {  // recovery: the penetrating gaps clamped at zero
      NormalLcp clamped;
      build_viscous_lcp(space_, v, v, h, ViscousLaw{0.0, touch, false}, 0.0, clamped);
      VecX retry;
      if (chain_.solve_with_last(clamped.lcp, retry) && retry.allFinite()) {
        lcp_ = std::move(clamped);
        z = retry;
        ir.recovered = true;
        result.message += "; recovered by solving without penetration correction";
      }
    }
    if (!ir.certified && !ir.recovered) {  // a failed solve's best point can launch bodies: none applied
      z.setZero();
      result.message += "; impulses dropped";
    }
    ir.bodies = islands_[i].bodies;
    VecX v_plus = lcp_.velocities(z);
    bound_.apply(model, s, space_, set, inverse_mass_, v, trees_.stepping, lcp_, z, v_plus, result, ir, report);
    results_.push_back(result);
    space_.scatter(v_plus, velocity_, &trees_.velocity);
    for (std::size_t c = 0; c < islands_[i].contacts.size(); ++c)
      impact_normal_(islands_[i].contacts[c]) = z(static_cast<Eigen::Index>(c));
    moved = true;
  }
  if (!moved) return;
  for (std::size_t b = 0; b < model.bodies.size(); ++b) {
    if (model.bodies[b].is_static) continue;
    s.bodies[b].linear_velocity = velocity_[b].head<3>();
    s.bodies[b].angular_velocity = velocity_[b].tail<3>();
  }
  for (std::size_t t = 0; t < model.trees.size(); ++t) s.trees[t].v = trees_.velocity[t];
  if (!model.trees.empty()) sync_tree_bodies(model, s);
}

void ViscousRk4Stepper::accelerations(const Model& model, const State& s, int stage, StepReport& report,
                                      Rates& out) {
  prepare(model, s, stage != 0, report);
  const DrumwrightShellOptions& d = model.options.drumwright_shell;
  const double h = model.options.h;
  if (!constraints_.contacts.empty()) gap_acceleration_.prepare(model, s);
  out.velocity = velocity_;
  out.orientation_rate.resize(velocity_.size());
  for (std::size_t b = 0; b < velocity_.size(); ++b) {  // eq. 2.36: dq/dt = 1/2 (0, w) (x) q
    const Vec3 w = velocity_[b].tail<3>();
    const Quat dq = Quat(0.0, w.x(), w.y(), w.z()) * s.bodies[b].pose.orientation;
    out.orientation_rate[b] = 0.5 * dq.coeffs();
  }
  out.tree_rate.resize(trees_.velocity.size());
  for (std::size_t t = 0; t < trees_.velocity.size(); ++t)
    out.tree_rate[t] = articulated::configuration_rate(model.trees[t].tree, s.trees[t].q, trees_.velocity[t]);
  out.acceleration.resize(velocity_.size());
  for (std::size_t b = 0; b < velocity_.size(); ++b) out.acceleration[b] = (free_velocity_[b] - velocity_[b]) / h;
  out.tree_acceleration.resize(trees_.velocity.size());
  for (std::size_t t = 0; t < trees_.velocity.size(); ++t)
    out.tree_acceleration[t] = (trees_.free[t] - trees_.velocity[t]) / h;
  if (stage == 0) {
    report.contacts.resize(constraints_.contacts.size());
    report.impulses.resize(constraints_.contacts.size());
  }
  std::vector<int> rows;
  for (std::size_t i = 0; i < islands_.size(); ++i) {
    const ConstraintSet& set = island_set(constraints_, islands_, i, island_scratch_);
    std::optional<StageTimer> formulation;  // the island's blocks and LCP, not its solve
    formulation.emplace(report.profile, Stage::Formulation);
    build_contact_space(model, s, inverse_mass_, islands_[i].bodies, set, space_,
                        model.trees.empty() ? nullptr : &trees_.terms);
    const VecX v = space_.gather(velocity_, trees_.velocity);
    build_viscous_lcp(space_, v, space_.gather(free_velocity_, trees_.free), h, ViscousLaw{d.viscous, d.touch, false},
                      -std::numeric_limits<double>::infinity(), lcp_);
    const VecX free_acceleration = (lcp_.base_velocity - v) / h;  // M^-1 k
    const int n = space_.contacts();
    const VecX normal_velocity = space_.N * v;
    // (41): w = N M^-1 N' f_N + N M^-1 k + Ndot v; a joint limit's rate s q_k has no velocity product
    bias_.setZero(n);
    rows.clear();
    for (int r = 0; r < n; ++r) {
      if (r < n - space_.limit_rows)
        bias_(r) = gap_acceleration_.bias(model, s, set.contacts[static_cast<std::size_t>(r)].contact);
      const double gap = space_.gap(r);  // the header's rule: touching, or landing within the step
      if (normal_velocity(r) + (gap > d.touch ? gap : std::min(gap, 0.0)) / h <= kSeparating) rows.push_back(r);
    }
    lcp_.lcp.b = space_.N * free_acceleration + bias_;
    formulation.reset();
    VecX f = VecX::Zero(n);
    if (!rows.empty()) {
      VecX z;
      IslandReport& ir = solves_.emplace_back();
      results_.push_back(solve(set, rows_of(lcp_.lcp, rows), z, ir, report));
      ir.bodies = islands_[i].bodies;
      for (std::size_t k = 0; k < rows.size(); ++k) f(rows[k]) = z(static_cast<Eigen::Index>(k));
      // a failed solve's best point is applied held to the energy bound (it can launch bodies)
      if (!ir.certified) bound_forces(model, s, set, v, free_acceleration, f, results_.back(), ir, report);
    }
    space_.scatter(free_acceleration + lcp_.inverse_mass_nt * f, out.acceleration, &out.tree_acceleration);
    if (stage != 0) continue;
    report.viscous_overshoots += lcp_.viscous_overshoots;
    VecX normal = h * f;  // the step's contact impulses: the impact's and stage 1's force over h
    for (std::size_t c = 0; c < islands_[i].contacts.size(); ++c)
      normal(static_cast<Eigen::Index>(c)) += impact_normal_(islands_[i].contacts[c]);
    report_contact_impulses(islands_[i], set, space_, normal, lcp_.tangent_impulse, report);
  }
}

// The energy bound on a failed stage solve's forces f, read as the impulses
// h f over a step from v_free = v + h M^-1 k (sim/impulse_energy.hpp's
// derivation with w = N v' + Ndot v): v+ = v_free + M^-1 N' h f changes the
// kinetic energy by dT = h f'N v_free + 1/2 h^2 f'A f, and with N v_free =
// N v + h (w - A f - Ndot v) and f'w = 0 at a solution, dT <= sum_i h f_i
// (N_i v - h Ndot_i v): the bound's gap term with e_i = h Ndot_i v - N_i v
// (an overlapping contact's correction N v = -gap / h, as in the impacts).
// Above it f is scaled (NormalImpulseBound::apply).
void ViscousRk4Stepper::bound_forces(const Model& model, const State& s, const ConstraintSet& set, const VecX& v,
                                     const VecX& free_acceleration, VecX& f, SolverResult& result, IslandReport& ir,
                                     StepReport& report) {
  const double h = model.options.h;
  const int n = static_cast<int>(f.size());
  NormalLcp& proxy = bound_lcp_;
  proxy.base_velocity = v + h * free_acceleration;
  proxy.lcp.A = lcp_.lcp.A;
  proxy.lcp.b = space_.N * proxy.base_velocity + h * bias_ - space_.N * v;
  normal_rows(proxy.lcp, n);
  proxy.tangent_impulse.setZero(n, 2);  // the viscous force is the free motion's here
  VecX z = h * f;
  VecX v_plus = proxy.base_velocity + lcp_.inverse_mass_nt * z;
  bound_.apply(model, s, space_, set, inverse_mass_, proxy.base_velocity, trees_.stepping, proxy, z, v_plus, result, ir,
               report);
  f = z / h;
}

void ViscousRk4Stepper::place(const Model& model, const State& start, const Rates& rate, double dt,
                              State& s) const {
  s = start;
  const bool planar = model.options.dimension == Dimension::Planar;
  for (std::size_t b = 0; b < model.bodies.size(); ++b) {
    if (model.bodies[b].is_static) continue;  // kinematic bodies are refused (configure)
    BodyState& body = s.bodies[b];
    body.pose.position = start.bodies[b].pose.position + dt * rate.velocity[b].head<3>();
    if (planar) {  // the angle about z: its rate is w_z
      body.pose.orientation =
          Quat(Eigen::AngleAxisd(planar_angle(start.bodies[b].pose) + dt * rate.velocity[b](5), Vec3::UnitZ()));
    } else {
      body.pose.orientation.coeffs() = start.bodies[b].pose.orientation.coeffs() + dt * rate.orientation_rate[b];
      body.pose.orientation.normalize();
    }
    const Vec6 v = velocity_of(start.bodies[b]) + dt * rate.acceleration[b];
    body.linear_velocity = v.head<3>();
    body.angular_velocity = v.tail<3>();
  }
  for (std::size_t t = 0; t < model.trees.size(); ++t) {
    s.trees[t].q = start.trees[t].q + dt * rate.tree_rate[t];
    articulated::normalize_configuration(model.trees[t].tree, s.trees[t].q);
    s.trees[t].v = start.trees[t].v + dt * rate.tree_acceleration[t];
  }
  if (!model.trees.empty()) sync_tree_bodies(model, s);
}

void ViscousRk4Stepper::step(const Model& model, State& state, const StepNeeds& needs, StepReport& report) {
  solves_.clear();
  results_.clear();
  if (!model.trees.empty()) sync_tree_bodies(model, state);  // links follow q, v even if a caller moved them
  impacts(model, state, report);
  const double h = model.options.h;
  accelerations(model, state, 0, report, stage_[0]);
  for (int k = 1; k < 4; ++k) {
    {
      StageTimer timer(report.profile, Stage::Integration);
      place(model, state, stage_[k - 1], kStageTime[k] * h, stage_state_);
    }
    accelerations(model, stage_state_, k, report, stage_[k]);
  }
  {
    StageTimer timer(report.profile, Stage::Integration);
    // the weighted rates, into stage_[0]: poses from the velocities and quaternion rates, velocities from
    // the accelerations
    Rates& sum = stage_[0];
    for (std::size_t b = 0; b < sum.velocity.size(); ++b) {
      Vec6 v = Vec6::Zero(), a = Vec6::Zero();
      Eigen::Vector4d q = Eigen::Vector4d::Zero();
      for (int k = 0; k < 4; ++k) {
        v += kStageWeight[k] * stage_[k].velocity[b];
        a += kStageWeight[k] * stage_[k].acceleration[b];
        q += kStageWeight[k] * stage_[k].orientation_rate[b];
      }
      sum.velocity[b] = v / 6.0;
      sum.acceleration[b] = a / 6.0;
      sum.orientation_rate[b] = q / 6.0;
    }
    for (std::size_t t = 0; t < sum.tree_rate.size(); ++t) {
      VecX q = VecX::Zero(sum.tree_rate[t].size()), a = VecX::Zero(sum.tree_acceleration[t].size());
      for (int k = 0; k < 4; ++k) {
        q += kStageWeight[k] * stage_[k].tree_rate[t];
        a += kStageWeight[k] * stage_[k].tree_acceleration[t];
      }
      sum.tree_rate[t] = q / 6.0;
      sum.tree_acceleration[t] = a / 6.0;
    }
    place(model, state, sum, h, stage_state_);
    std::swap(state, stage_state_);
    for (TreeState& t : state.trees) t.tau.setZero();
    end_step(model, state, report);
  }
  report.solved_by.assign(chain_.size(), 0);
  report.resize_islands(solves_.size());
  for (std::size_t i = 0; i < solves_.size(); ++i) {
    report.islands[i] = solves_[i];
    add_island_to_report(i, report.islands[i], results_[i], report);
  }
  if (!needs.penetration) return;
  StageTimer timer(report.profile, Stage::Penetration);
  report.max_penetration = report.penetration_before_correction = deepest_penetration(model, state, finder_.pairs());
}

}  // namespace pegsim
