// The impulse-based stepper (Mirtich and Canny, "Impulse-based Simulation of
// Rigid Bodies"; reading guide shared/notes/mirtich-canny.md): `stepper:
// impulse` in scenes, `--stepper impulse` on the command line.
//
// Every contact (colliding, rolling, sliding, resting) is a train of
// collision impulses between ballistic flights (paper 2). One output step of
// length h is a loop of events:
//   1. Every part pair has a conservative time-of-impact bound
//      (impulse/time_of_impact.hpp; paper 3.3): from the bounding spheres
//      about the centres of mass first (no rotation term: a sphere about the
//      centre of mass is turned into itself), and, when that bound falls
//      inside the step, from the parts' true distance (GJK/EPA, closed forms,
//      half-spaces by support points) with the spin term.
//   2. The earliest bound is the next event (ties: the lower pair index): all
//      bodies fly ballistically to it (impulse/ballistic_flight.hpp; paper:
//      "after an integration step, the distance between the objects on the
//      top of the heap must be recomputed").
//   3. If the pair is closer than the collision envelope eps
//      (ImpulseOptions::collision_tolerance), its contact points within eps
//      (the narrowphase, collision/narrowphase.hpp: every feature pair; or the
//      closest points) are checked: while one approaches (u_n < 0), the most
//      negative is resolved by integrating the collision impulse
//      (impulse/collision_response.hpp, collision_integration.hpp; paper 4),
//      at most 4 sweeps per contact point.
//   4. The pair's bound, and every bound of a body whose velocity changed,
//      is recomputed; back to 2 until the step ends.
// Bounds advance pairs to a distance of eps/2, so bodies never overlap before
// their collision is processed; a bound below ImpulseOptions::min_advance is
// raised to it (counted: the one place a pair may be stepped into overlap).
// The pair list is every pair not both static (the bounding-sphere bound is
// the broadphase: cheap, and exact for bodies far apart), and the event queue
// is a linear scan for the earliest bound: both fine for tens of bodies; the
// paper's swept-box hashing and heap are what a large scene would need.
//
// Resting contact by micro-collisions: a collision approaching slower than
//   v_mu = max(micro_speed_min, sqrt(2 |g| eps)),
// the speed a body gains falling through the envelope, ends its restitution
// no slower than v_mu, so a resting body hops about eps high, f = |g| / (2 v_mu)
// times a second per support point, its time-averaged support force equal to
// its weight. Mirtich's own rule sets the restitution of such slow collisions
// to 1 (thesis; not in the extract in shared/reference), which keeps a body's
// hop rate |g|/(2v) unbounded as its speed v falls; the floor bounds the rate.
// The energy a floored collision adds is at most about m |g| eps per collision
// (StepReport::impulse.max_energy_gain reports it).
//
// Budgets (never a hang): ImpulseOptions::max_collisions_per_step and
// max_events_per_step, counted in StepReport::impulse when reached. State:
// none is carried between steps (all bounds are recomputed at the start of
// each step from the state alone), so a run restarted from any saved state
// is bit-identical to the original.
//
// Kinematic (prescribed-motion) bodies fly at their constant velocity, with
// infinite mass in collisions (the paper's spinning platter:
// scenes/spinning-platter.yaml).
//
// Limits: 3D scenes only; no joints or kinematic trees (the model is
// refused, with the reason).
#pragma once

#include "collision/contact.hpp"
#include "impulse/ballistic_flight.hpp"
#include "impulse/collision_integration.hpp"
#include "sim/stepper.hpp"

#include <vector>

namespace pegsim {

class ImpulseStepper final : public Stepper {
 public:
  std::string_view name() const override { return "impulse"; }
  void configure(const Model& model) override;
  void step(const Model& model, State& state, const StepNeeds& needs, StepReport& report) override;

 private:
  struct PartPair {
    std::uint32_t a, b;  // body indices, a < b
    int part_a, part_b;
    double next = 0.0;   // time of the next event within the step (s from its start)
  };
  void build_pairs(const Model& model);
  double bound(const Model& model, const State& state, const PartPair& pair, double remaining, StepReport& report) const;
  bool collide(const Model& model, State& state, const PartPair& pair, StepReport& report);
  void fly_all(State& state, double tau);
  double deepest_overlap(const Model& model, const State& state, const PartPair** at = nullptr) const;
  void refuse_overlaps(const Model& model, const State& state) const;

  RestitutionLaw law_ = RestitutionLaw::Poisson;
  double micro_speed_ = 0.0;
  std::vector<PartPair> pairs_;
  std::vector<Flight> flights_;
  std::vector<std::vector<std::size_t>> pairs_of_body_;
  std::vector<Contact> contacts_;
  std::size_t body_count_ = 0;
};

}  // namespace pegsim
