// A collision at one contact point of two bodies: the relative contact
// velocity, the matrix of paper eq. 7, the integrated impulse
// (collision_integration.hpp), applied to both bodies.
//
// Static bodies (and so half-spaces) have infinite mass: their inverse mass
// and inertia are zero in K and they receive no velocity change.
#pragma once

#include "collision/contact.hpp"
#include "impulse/collision_integration.hpp"
#include "sim/model.hpp"
#include "sim/state.hpp"

namespace pegsim {

// The contact frame: t1, t2, n as columns (n = contact.normal, from A onto B).
Mat3 contact_frame(const Vec3& normal);

// u = (v_B + w_B x r_B) - (v_A + w_A x r_A) at the contact's midpoint, world frame.
Vec3 relative_contact_velocity(const State& state, const Contact& c);

struct CollisionSettings {
  RestitutionLaw law = RestitutionLaw::Poisson;
  double micro_speed = 0.0;  // v_mu: slower approaches are micro-collisions
  int steps = 256;
};

struct AppliedCollision {
  CollisionResult result;
  Vec3 impulse = Vec3::Zero();  // on B, world frame (-impulse on A)
  Vec3 point = Vec3::Zero();    // where (the contact's midpoint)
  bool micro = false;
  double energy_change = 0.0;   // kinetic energy after minus before, p . (u0 + u_end) / 2 (J)
};

// Integrates and applies the collision at c; the bodies must approach there
// (relative_contact_velocity(state, c).dot(c.normal) < 0).
AppliedCollision apply_collision(const Model& model, State& state, const Contact& c, const CollisionSettings& settings);

}  // namespace pegsim
