// Ballistic flight between collisions (Mirtich and Canny 2: "when the objects
// are not colliding, they are in ballistic trajectories").
//
// Over one output step a body moves under constant acceleration a = g + f/m
// (f the applied force of the step) and a constant applied torque tau:
//   centre of mass   x(t) = x + v t + 1/2 a t^2,   v(t) = v + a t         (exact)
//   rotation         the world angular momentum L(t) = L + tau t; w = R I_b^-1 R^T L;
//                    dq/dt = 1/2 (0, w) q, RK4 in steps of at most 0.05 rad of turn,
//                    the quaternion renormalised; bodies with isotropic inertia
//                    and no torque turn at constant w, exactly.
// Holding L (not w) makes torque-free tumbling keep its angular momentum to
// round-off, and |w| <= |L| / I_min bounds the angular speed for every
// orientation (|I w| >= I_min |w|): the time-of-impact bound's spin term.
#pragma once

#include "sim/model.hpp"
#include "sim/state.hpp"

namespace pegsim {

struct Flight {
  bool is_static = true;  // does not move (a kinematic body moves: zero acceleration and torque, isotropic)
  Vec3 acceleration = Vec3::Zero();  // world
  Vec3 torque = Vec3::Zero();        // world, about the centre of mass
  Mat3 inertia_body = Mat3::Zero();
  Mat3 inv_inertia_body = Mat3::Zero();
  double min_inertia = 0.0;          // smallest principal moment
  bool isotropic = false;            // I_b = I_min Id (spheres, cubes): w constant without torque
};

// The flight of a body over a step whose applied force and torque are those
// in its state (cleared by the caller after the step).
Flight flight_of(const BodyModel& body, const BodyState& state, const Vec3& gravity);

// Moves the body along its flight by tau >= 0.
void fly(const Flight& flight, BodyState& state, double tau);

// A bound on |w| over the next `horizon` seconds of flight.
double angular_speed_bound(const Flight& flight, const BodyState& state, double horizon);

// 1/2 m |v|^2 + 1/2 w . I w, world inertia at the current pose.
double kinetic_energy(const BodyModel& body, const BodyState& state);

}  // namespace pegsim
