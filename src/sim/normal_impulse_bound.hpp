// The energy bound of the steppers whose contact problem is an LCP in the
// normal impulses alone (sim/normal_lcp_stepper.hpp: no-slip and viscous;
// sim/viscous_rk4_stepper.hpp: its impacts), the normal-impulse form of
// sim/impulse_energy.hpp.
//
// The energy bound on the island's velocity change d = v+ - v* (the header;
// the normal-impulse form in sim/impulse_energy.hpp): dT = d'M v* + 1/2 d'M d
// from the bodies' masses, against G and E of the normal impulses. b = N v0 +
// psi/h, so the gap term is b - N v0 whatever floor the build used.
// An island with a tree's coordinates is measured in the metric its LCP is
// posed in, M^ = M + h D (the trees' joint damping D, taken implicitly;
// sim/tree_stepping.hpp): dT^ = d'M^ v* + 1/2 d'M^ d, the trees' segments
// through their factors of M^ (TreeStepping::inertia_times), and at a
// solution dT^ <= G as in the header's derivation with M^ for M. (Not from
// the impulses, p'v* + 1/2 p'd with p = M^ d = N'f + S'f_S + T'f_T: with Y
// near singular, no-slip's rho comes out of Y^-1 at 1e30 while the Gram-form
// v+ does not, and p'd misses the 8e30 J that the quadruped on the tiles
// gained in one step that way.) E's mass per contact (tree_row_mass): the
// contact's own effective normal mass with its tangents held, (K^-1)_nn of
// its 3 x 3 block K = [N; S; T]_i M^-1 [N; S; T]_i', at most the mass of a
// floating tree it touches (link_inverse_mass_). A joint limit, or a point
// whose K is singular on a fixed-base tree, has no finite one: E is no bound
// there (G alone).
#pragma once

#include "contact/constraint_set.hpp"
#include "dynamics/contact_space.hpp"
#include "dynamics/mass.hpp"
#include "dynamics/normal_lcp.hpp"
#include "sim/model.hpp"
#include "sim/state.hpp"
#include "sim/step_report.hpp"
#include "sim/tree_stepping.hpp"

#include <vector>

namespace pegsim {

struct ImpulseWork;  // sim/impulse_energy.hpp

class NormalImpulseBound {
 public:
  // The trees' part of E (link_inverse_mass_ below), from the model.
  void configure(const Model& model);
  // Holds the island's change v - v_free (v: its v+, island vector) to the
  // bound: above it z, the tangential impulses and the change are scaled, the
  // island counted as a failure (ir, report). `inverse_mass`: per body, as the
  // contact space was built with; `trees`: the factors of M + h D its trees'
  // blocks came from (TreeStepping::inertia_times).
  void apply(const Model& model, const State& state, const ContactSpace& space, const ConstraintSet& set,
             const std::vector<InverseMass>& inverse_mass, const VecX& v_free, const TreeStepping& trees,
             NormalLcp& lcp, VecX& z, VecX& v, SolverResult& result, IslandReport& ir, StepReport& report) const;

 private:
  void bound_loose_bodies(const Model& model, const State& state, const ContactSpace& space,
                          const std::vector<InverseMass>& inverse_mass, const VecX& v_free, const VecX& d,
                          ImpulseWork& work) const;

  std::vector<double> link_inverse_mass_;  // E: per body, 1 / its floating tree's mass, else 0
};

}  // namespace pegsim
