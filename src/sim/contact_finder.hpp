// Contact finding, the shared front of every stepper: broadphase (thesis 2.6)
// then narrowphase (contact determination, thesis ch. 3).
//
// Each body's box covers its shape now and after one step of free motion,
// grown by its contact distance (thesis eq. 5.1, contact_distance below); the
// broadphase pairs overlapping boxes, and the narrowphase reports every
// feature pair of each broadphase pair within the pair's contact distance.
// The pairs and contacts stay valid until the next call: the penetration
// meter and the position correction read the same pairs.
#pragma once

#include "collision/broadphase.hpp"
#include "collision/contact.hpp"
#include "contact/collision_filter.hpp"
#include "sim/model.hpp"
#include "sim/state.hpp"
#include "sim/step_report.hpp"

#include <cstdint>
#include <vector>

namespace pegsim {

// Contact distance of body i for the coming step: the fixed scene eps split
// between the pair's two bodies, or with eps: auto the largest distance a
// point of the body can travel in one step (thesis eq. 5.1, written in a
// dimensionally consistent form; see contact_finder.cpp).
double contact_distance(const Model& model, const State& state, std::uint32_t i);

// The largest distance a point of body i can travel in the coming step
// (eq. 5.1's estimate, whatever the scene's eps; 0 for a static body).
double step_travel(const Model& model, const State& state, std::uint32_t i);

class ContactFinder {
 public:
  // Broadphase over the bodies' boxes swept by `free_velocity` (nu*, one per
  // body) over one step, then the narrowphase with applicability judged over
  // the step's rotation when eps_theta is auto. Timed into `profile`.
  void find(const Model& model, const State& state, const std::vector<Vec6>& free_velocity, StepProfile& profile);
  // The narrowphase again over the same pairs, at the current poses and with
  // the fixed eps_theta (the position correction turns nothing); the caller
  // times it.
  void refind(const Model& model, const State& state);

  const std::vector<BodyPair>& pairs() const { return pairs_; }
  const std::vector<Contact>& contacts() const { return contacts_; }
  const std::vector<bool>& is_static() const { return is_static_; }
  // With a fixed eps: the dynamic bodies of the last find() that may travel
  // farther in the step than eps (step_travel), so a contact ahead of them
  // can be missed; 0 with eps: auto (StepReport::short_contact_distance).
  int short_contact_distance() const { return short_eps_; }

 private:
  void narrowphase(const Model& model, const State& state, const std::vector<Vec6>* free_velocity);

  SweepAndPrune broadphase_;
  CollisionFilter filter_;  // links of one tree, joined bodies: never a pair
  std::vector<Aabb> boxes_;
  std::vector<bool> is_static_;
  std::vector<double> body_eps_;
  std::vector<BodyPair> pairs_;
  std::vector<Contact> contacts_;
  int short_eps_ = 0;
};

}  // namespace pegsim
