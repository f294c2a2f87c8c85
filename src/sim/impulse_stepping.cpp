// The impulse stepper's event loop (impulse_stepping.hpp).
#include "sim/impulse_stepping.hpp"

#include "collision/narrowphase.hpp"
#include "impulse/collision_response.hpp"
#include "impulse/time_of_impact.hpp"
#include "sim/stage_timer.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>

namespace pegsim {
namespace {

constexpr double kInfinity = std::numeric_limits<double>::infinity();
constexpr std::size_t kMaxRecordedCollisions = 4096;  // per step, in StepReport::contacts

// The half-space of a part at its pose, as (world normal, world offset): {x : n.x <= offset}.
std::pair<Vec3, double> world_plane(const HalfSpace& hs, const Pose& pose) {
  const Vec3 n = pose.rotate(hs.normal);
  return {n, hs.offset + n.dot(pose.position)};
}

}  // namespace

void ImpulseStepper::configure(const Model& model) {
  const SimOptions& o = model.options;
  if (o.dimension != Dimension::Spatial)
    throw std::invalid_argument("stepper impulse: 3D scenes only (this scene has dimension: 2)");
  if (o.contact_drift_correction)
    throw std::invalid_argument("stepper impulse: no contact drift correction (the time-stepping, no-slip and "
                                "convex-impulse steppers have it): set contact_drift_correction: false");
  if (!model.joints.empty() || !model.trees.empty())
    throw std::invalid_argument("stepper impulse: joints and kinematic trees are not simulated by the impulse "
                                "stepper (use stepper: time-stepping)");
  const RestitutionLaw law = parse_restitution_law(o.impulse.restitution_law);
  if (!(o.impulse.collision_tolerance > 0.0)) throw std::invalid_argument("stepper impulse: collision_tolerance must be > 0");
  law_ = law;
  // v_mu: the speed gained falling through the envelope (impulse_stepping.hpp)
  micro_speed_ = std::max(o.impulse.micro_speed_min, std::sqrt(2.0 * o.gravity.norm() * o.impulse.collision_tolerance));
  build_pairs(model);
}

void ImpulseStepper::build_pairs(const Model& model) {
  body_count_ = model.bodies.size();
  pairs_.clear();
  pairs_of_body_.assign(body_count_, {});
  for (std::uint32_t a = 0; a < body_count_; ++a)
    for (std::uint32_t b = a + 1; b < body_count_; ++b) {
      if (model.bodies[a].is_static && model.bodies[b].is_static) continue;
      for (int pa = 0; pa < part_count(model.bodies[a].shape); ++pa)
        for (int pb = 0; pb < part_count(model.bodies[b].shape); ++pb) {
          pairs_of_body_[a].push_back(pairs_.size());
          pairs_of_body_[b].push_back(pairs_.size());
          pairs_.push_back(PartPair{a, b, pa, pb, 0.0});
        }
    }
}

// Time from now to the pair's next event, or infinity if none within `remaining`.
double ImpulseStepper::bound(const Model& model, const State& state, const PartPair& pair, double remaining,
                             StepReport& report) const {
  const ImpulseOptions& o = model.options.impulse;
  const double delta = 0.5 * o.collision_tolerance;
  const Shape& sa = part_of(model.bodies[pair.a].shape, pair.part_a);
  const Shape& sb = part_of(model.bodies[pair.b].shape, pair.part_b);
  const BodyState& xa = state.bodies[pair.a];
  const BodyState& xb = state.bodies[pair.b];
  MotionBound ma{xa.linear_velocity, flights_[pair.a].acceleration, 0.0};
  MotionBound mb{xb.linear_velocity, flights_[pair.b].acceleration, 0.0};
  // bounding spheres about the centres of mass (a half-space: its plane);
  // rotation about the centre of mass leaves such a sphere in place
  double lower = 0.0;
  Vec3 n = Vec3::UnitZ();
  if (const auto* h = std::get_if<HalfSpace>(&sa)) {
    const auto [normal, offset] = world_plane(*h, xa.pose);
    n = normal;
    lower = n.dot(xb.pose.position) - offset - bounding_radius(sb);
  } else if (const auto* h2 = std::get_if<HalfSpace>(&sb)) {
    const auto [normal, offset] = world_plane(*h2, xb.pose);
    n = -normal;
    lower = normal.dot(xa.pose.position) - offset - bounding_radius(sa);
  } else {
    const Vec3 d = xb.pose.position - xa.pose.position;
    const double dc = d.norm();
    if (dc > 0.0) n = d / dc;
    lower = dc - bounding_radius(sa) - bounding_radius(sb);
  }
  if (lower > o.collision_tolerance && time_of_impact_bound(lower, n, ma, mb, delta) >= remaining) return kInfinity;
  // the parts' distance, with the spin term
  const PartDistance d = part_distance(sa, xa.pose, sb, xb.pose);
  // a kinematic body turns at a constant w: along the fixed normal n its surface
  // moves at (w x r).n = r.(n x w) <= rho |n x w| (reading guide M8; a
  // platter's top face under a ball: 0)
  auto spin_reach = [&](std::uint32_t body, const BodyState& x, const Shape& part) {
    if (model.bodies[body].is_kinematic) return d.normal.cross(x.angular_velocity).norm() * spin_radius(part);
    return angular_speed_bound(flights_[body], x, remaining) * spin_radius(part);
  };
  ma.spin_reach = spin_reach(pair.a, xa, sa);
  mb.spin_reach = spin_reach(pair.b, xb, sb);
  double tau = time_of_impact_bound(d.bound_distance, d.normal, ma, mb, delta);
  if (tau >= remaining) return kInfinity;
  if (tau < o.min_advance) {
    tau = o.min_advance;
    ++report.impulse.min_advance_clamps;
  }
  return tau;
}

// The pair's collision check at the current poses; true if an impulse changed a velocity.
bool ImpulseStepper::collide(const Model& model, State& state, const PartPair& pair, StepReport& report) {
  const ImpulseOptions& o = model.options.impulse;
  ImpulseCounts& counts = report.impulse;
  const Shape& sa = part_of(model.bodies[pair.a].shape, pair.part_a);
  const Shape& sb = part_of(model.bodies[pair.b].shape, pair.part_b);
  const PartDistance d = part_distance(sa, state.bodies[pair.a].pose, sb, state.bodies[pair.b].pose);
  counts.min_distance = std::min(counts.min_distance, d.distance);
  if (d.bound_distance >= o.collision_tolerance) return false;

  // the contact points within the envelope: every feature pair the
  // narrowphase finds (a block landing flat has four corners), primary ones
  contacts_.clear();
  NarrowphaseParams params;
  params.eps = o.collision_tolerance;
  params.eps_theta = model.options.eps_theta;
  params.eps_feasible = model.options.eps_feasible;
  find_contacts(BodyGeometry{pair.a, &sa, state.bodies[pair.a].pose}, BodyGeometry{pair.b, &sb, state.bodies[pair.b].pose},
                params, contacts_);
  std::erase_if(contacts_, [](const Contact& c) { return !c.features.primary; });
  for (Contact& c : contacts_) {
    c.part_a = static_cast<std::uint16_t>(c.body_a == pair.a ? pair.part_a : pair.part_b);
    c.part_b = static_cast<std::uint16_t>(c.body_b == pair.b ? pair.part_b : pair.part_a);
  }
  if (contacts_.empty() && !(is_polyhedron(sa) && is_polyhedron(sb))) {  // the closest points stand for the pair
    Contact c;
    c.body_a = pair.a;
    c.body_b = pair.b;
    c.part_a = static_cast<std::uint16_t>(pair.part_a);
    c.part_b = static_cast<std::uint16_t>(pair.part_b);
    c.kind = FeatureKind::Curved;
    c.point_a = d.point_a;
    c.point_b = d.point_b;
    c.normal = d.normal;
    c.gap = d.distance;
    contacts_.push_back(c);
  }

  const CollisionSettings settings{law_, micro_speed_, o.integration_steps};
  bool changed = false;
  const int cap = 4 * static_cast<int>(contacts_.size());
  int sweep = 0;
  for (;; ++sweep) {
    // the most negative approach first (ties: the narrowphase's order)
    int worst = -1;
    double worst_un = 0.0;
    for (std::size_t i = 0; i < contacts_.size(); ++i) {
      const double un = relative_contact_velocity(state, contacts_[i]).dot(contacts_[i].normal);
      if (un < worst_un) {
        worst_un = un;
        worst = static_cast<int>(i);
      }
    }
    if (worst < 0) break;
    if (sweep == cap) {
      ++counts.sweep_overruns;
      break;
    }
    if (counts.collisions >= o.max_collisions_per_step) {
      counts.collision_budget_exhausted = true;
      break;
    }
    const Contact& c = contacts_[static_cast<std::size_t>(worst)];
    const AppliedCollision applied = apply_collision(model, state, c, settings);
    changed = true;
    ++counts.collisions;
    counts.micro_collisions += applied.micro ? 1 : 0;
    counts.sticking += applied.result.stuck ? 1 : 0;
    counts.jams += applied.result.jam ? 1 : 0;
    counts.max_energy_gain = std::max(counts.max_energy_gain, applied.energy_change);
    if (report.contacts.size() < kMaxRecordedCollisions) {  // recorded like any step's contacts, with their impulses
      report.contacts.push_back(c);
      ContactImpulse p;
      p.normal = applied.impulse.dot(c.normal);
      p.friction = applied.impulse - p.normal * c.normal;
      report.impulses.push_back(p);
    }
  }
  return changed;
}

void ImpulseStepper::fly_all(State& state, double tau) {
  for (std::size_t i = 0; i < flights_.size(); ++i) fly(flights_[i], state.bodies[i], tau);
}

// The deepest overlap of any pair (m), 0 if none: pairs whose bounding spheres (or planes) reach each other;
// `at`, if given, gets that pair (null if none overlaps).
double ImpulseStepper::deepest_overlap(const Model& model, const State& state, const PartPair** at) const {
  double deepest = 0.0;
  if (at) *at = nullptr;
  for (const PartPair& pair : pairs_) {
    const Shape& sa = part_of(model.bodies[pair.a].shape, pair.part_a);
    const Shape& sb = part_of(model.bodies[pair.b].shape, pair.part_b);
    const Pose& pa = state.bodies[pair.a].pose;
    const Pose& pb = state.bodies[pair.b].pose;
    if (!is_half_space(sa) && !is_half_space(sb) &&
        (pb.position - pa.position).norm() > bounding_radius(sa) + bounding_radius(sb))
      continue;
    const double depth = -part_distance(sa, pa, sb, pb).distance;
    if (depth > deepest) {
      deepest = depth;
      if (at) *at = &pair;
    }
  }
  return deepest;
}

// Bodies that start overlapping by more than the envelope: no time-of-impact
// bound separates them (each is negative, every advance would be clamped to
// min_advance: a fuzzed scene with two coincident balls took 10 s over three
// steps), so the run is refused with the deepest pair and its depth. Checked
// on a state at step 0 (a scene's or a new Python world's).
void ImpulseStepper::refuse_overlaps(const Model& model, const State& state) const {
  const double eps = model.options.impulse.collision_tolerance;
  const PartPair* p = nullptr;
  const double depth = deepest_overlap(model, state, &p);
  if (depth > eps)
    throw std::invalid_argument("stepper impulse: bodies '" + model.bodies[p->a].name + "' and '" +
                                model.bodies[p->b].name + "' overlap by " + std::to_string(depth) +
                                " m at the start; the impulse stepper needs them apart (by at least "
                                "collision_tolerance / 2 = " + std::to_string(eps / 2) + " m)");
}

void ImpulseStepper::step(const Model& model, State& state, const StepNeeds& needs, StepReport& report) {
  if (body_count_ != model.bodies.size()) build_pairs(model);
  if (state.step == 0) refuse_overlaps(model, state);
  const ImpulseOptions& o = model.options.impulse;
  const double h = model.options.h;
  {
    StageTimer timer(report.profile, Stage::Integration);  // the whole event loop: flights, bounds, collisions
    flights_.resize(body_count_);
    for (std::size_t i = 0; i < body_count_; ++i)
      flights_[i] = flight_of(model.bodies[i], state.bodies[i], model.options.gravity);
    for (PartPair& p : pairs_) p.next = bound(model, state, p, h, report);
    double t = 0.0;
    ImpulseCounts& counts = report.impulse;
    for (;;) {
      std::size_t k = pairs_.size();
      for (std::size_t i = 0; i < pairs_.size(); ++i)
        if (pairs_[i].next < h && (k == pairs_.size() || pairs_[i].next < pairs_[k].next)) k = i;
      if (k == pairs_.size()) break;
      if (counts.events >= o.max_events_per_step) {
        counts.event_budget_exhausted = true;
        break;
      }
      fly_all(state, pairs_[k].next - t);
      t = pairs_[k].next;
      ++counts.events;
      const bool changed = collide(model, state, pairs_[k], report);
      pairs_[k].next = t + bound(model, state, pairs_[k], h - t, report);
      if (!changed) continue;
      // bounds assume the velocities they were made with: renew those of both bodies
      for (const std::uint32_t body : {pairs_[k].a, pairs_[k].b}) {
        if (model.bodies[body].is_static) continue;
        for (const std::size_t i : pairs_of_body_[body])
          if (i != k) pairs_[i].next = t + bound(model, state, pairs_[i], h - t, report);
      }
    }
    fly_all(state, h - t);
    for (BodyState& s : state.bodies) {
      s.force.setZero();
      s.torque.setZero();
    }
    check_finite(model, state);
    state.time += h;
    ++state.step;
    report.time = state.time;
    report.contacts_found = static_cast<int>(report.contacts.size());
  }
  if (!needs.penetration) return;
  StageTimer timer(report.profile, Stage::Penetration);
  report.max_penetration = report.penetration_before_correction = deepest_overlap(model, state);
}

}  // namespace pegsim
