#include "sim/world.hpp"

#include "dynamics/mass.hpp"
#include "sim/stage_timer.hpp"
#include "sim/time_stepping.hpp"

#include <cmath>
#include <stdexcept>

namespace pegsim {

World::World(Model model, State state) : state_(std::move(state)) {
  if (state_.bodies.size() != model.bodies.size())
    throw std::invalid_argument("World: state has " + std::to_string(state_.bodies.size()) + " bodies, model has " +
                                std::to_string(model.bodies.size()));
  reconfigure(std::move(model));
  update_joint_angles(model_, state_);  // the branches angle joints are read on (State::joint_angles)
  for (const PdControllerSpec& spec : model_.controllers)  // throws std::invalid_argument on a bad spec
    pd_controllers_.push_back(std::make_unique<PdController>(model_, spec));
}

World::~World() = default;
World::World(World&&) noexcept = default;

void World::reconfigure(Model changed) {
  SimOptions& o = changed.options;
  if (o.solver_chain.empty()) o.solver_chain = {o.solver};  // a chain of one
  o.solver = o.solver_chain.front();
  if (stepper_ && stepper_->name() == o.stepper) {
    stepper_->configure(changed);  // keeps what it carries between steps (warm starts); throws before it changes
    model_ = std::move(changed);
    return;
  }
  auto stepper = make_stepper(o.stepper);
  stepper->configure(changed);  // throws before anything changes
  model_ = std::move(changed);
  stepper_ = std::move(stepper);
}

void World::set_solver(const std::string& name) { set_solver_chain({name}); }

void World::set_solver_chain(const std::vector<std::string>& names) {
  if (names.empty()) throw std::invalid_argument("the solver chain is empty");
  Model changed = model_;
  changed.options.solver_chain = names;
  reconfigure(std::move(changed));
}

void World::set_contact_model(ContactModelKind kind) {
  Model changed = model_;
  changed.options.model = kind;
  reconfigure(std::move(changed));
}

void World::set_stepper(const std::string& name) {
  Model changed = model_;
  changed.options.stepper = name;
  reconfigure(std::move(changed));
}

void World::set_time_step(double h) {
  if (!(h > 0.0) || !std::isfinite(h)) throw std::invalid_argument("time step must be positive");
  model_.options.h = h;
}

const StepReport& World::step() {
  report_.reset(state_.step);
  StepNeeds needs;
  needs.penetration = measure_penetration_ || std::isfinite(model_.options.max_penetration);
  for (const StepObserver* o : observers_) needs.penetration |= o->needs_penetration();
  for (auto& c : pd_controllers_) c->before_step(model_, state_);
  for (JointController* c : controllers_) c->before_step(model_, state_);
  stepper_->step(model_, state_, needs, report_);
  update_joint_angles(model_, state_);
  StageTimer timer(report_.profile, Stage::Observers);
  report_.penetration_exceeded = report_.max_penetration > model_.options.max_penetration;  // false when NaN
  for (StepObserver* o : observers_) o->on_step(model_, state_, report_);
  return report_;
}

const TimeSteppingStepper* World::time_stepping() const {
  return dynamic_cast<const TimeSteppingStepper*>(stepper_.get());
}

namespace {
const std::vector<StepProblem> kNoProblems;
const std::vector<Island> kNoIslands;
const ConstraintSet kNoConstraints;
const StepProblem kNoProblem;
}  // namespace

const std::vector<StepProblem>& World::last_problems() const {
  const TimeSteppingStepper* t = time_stepping();
  return t ? t->problems() : kNoProblems;
}

const ConstraintSet& World::last_island_constraints(std::size_t island) const {
  const TimeSteppingStepper* t = time_stepping();
  if (!t) throw std::out_of_range("last_island_constraints: the stepper has no islands");
  return t->island_constraints(island);
}

const std::vector<Island>& World::last_islands() const {
  const TimeSteppingStepper* t = time_stepping();
  return t ? t->islands() : kNoIslands;
}

const StepProblem& World::last_problem() const {
  const std::vector<StepProblem>& problems = last_problems();
  return problems.empty() ? kNoProblem : problems.front();
}

const ConstraintSet& World::last_constraints() const {
  const TimeSteppingStepper* t = time_stepping();
  return t ? t->constraints() : kNoConstraints;
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
