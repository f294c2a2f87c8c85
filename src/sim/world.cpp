#include "sim/world.hpp"

#include "collision/narrowphase.hpp"
#include "contact/traps.hpp"
#include "dynamics/integration.hpp"
#include "geometry/penetration.hpp"
#include "sim/stage_timer.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <stdexcept>

namespace pegsim {
namespace {

SolverOptions solver_options(const SimOptions& o) {
  SolverOptions s;
  s.tolerance = o.solver_tolerance;
  s.max_iterations = o.solver_max_iterations;
  s.relaxation = o.solver_relaxation;
  return s;
}

// Pose after one step of free motion: where the broadphase box must reach.
Pose predicted_pose(const BodyState& s, const Vec6& nu, double h, bool planar) {
  Pose p = s.pose;
  p.position += h * nu.head<3>();
  const Vec3 w = nu.tail<3>();
  const double angle = h * w.norm();
  if (angle > 0.0) {
    if (planar) p.orientation = Quat(Eigen::AngleAxisd(s.theta + h * w.z(), Vec3::UnitZ()));
    else p.orientation = (Quat(Eigen::AngleAxisd(angle, w.normalized())) * s.pose.orientation).normalized();
  }
  return p;
}

}  // namespace

World::World(Model model, State state) : model_(std::move(model)), state_(std::move(state)) {
  if (state_.bodies.size() != model_.bodies.size())
    throw std::invalid_argument("World: state has " + std::to_string(state_.bodies.size()) +
                                " bodies, model has " + std::to_string(model_.bodies.size()));
  set_contact_model(model_.options.model);
  if (model_.options.solver_chain.empty()) set_solver(model_.options.solver);
  else set_solver_chain(model_.options.solver_chain);
}

void World::set_solver(const std::string& name) { set_solver_chain({name}); }

void World::set_solver_chain(const std::vector<std::string>& names) {
  if (names.empty()) throw std::invalid_argument("the solver chain is empty");
  std::vector<std::unique_ptr<LcpSolver>> chain;
  for (const std::string& name : names) {
    auto solver = make_solver(name, solver_options(model_.options));
    if (!solver) {
      std::string known;
      for (const std::string& s : solver_names()) known += (known.empty() ? "" : ", ") + s;
      throw std::invalid_argument("unknown solver '" + name + "' (available: " + known + ")");
    }
    chain.push_back(std::move(solver));
  }
  solvers_ = std::move(chain);
  model_.options.solver_chain = names;
  model_.options.solver = names.front();
}

void World::set_contact_model(ContactModelKind kind) {
  contact_model_ = make_contact_model(kind, model_.options.dimension);
  model_.options.model = kind;
}

void World::set_time_step(double h) {
  if (!(h > 0.0) || !std::isfinite(h)) throw std::invalid_argument("time step must be positive");
  model_.options.h = h;
}

// The largest distance a point of the body can travel in one step: the
// estimate of thesis eq. 5.1, in a dimensionally consistent form. As printed,
// eq. 5.1 multiplies the accelerations by h instead of h^2 and leaves out the
// rotational speed term |w| r h; here
//   eps_i = h (|v| + |w| r) + h^2/2 (|a| + |alpha| r)
// with a = f/m + g and alpha = J^-1 (tau - w x J w), r the bounding radius.
// A pair's contact distance is the sum of its two bodies' (both may approach).
double World::contact_distance(std::uint32_t i) const {
  const BodyModel& body = model_.bodies[i];
  if (!model_.options.eps_auto) return 0.5 * model_.options.eps;
  if (body.is_static) return 0.0;
  const BodyState& s = state_.bodies[i];
  const double h = model_.options.h;
  const double r = bounding_radius(body.shape);
  const Dimension dim = model_.options.dimension;
  const InverseMass minv = world_inverse_mass(body, s, dim);
  const Vec6 accel = minv.apply(external_impulse(body, s, model_.options.gravity, 1.0, dim));
  const double eps = h * (s.linear_velocity.norm() + s.angular_velocity.norm() * r) +
                     0.5 * h * h * (accel.head<3>().norm() + accel.tail<3>().norm() * r);
  return std::max(eps, 1e-9);
}

const StepReport& World::step() {
  report_.contacts.clear();
  report_.impulses.clear();
  report_.profile = StepProfile{};
  report_.solver = SolverResult{};
  report_.solver.status = SolverStatus::Solved;
  report_.solver_calls = 0;
  report_.solver_failures = 0;
  report_.solver_recoveries = 0;
  report_.escalations = 0;
  report_.islands.clear();
  report_.solved_by.assign(solvers_.size(), 0);
  report_.complementarity = 0.0;
  report_.cone_violation = 0.0;
  report_.penetration_exceeded = false;
  report_.position_corrections = 0;
  report_.correction_failures = 0;
  report_.problem_size = 0;
  report_.step = state_.step;
  const double h = model_.options.h;
  const Dimension dim = model_.options.dimension;
  const std::size_t nb = model_.bodies.size();

  // free velocities nu* = nu + M^-1 p_ext (eq. 2.30 without contact impulses)
  inverse_mass_.resize(nb);
  free_velocity_.resize(nb);
  for (std::size_t i = 0; i < nb; ++i) {
    const BodyModel& body = model_.bodies[i];
    const BodyState& s = state_.bodies[i];
    inverse_mass_[i] = world_inverse_mass(body, s, dim);
    free_velocity_[i] = velocity_of(s);
    if (!body.is_static)
      free_velocity_[i] += inverse_mass_[i].apply(external_impulse(body, s, model_.options.gravity, h, dim));
  }

  find_contacts();

  std::vector<Vec6> velocity = free_velocity_;
  {
    StageTimer timer(report_.profile, Stage::ContactModel);
    contact_model_->build(model_, state_, contacts_, constraints_);
    report_.contacts_found = static_cast<int>(contacts_.size());
    report_.constraints = constraints_.counts();
    report_.traps = count_standard_model_traps(contacts_, model_.options.eps_feasible);
  }
  if (!constraints_.contacts.empty()) solve(velocity);
  else problems_.clear();

  {
    StageTimer timer(report_.profile, Stage::Integration);
    integrate(model_, velocity, h, state_);
    for (BodyState& s : state_.bodies) {
      s.force.setZero();
      s.torque.setZero();
    }
    check_finite();
    state_.time += h;
    ++state_.step;
    report_.time = state_.time;
  }
  {
    StageTimer timer(report_.profile, Stage::Observers);
    report_.penetration_before_correction = measure_penetration();
  }
  // SimOptions::position_correction (sim/position_correction.cpp), timed by its stages
  report_.max_penetration = correct_positions(report_.penetration_before_correction);
  {
    StageTimer timer(report_.profile, Stage::Observers);
    report_.penetration_exceeded = report_.max_penetration > model_.options.max_penetration;
    for (StepObserver* o : observers_) o->on_step(model_, state_, report_);
  }
  return report_;
}

// The deepest overlap after the step among the broadphase's body pairs, by
// the separating axis theorem (geometry/penetration.hpp): measured on the
// geometry, independent of the contacts and their (possibly secondary) gaps.
double World::measure_penetration() const {
  double deepest = 0.0;
  for (const BodyPair& pair : pairs_)
    deepest = std::max(deepest, penetration_depth(model_.bodies[pair.a].shape, state_.bodies[pair.a].pose,
                                                  model_.bodies[pair.b].shape, state_.bodies[pair.b].pose));
  return deepest;
}

// A non-finite pose or velocity (a NaN force set by a controller, an overflow)
// would silently poison every later step: stop with the body's name instead.
void World::check_finite() const {
  for (std::size_t i = 0; i < model_.bodies.size(); ++i) {
    const BodyState& s = state_.bodies[i];
    if (s.pose.position.allFinite() && s.pose.orientation.coeffs().allFinite() && s.linear_velocity.allFinite() &&
        s.angular_velocity.allFinite())
      continue;
    throw std::runtime_error("step " + std::to_string(state_.step) + " (t = " + std::to_string(state_.time) +
                             " s): body '" + model_.bodies[i].name +
                             "' has a non-finite pose or velocity (check applied forces and the scene's values)");
  }
}

// broadphase + narrowphase: every feature pair within each pair's contact distance
void World::find_contacts() {
  const std::size_t nb = model_.bodies.size();
  const bool planar = model_.options.dimension == Dimension::Planar;
  {
    StageTimer timer(report_.profile, Stage::Broadphase);
    boxes_.resize(nb);
    is_static_.resize(nb);
    body_eps_.resize(nb);
    for (std::size_t i = 0; i < nb; ++i) {
      const BodyState& s = state_.bodies[i];
      body_eps_[i] = contact_distance(static_cast<std::uint32_t>(i));
      is_static_[i] = model_.bodies[i].is_static;
      const Pose next = predicted_pose(s, free_velocity_[i], model_.options.h, planar);
      boxes_[i] = swept_box(model_.bodies[i].shape, s.pose, next, body_eps_[i]);
    }
    broadphase_.find_pairs(boxes_, is_static_, pairs_);
  }
  narrowphase(true);
}

// Every feature pair within each broadphase pair's contact distance, at the
// current poses. `over_step`: with eps_theta: auto, applicability judged over
// the step's rotation (off for the position correction, which turns nothing).
void World::narrowphase(bool over_step) {
  StageTimer timer(report_.profile, Stage::Narrowphase);
  contacts_.clear();
  NarrowphaseParams params;
  params.eps_theta = model_.options.eps_theta;
  params.eps_feasible = model_.options.eps_feasible;
  const double h = model_.options.h;
  for (const BodyPair& pair : pairs_) {
    params.eps = body_eps_[pair.a] + body_eps_[pair.b];
    // eps_theta: auto (SimOptions::eps_theta_auto): applicability over the step's rotation
    double turn = 0.0;
    if (model_.options.eps_theta_auto && over_step)
      turn = std::min(1.0, h * (free_velocity_[pair.a].tail<3>().norm() + free_velocity_[pair.b].tail<3>().norm()));
    params.eps_theta = model_.options.eps_theta - turn;
    const std::size_t first = contacts_.size();
    const BodyGeometry a{pair.a, &model_.bodies[pair.a].shape, state_.bodies[pair.a].pose};
    const BodyGeometry b{pair.b, &model_.bodies[pair.b].shape, state_.bodies[pair.b].pose};
    pegsim::find_contacts(a, b, params, contacts_);
    for (std::size_t k = first; k < contacts_.size(); ++k) contacts_[k].applicability += turn;
  }
}

double mechanical_energy(const Model& model, const State& state) {
  double e = 0.0;
  for (std::size_t i = 0; i < model.bodies.size(); ++i) {
    const BodyModel& b = model.bodies[i];
    if (b.is_static) continue;
    const BodyState& s = state.bodies[i];
    const Mat3 J = world_inertia(b, s, model.options.dimension);
    e += 0.5 * b.mass * s.linear_velocity.squaredNorm() + 0.5 * s.angular_velocity.dot(J * s.angular_velocity) -
         b.mass * model.options.gravity.dot(s.pose.position);
  }
  return e;
}

Vec3 linear_momentum(const Model& model, const State& state) {
  Vec3 p = Vec3::Zero();
  for (std::size_t i = 0; i < model.bodies.size(); ++i)
    if (!model.bodies[i].is_static) p += model.bodies[i].mass * state.bodies[i].linear_velocity;
  return p;
}

}  // namespace pegsim
