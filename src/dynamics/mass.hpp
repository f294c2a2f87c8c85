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

#include <string>
#include <string_view>
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

// h * (f_ext + m g, tau_ext) plus the gyroscopic impulse: the external impulse
// of eq. 2.30. Explicit gyroscopic term: -h w x J w, as eq. 2.30 writes it;
// implicit: gyroscopic_impulse below. Zero for planar bodies.
Vec6 external_impulse(const BodyModel& body, const BodyState& state, const Vec3& gravity, double h,
                      Dimension dim, GyroscopicTerm gyroscopic);

// The angular impulse J (w' - w) of a torque-free spin over the step by the
// implicit midpoint rule on Euler's equation (J the world inertia):
//   J (w' - w) = -h m x J m,   m = (w + w') / 2,
// solved by Newton's method from w' = w. The rule keeps both of the spin's
// invariants exactly: dotting with m gives w'.J w' = w.J w (the kinetic
// energy), and (J w' - J w).(J w' + J w) = -2h (m x J m).J m = 0 (|J w|, the
// angular momentum's size). So a fast spin stays bounded at any h (the
// explicit term is unstable once |w| h is of order one), and a slow one is
// neither pumped up (explicit Euler) nor damped (backward Euler). A spin of
// more than 0.5 rad a step is taken in equal pieces of at most 0.5 rad (up to
// 64), where Newton converges. Round-off, or a spin past 32 rad a step, can
// leave the energy above w.J w; w' is then scaled back to it, so the term
// never adds energy. To first order in h it is
// the explicit -h w x J w; zero for an isotropic J (cubes, spheres).
Vec3 gyroscopic_impulse(const Mat3& J, const Vec3& w, double h);

// "implicit" / "explicit": the scene option's, Python's and the recording's
// names; parse_gyroscopic: false if unknown.
std::string_view to_string(GyroscopicTerm term);
bool parse_gyroscopic(std::string_view text, GyroscopicTerm& term);
std::vector<std::string> gyroscopic_names();

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
