// The no-slip and viscous steppers of Drumwright & Shell (reference 002,
// sections IV and VI; the formulation is dynamics/normal_lcp.hpp): a
// time-stepping step whose contact problem is an LCP in the n normal impulses
// alone, then the tangential law (no slip; or viscous, -h mu_v v_t) through
// the velocities. One step:
//   free velocities   v* = v + h M^-1 f                       (eq. 2.30)
//   contact finding   broadphase + narrowphase (sim/contact_finder.hpp)
//   contact model     the standard model's U-constraints (sim/drumwright_shell_step.hpp)
//   per island        the blocks N, S, T, M^-1 (dynamics/contact_space.hpp),
//                     no-slip: Algorithm 2 and the LCP (51)-(55);
//                     viscous: v** and the LCP (41)-(42),
//                     solved by the certified chain (solver: ppm, qp-active-set, lemke ...)
//   integration       poses from v+ (eq. 2.36)
// Kinematic trees take part in joint space (dynamics/contact_space.hpp): their
// free velocities by sim/tree_stepping.hpp, their v+ from the island's vector,
// q integrated, links by forward kinematics; active joint limits are
// frictionless rows of the normal LCP.
// Why steppers and not formulations (dynamics/formulation.hpp): the reduced
// LCP's matrix N P_X N' is not G'M^-1G over rows that each apply their own
// impulse, which is what the time-stepping stepper's solve, warm starts and
// impulse application assume; the velocities come from v+ = P_X M(...).
// A failed island (no solver of the chain accepted) with penetrating
// contacts is solved again by the chain's last solver with those gaps
// clamped at zero (the time-stepping stepper's recovery, sim/island_solver.hpp):
// with no-slip rows a penetration can make the LCP infeasible (guide B.9-8).
// It stays counted as a failure.
// An island of more contacts than SimOptions::max_problem_size is not solved
// (its bodies keep their free velocities; a counted failure, over_budget), as
// in the time-stepping stepper: a no-slip pour of hulls under the standard
// model asked for islands of 6305 and 8565 contacts, 26-45 s a step.
// The energy bound (sim/impulse_energy.hpp, the normal-impulse form) holds
// every island's velocity change v+ - v*, solved or not, to the kinetic
// energy the penetrating contacts' psi/h may give; above it the change is
// scaled and the island counts as a failure. Islands with a tree's
// coordinates are checked in the metric their LCP is posed in (sim/normal_impulse_bound.hpp).
// Decision R1 (no-slip): a touching contact that the solve leaves without a
// normal impulse and separating (N_i v+ > 1e-9 m/s) has no no-slip rows: the
// island is solved again without them (at most kReleasePasses solves; a
// released contact stays released). No-slip is Coulomb friction with mu ->
// infinity, and there |f_t| <= mu f_n with f_n = 0 leaves no tangential force;
// held to the rows, a foot lifting slowly off the ground stays glued to it
// for every step its gap is below touch_distance (the quadruped trotted 0.08 m
// in 2 s that way, 0.42 m on PEG with mu = 0.8; docs/experiments.md). The
// report is the last solve's.
#pragma once

#include "contact/contact_model.hpp"
#include "dynamics/normal_lcp.hpp"
#include "sim/contact_drift.hpp"
#include "sim/contact_finder.hpp"
#include "sim/drumwright_shell_step.hpp"
#include "sim/islands.hpp"
#include "sim/normal_impulse_bound.hpp"
#include "sim/solver_chain.hpp"
#include "sim/stepper.hpp"
#include "sim/tree_stepping.hpp"

#include <memory>
#include <utility>
#include <vector>

namespace pegsim {

enum class TangentialLaw : std::uint8_t { NoSlip, Viscous };

class NormalLcpStepper final : public Stepper {
 public:
  explicit NormalLcpStepper(TangentialLaw law) : law_(law) {}
  std::string_view name() const override { return law_ == TangentialLaw::NoSlip ? "no-slip" : "viscous"; }
  void configure(const Model& model) override;
  void step(const Model& model, State& state, const StepNeeds& needs, StepReport& report) override;

  // The last step's islands, their blocks and problems (inspection, tests).
  const std::vector<Island>& islands() const { return islands_; }
  const std::vector<ContactSpace>& spaces() const { return spaces_; }
  const std::vector<NormalLcp>& problems() const { return problems_; }
  // Per island: the normal impulses applied and the velocities v+ (island vector).
  const std::vector<VecX>& normal_impulses() const { return impulses_; }
  const std::vector<VecX>& post_velocities() const { return post_velocities_; }

 private:
  static constexpr int kReleasePasses = 4;       // R1: solves per island at most
  static constexpr double kSeparating = 1e-9;    // R1: m/s, N_i v+ above this separates

  void build(const Model& model, const ContactSpace& space, double gap_floor, NormalLcp& out) const;
  SolverResult solve_island(const Model& model, const ContactSpace& space, const ConstraintSet& set,
                            const Island& island, StepReport& report, NormalLcp& lcp, VecX& z, IslandReport& ir);

  TangentialLaw law_;
  ContactFinder finder_;
  std::unique_ptr<ContactModel> contact_model_;
  SolverChain chain_;
  ConstraintSet constraints_, island_scratch_;
  std::vector<Island> islands_;
  std::vector<ContactSpace> spaces_;
  std::vector<NormalLcp> problems_;
  std::vector<VecX> impulses_, post_velocities_;
  std::vector<InverseMass> inverse_mass_;
  NormalImpulseBound bound_;  // the energy bound (SimOptions::energy_bound)
  std::vector<Vec6> start_velocity_, free_velocity_, velocity_;
  std::vector<char> released_;  // R1: per row of the island being solved
  ContactDrift drift_;           // SimOptions::contact_drift_correction
  TreeStart trees_;                // kinematic trees (contact in joint space)
  std::vector<VecX> tree_post_;    // per tree v+
};

}  // namespace pegsim
