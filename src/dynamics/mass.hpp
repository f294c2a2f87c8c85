// Per-body inverse mass in the world frame, and external impulses.
//
// Every body has a 6-vector generalized velocity nu = [v; w] (thesis 2.4.1).
// A planar body locks vz, wx, wy through zero entries of its inverse mass
// (linear_mask = (1, 1, 0), inverse inertia diag(0, 0, 1/Izz)), so the
// Stewart-Trinkle formulation and the solvers are shared by 2D and 3D.
// Static bodies have zero inverse mass.
#pragma once

#include "sim/model.hpp"
#include "sim/state.hpp"

#include <vector>

namespace pegsim {

struct InverseMass {
  double inv_mass = 0.0;
  Vec3 linear_mask = Vec3::Zero();
  Mat3 inv_inertia = Mat3::Zero();  // world frame: R J^-1 R^T

  Vec6 apply(const Vec6& impulse) const {  // M^-1 p
    Vec6 dv;
    dv.head<3>() = inv_mass * linear_mask.cwiseProduct(impulse.head<3>());
    dv.tail<3>() = inv_inertia * impulse.tail<3>();
    return dv;
  }
};

InverseMass world_inverse_mass(const BodyModel& body, const BodyState& state, Dimension dim);

// The body's world inertia R J R^T (zero for static bodies; planar: Izz only).
Mat3 world_inertia(const BodyModel& body, const BodyState& state, Dimension dim);

// h * (f_ext + m g, tau_ext - w x J w): the external impulse of eq. 2.30 with
// the gyroscopic term taken explicitly (zero for planar bodies).
Vec6 external_impulse(const BodyModel& body, const BodyState& state, const Vec3& gravity, double h,
                      Dimension dim);

inline Vec6 velocity_of(const BodyState& s) {
  Vec6 v;
  v << s.linear_velocity, s.angular_velocity;
  return v;
}

// Per body: the world inverse mass, and the velocity at the step's start
// (`with_impulse`: plus M^-1 p_ext, the free velocity nu* of eq. 2.30).
void body_velocities(const Model& model, const State& state, bool with_impulse,
                     std::vector<InverseMass>& inverse_mass, std::vector<Vec6>& velocity);

}  // namespace pegsim
