// One frictional collision, integrated through compression and restitution
// (Mirtich and Canny, "Impulse-based Simulation of Rigid Bodies", 4.1-4.2;
// reading guide shared/notes/mirtich-canny.md 1.7).
//
// Assumptions (paper 4.1): infinitesimal collision time (positions fixed,
// velocities jump), Poisson's hypothesis, Coulomb friction. In the contact
// frame (t1, t2, n), n from body A onto body B, the relative contact velocity
// u = (v_B + w_B x r_B) - (v_A + w_A x r_A) changes with the impulse p
// delivered to B (-p to A) as
//
//     u(p) = u0 + K p                                             (paper eq. 7)
//
// K = (1/m_A + 1/m_B) I - [r_A]x I_A^-1 [r_A]x - [r_B]x I_B^-1 [r_B]x, in the
// contact frame (the paper's M; constant through the collision). The
// integration parameter is the normal impulse p_z, as in the paper ("u_z will
// increase; when it reaches zero the point of maximum compression has been
// attained"):
//   sliding  (|u_t| > 0):  du/dp_z = K (-mu u_t/|u_t|, 1)           (Coulomb, sliding)
//   sticking (u_t = 0):    the tangential impulse rate keeping u_t = 0, if it
//                          lies in the friction cone; else sliding restarts
//                          along an invariant ray of the sliding flow.
// Restitution (RestitutionLaw): Poisson by default, the paper's choice
// ("Poisson's hypothesis", 4.1): the collision ends when p_z = (1 + e) p_z at
// maximum compression. Poisson needs no velocity at the end of the
// collision (Newton's u_z,end = -e u_z0 can make friction add energy, Stronge
// 1991) and, unlike the energetic law, follows the paper directly; Stronge
// and Newton are here for comparison.
#pragma once

#include "math/types.hpp"

#include <string>
#include <vector>

namespace pegsim {

enum class RestitutionLaw : std::uint8_t { Poisson, Stronge, Newton };
std::vector<std::string> restitution_law_names();  // "poisson", "stronge", "newton"
RestitutionLaw parse_restitution_law(const std::string& name);  // throws std::invalid_argument
const char* restitution_law_name(RestitutionLaw law);

struct CollisionInput {
  Mat3 K = Mat3::Identity();  // paper eq. 7's matrix in the contact frame (t1, t2, n): symmetric positive definite
  Vec3 u0 = Vec3::Zero();     // relative contact velocity at the start, contact frame; u0.z() < 0
  double mu = 0.0;            // Coulomb friction
  double e = 0.0;             // coefficient of restitution, in [0, 1]
  RestitutionLaw law = RestitutionLaw::Poisson;
  // Micro-collision floor (ImpulseOptions): when > 0 the restitution phase
  // does not end before u_z >= floor_speed (see impulse_stepping.hpp).
  double floor_speed = 0.0;
  int steps = 256;  // integration steps for the nominal normal impulse (fixed: runs are bit-identical)
};

struct CollisionResult {
  Vec3 impulse = Vec3::Zero();  // on B, contact frame: p = K^-1 (u_end - u0)
  Vec3 u_end = Vec3::Zero();    // relative contact velocity after the collision, contact frame
  bool stuck = false;           // the tangential velocity reached zero and stayed there (stable sticking)
  bool jam = false;             // du_z/dp_z <= 0 while compressing (paper's footnote 1): sticking fallback used
  int steps = 0;                // integration steps taken
};

// Throws std::invalid_argument if u0.z() >= 0 (nothing to resolve) or K is not
// positive definite.
CollisionResult integrate_collision(const CollisionInput& in);

}  // namespace pegsim
