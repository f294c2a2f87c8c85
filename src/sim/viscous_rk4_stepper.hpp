// The viscous model at the acceleration level, integrated by the classical
// fourth-order Runge-Kutta method: reference 002's viscous quadruped run
// (section VII-B; the guide, shared/notes/drumwright-shell.md B.8-2: RK4 with
// acceleration-level contact for sustained contact, and an inelastic impact
// model at impacts such as a foot's touchdown). The acceleration-level model
// is 002's (29)-(42), the guide's V-acc (B.3); the viscous stepper
// (sim/normal_lcp_stepper.hpp) is its impulse-level form V-imp. One step of h:
//
//   impacts      contacts at the step's start (standard model, as the viscous
//                stepper); the frictionless inelastic impact LCP per island
//                  0 <= p perp N M^-1 N' p + N v + psi/h >= 0,   v <- v + M^-1 N' p
//                (solved where some row's N v + psi/h is below minus the solver
//                tolerance: elsewhere p = 0 is a solution to that tolerance)
//                (the normal-impulse LCP with mu_v = 0 over no time: a contact
//                approaching faster than its gap allows is stopped so that it
//                lands at the step's end, and one that overlaps is taken back
//                over the step; 002's experiments, as run in Moby, handle
//                impacts by its general impact model with mu_Coulomb = 0, the
//                guide B.8-2)
//   stages       the state X_k = X_0 + c_k h F(X_{k-1}) (c = 0, 1/2, 1/2, 1),
//                F(X) = (v, v'(X)): per stage, contacts found again at the
//                stage's poses (stage 1: the impacts' own) and the acceleration
//                from the LCP (41)-(42) in the normal forces alone,
//                  k = f - (S' mu_v S + T' mu_v T) v                   (15), explicit
//                  w = N M^-1 N' f_N + N M^-1 k + Ndot v,  0 <= f_N perp w >= 0
//                  v' = M^-1 (k + N' f_N)
//                on the contacts that touch (gap <= touch_distance) and do not
//                separate beyond their overlap's correction, N v + min(gap, 0) / h
//                <= kSeparating (after the impacts an overlapping contact
//                separates at -gap / h, and its row holds that rate over the
//                step), and on those that land within the step, N v + gap / h <=
//                kSeparating (the impacts left them approaching at gap / h, and
//                the row holds that rate, so they land at the step's end and not
//                past it: pegsim's fixed step in place of Moby's conservative
//                advancement to the time of contact); Ndot v by
//                sim/gap_acceleration.hpp.
//                f holds gravity, the applied forces and torques (held over the
//                step, as the controllers set them) and, for trees, the joint
//                forces less C(q, v) (RNEA), through sim/tree_stepping.hpp's free
//                motion: M^-1 k is (v* - v) / h with v* its semi-implicit free
//                velocity (a tree's joint damping D taken implicitly there: its
//                M^-1 is (M + h D)^-1, as in the other steppers)
//   integration  v+ = v + h/6 (a_1 + 2 a_2 + 2 a_3 + a_4), and the pose the same
//                way from the stages' pose rates: x' = v, a loose body's
//                quaternion q' = 1/2 (0, w) (x) q (eq. 2.36's rate, at each
//                stage's own q), a tree's dq/dt (articulated::configuration_rate);
//                quaternions normalized after each update (a planar body's angle
//                moves by its w_z). RK4 in every coordinate.
//
// Each stage's LCP is N M^-1 N' over one variable per contact, solved by the
// scene's chain (ppm: 002's Algorithm 1; lemke); every solve is an island
// report (the impacts' first, then the stages'), failures counted. The
// impacts, and a failed stage solve's best point (its forces read as the
// impulses h f), are held to the energy bound of sim/normal_impulse_bound.hpp
// (SimOptions::energy_bound), as the other steppers hold a failed solve's.
// A certified stage solve's forces are not: the bound's cap (written for
// impulses that take an overlap back) scaled the forces that hold a shin
// wedged between two tile edges in the standard model's trap (1e5 N against
// each other); the shin then sank in and the impacts threw it out (the trot
// on the tiles under Lemke gained 46 J in one step and turned over; with the
// solved forces applied, upright). The step's
// contacts are the impacts' (stage 1's), and their impulses p + h f_N,1 and
// the stage-1 viscous impulse -h mu_v (S v, T v). Scope: the viscous
// stepper's (sim/drumwright_shell_step.hpp: the standard model, trees
// without joint friction, no maximal-coordinate joints, no kinematic bodies,
// no position correction, no contact drift correction), and only the
// explicit law (viscous_integration: explicit).
#pragma once

#include "contact/contact_model.hpp"
#include "dynamics/normal_lcp.hpp"
#include "sim/contact_finder.hpp"
#include "sim/drumwright_shell_step.hpp"
#include "sim/gap_acceleration.hpp"
#include "sim/islands.hpp"
#include "sim/normal_impulse_bound.hpp"
#include "sim/solver_chain.hpp"
#include "sim/stepper.hpp"
#include "sim/tree_stepping.hpp"

#include <memory>
#include <utility>
#include <vector>

namespace pegsim {

class ViscousRk4Stepper final : public Stepper {
 public:
  std::string_view name() const override { return "viscous-rk4"; }
  void configure(const Model& model) override;
  void step(const Model& model, State& state, const StepNeeds& needs, StepReport& report) override;

  static constexpr double kSeparating = 1e-6;  // m/s: a touching contact with N v above this has no row

 private:
  // Rates of a stage: per body [v; w], [v'; w'] and its quaternion's rate (coefficients x, y, z, w, as
  // Eigen stores them), per tree dq/dt (articulated::configuration_rate) and v'.
  struct Rates {
    std::vector<Vec6> velocity, acceleration;
    std::vector<Eigen::Vector4d> orientation_rate;
    std::vector<VecX> tree_rate, tree_acceleration;
  };
  // Contacts (found when `find`), islands and the free motion at `s`.
  void prepare(const Model& model, const State& s, bool find, StepReport& report);
  // The frictionless inelastic impacts at the step's start: s's velocities changed.
  void impacts(const Model& model, State& s, StepReport& report);
  // F(s): the stage's velocities and accelerations; stage 0 reports the step's contact impulses.
  void accelerations(const Model& model, const State& s, int stage, StepReport& report, Rates& out);
  // s = start moved by dt along `rate`: poses along its velocities, velocities v_0 + dt a.
  void place(const Model& model, const State& start, const Rates& rate, double dt, State& s) const;
  SolverResult solve(const ConstraintSet& set, LcpProblem lcp, VecX& z, IslandReport& ir, StepReport& report);
  // The energy bound on a failed stage solve's normal forces f (space_, lcp_ and bias_ the island's).
  void bound_forces(const Model& model, const State& s, const ConstraintSet& set, const VecX& v,
                    const VecX& free_acceleration, VecX& f, SolverResult& result, IslandReport& ir,
                    StepReport& report);

  ContactFinder finder_;
  std::unique_ptr<ContactModel> contact_model_;
  SolverChain chain_;
  ConstraintSet constraints_, island_scratch_;
  std::vector<Island> islands_;
  std::vector<InverseMass> inverse_mass_;
  std::vector<Vec6> velocity_, free_velocity_;
  TreeStart trees_;  // kinematic trees at the stage's start (velocity: the stage's v)
  GapAcceleration gap_acceleration_;
  NormalImpulseBound bound_;  // the impacts' energy bound (SimOptions::energy_bound)
  ContactSpace space_;
  NormalLcp lcp_, bound_lcp_;
  VecX bias_;  // per row of the island's stage LCP: Ndot v
  VecX impact_normal_;                         // per contact of the step's start: its impact impulse
  std::vector<IslandReport> solves_;           // this step's island reports, in solve order
  std::vector<SolverResult> results_;
  Rates stage_[4];
  State stage_state_;
};

}  // namespace pegsim
