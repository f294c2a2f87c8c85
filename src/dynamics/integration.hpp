// Kinematic update at the end of a step (thesis eq. 2.36).
#pragma once

#include "sim/model.hpp"
#include "sim/state.hpp"

namespace pegsim {

// Sets each dynamic body's velocity to nu^{l+1} and advances its pose:
//   x <- x + h v,   q <- normalize(q + (h/2) (0, w) (x) q)   (eq. 2.36, w in world frame)
// Planar bodies advance theta <- theta + h w_z and take q from theta exactly.
// Kinematic (prescribed-motion) bodies advance by advance_kinematic.
void integrate(const Model& model, const std::vector<Vec6>& velocity, double h, State& state);

// A kinematic body's pose after h at its constant velocity: x <- x + h v and
// q <- exp(h w) q, the rotation exact (planar: theta <- theta + h w_z).
void advance_kinematic(BodyState& s, double h, bool planar);

// Moves each dynamic body's pose by a displacement [dx; dtheta] (world frame,
// dtheta a small rotation vector) with the same update as integrate() at
// h = 1, leaving velocities alone (sim/position_correction.cpp).
void displace(const Model& model, const std::vector<Vec6>& displacement, State& state);

}  // namespace pegsim
