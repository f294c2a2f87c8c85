// The velocity-product term of a contact's acceleration-level row (reference
// 002, eqs. (17)-(18), (41): the "N-dot v" of w = N v' + Ndot v >= 0; guide
// shared/notes/drumwright-shell.md B.3 and B.10): the gap's second time
// derivative at zero generalized acceleration, phi'' = N v' + bias.
//
// The gap is written on two material points, c_A on A and c_B on B, and a
// normal n (from A onto B, collision/contact.hpp):
//   - a round shape's point is its core's (a sphere's centre, a capsule's axis
//     point: c = the surface point + r n on B, - r n on A), a polytope's or a
//     half-space's its surface point. N's row is the same either way (c - p
//     is along n, so n . (w' x (c - p)) = 0), and the core point does not
//     slide over the surface as the body rolls: a rolling sphere's surface
//     point accelerates towards the centre by |w|^2 r, its centre does not;
//   - n turns with the body F that owns the face or edge: A for vertex-face,
//     vertex-plane, vertex-edge (collision/contact.hpp); for a round shape on
//     a polytope or half-space, whichever of the two is not round (the pair
//     comes in either order). With phi = n . (c_B - c_A), n' = w_F x n and
//     n'' . n = -|w_F x n|^2 (w_F' x n is normal to n):
//       bias = n . (b_B - b_A) + 2 (w_F x n) . (u_B - u_A) - |w_F x n|^2 n . (c_B - c_A)
//   - two round shapes: n = (c_B - c_A) / d, phi = d - r_A - r_B, and
//       bias = n . (b_B - b_A) + |(I - n n') (u_B - u_A)|^2 / d
// with u the points' velocities and b their accelerations at zero
// generalized acceleration: w x (w x (c - x)) on a loose body (x its centre of
// mass); on a tree's link the point's classical acceleration from the link's
// spatial bias acceleration a_i = i_X_lambda a_lambda + v_i x S_i qd_i
// (Featherstone 2008, Table 5.1's first pass with qdd = 0 and no gravity),
// a_p = lin(a_i) + ang(a_i) x r + ang(v_i) x (lin(v_i) + ang(v_i) x r) (eq.
// 2.40's classical acceleration, r the point in link coordinates).
// Edge-edge contacts (n along e_A x e_B, turning with both bodies) and the
// GJK contacts of cylinders and cones take the face rule above: an
// approximation of n' whose error the next step's impact LCP takes back
// through psi / h (sim/viscous_rk4_stepper.hpp).
#pragma once

#include "articulated/kinematics.hpp"
#include "collision/contact.hpp"
#include "sim/model.hpp"
#include "sim/state.hpp"

#include <vector>

namespace pegsim {

class GapAcceleration {
 public:
  // The trees' kinematics and bias accelerations at the state's q, v (link
  // bodies synced with them).
  void prepare(const Model& model, const State& state);
  // The contact's bias (m/s^2), from the state prepare() read.
  double bias(const Model& model, const State& state, const Contact& c) const;

 private:
  Vec3 point_velocity(const State& state, std::uint32_t body, const Vec3& p) const;
  Vec3 point_bias(const Model& model, const State& state, std::uint32_t body, const Vec3& p) const;

  std::vector<articulated::TreeKinematics> kin_;  // per tree
  std::vector<std::vector<Vec6>> link_bias_;      // per tree, per link: a_i at qdd = 0, link coordinates
  std::vector<int> tree_of_, link_of_;            // per body: its tree and link, -1 for loose bodies
};

// The radius of a body's round shape about its core (sphere, capsule, disc,
// 2D capsule), 0 for any other kind.
double core_radius(const Shape& shape);

}  // namespace pegsim
