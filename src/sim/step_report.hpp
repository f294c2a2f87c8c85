// What one step produced, handed to observers (recorder, statistics, callbacks).
#pragma once

#include "collision/contact.hpp"
#include "contact/constraint_set.hpp"
#include "math/spare.hpp"
#include "solvers/lcp.hpp"

#include <array>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

namespace pegsim {

struct Model;
struct State;

// Stages of the step, in pipeline order; each is timed into StepProfile.
// free_velocity: nu* = nu + M^-1 p_ext (eq. 2.30); penetration: the overlap
// measured after the step, when asked (sim/penetration_meter.hpp);
// position_correction: SimOptions::position_correction, all of it (its
// narrowphase, problems and solves). A stepper that has no such stage leaves
// it at zero.
enum class Stage : std::uint8_t {
  FreeVelocity, Broadphase, Narrowphase, ContactModel, Formulation, Solver, Integration, Penetration,
  PositionCorrection, Observers, Count
};
inline constexpr std::array<const char*, static_cast<int>(Stage::Count)> kStageNames = {
    "free_velocity", "broadphase", "narrowphase", "contact_model", "formulation", "solver", "integration",
    "penetration", "position_correction", "observers"};

struct StepProfile {
  std::array<double, static_cast<int>(Stage::Count)> seconds{};
  double& operator[](Stage s) { return seconds[static_cast<int>(s)]; }
  double operator[](Stage s) const { return seconds[static_cast<int>(s)]; }
};

struct ContactImpulse {
  double normal = 0.0;           // p_n (N s)
  Vec3 friction = Vec3::Zero();  // sum_k p_f,k d_k (N s), world frame
};

// One solve of an island's problem by one solver of the chain.
struct SolveAttempt {
  int solver = 0;  // index into the solver chain (World::solver_chain())
  SolverStatus status = SolverStatus::Solved;
  double residual = 0.0;        // max(complementarity, feasibility), re-measured on the solver's z
  double cone_violation = 0.0;  // see IslandReport::cone_violation
  bool accepted = false;        // within solver_tolerance and max_cone_violation
  bool out_of_time = false;     // stopped by SimOptions::solver_time_budget
};

// The certificate of one island's solve (sim/certification.hpp).
struct IslandReport {
  std::vector<std::uint32_t> bodies;  // dynamic bodies, ascending
  int contacts = 0;                   // sub-contacts in the island's problem
  int problem_size = 0;               // LCP variables
  std::vector<SolveAttempt> attempts; // in chain order; the last one's impulses were applied
  int escalations = 0;                // hand-offs after a miss (an Unsupported attempt, a decline, is none)
  bool certified = true;              // the last attempt was accepted
  bool over_budget = false;           // more variables than SimOptions::max_problem_size: not solved
  bool recovered = false;             // re-solved without the psi/h term (World::recover_without_stabilization)
  // impulses scaled by this to meet the energy bound (sim/impulse_energy.hpp); 1: unscaled
  double impulse_scale = 1.0;
  // residuals of the applied impulses, re-measured by measure_residuals (solvers/lcp.hpp)
  double complementarity = 0.0, feasibility = 0.0;
  // linearized friction cone (thesis eq. 2.21): max over frictional contacts
  // of sum_k p_f,k - mu p_n, clamped at 0 (N s): the negative part of the slip
  // row's w = mu p_n - E' p_f of eq. 6.1
  double cone_violation = 0.0;
};

// What the impulse stepper (sim/impulse_stepping.hpp) did over a step: its
// events between the output frames. Zero for the other steppers.
struct ImpulseCounts {
  int events = 0;              // time-of-impact events: a pair advanced to and its distance measured
  int collisions = 0;          // collision impulses applied (paper eq. 7 integrated)
  int micro_collisions = 0;    // of them, approaching slower than v_mu (restitution floored at v_mu)
  int sticking = 0;            // of them, whose slip stopped and stuck (stable sticking)
  int jams = 0;                // of them, resolved by the sticking fallback (du_z/dp_z <= 0, paper footnote 1)
  int min_advance_clamps = 0;  // time-of-impact bounds raised to ImpulseOptions::min_advance
  int sweep_overruns = 0;      // pairs still approaching after their sweep cap (4 per contact point)
  bool collision_budget_exhausted = false;  // max_collisions_per_step reached: later collisions unresolved
  bool event_budget_exhausted = false;      // max_events_per_step reached: the rest flown unchecked
  double min_distance = std::numeric_limits<double>::infinity();  // smallest pair distance at any event (m)
  double max_energy_gain = 0.0;  // largest kinetic energy one collision added (J; > 0 only by the micro floor)
};

// What a step did, whatever the stepper (sim/stepper.hpp). The solve fields
// speak of the stepper's problems (the time-stepping stepper: one
// complementarity problem per contact island); a stepper without a solve
// leaves them at their reset values.
struct StepReport {
  long step = 0;          // index of the step just taken (state.step after it is step + 1)
  double time = 0.0;      // time at the end of the step
  int contacts_found = 0;                 // feature pairs the narrowphase found at the start of the step
  ConstraintCounts constraints;           // U-, I-, X-constraints the contact model built from them
  int traps = 0;                          // standard-model traps among them (contact/traps.hpp),
                                          // whatever the contact model
  int short_contact_distance = 0;         // bodies that may travel farther this step than a fixed eps
                                          // (a contact ahead of them can be missed; sim/contact_finder.hpp)
  std::vector<Contact> contacts;          // the contact model's (sub-)contacts, when a problem was solved
  std::vector<ContactImpulse> impulses;   // one per contact
  SolverResult solver;                    // of the (last) solve this step; Solved if no contacts
  int solver_calls = 0;                   // islands / problems solved this step
  int solver_failures = 0;                // islands whose last solver in the chain was not accepted
  int over_budget = 0;                    // islands over SimOptions::max_problem_size (not solved; among the failures)
  int solver_recoveries = 0;              // failures recovered by re-solving without the psi/h term
  int impulses_scaled = 0;                // islands whose impulses the energy bound scaled down (among the failures)
  int escalations = 0;                    // solves handed to the next solver of the chain, all islands
  int problem_size = 0;                   // LCP variables, summed over problems
  std::vector<IslandReport> islands;      // one per island solved, by smallest body index
  std::vector<int> solved_by;             // per solver of the chain: islands whose applied impulses it gave
  double complementarity = 0.0;           // worst re-measured residual over islands (see IslandReport)
  double cone_violation = 0.0;            // worst friction-cone violation over islands (N s)
  double max_penetration = 0.0;           // deepest overlap between bodies after the step (m),
                                          // by the separating axis theorem on the broadphase's pairs;
                                          // NaN when nothing asked for it (StepNeeds::penetration)
  bool penetration_exceeded = false;      // max_penetration above SimOptions::max_penetration
  int position_corrections = 0;           // projections of SimOptions::position_correction this step
  int correction_failures = 0;            // island projections no solver of the chain solved (those islands stay)
  double penetration_before_correction = 0.0;  // deepest overlap before them (m); max_penetration is after
  // Joints (joints/joint_correction.hpp): the largest per-joint norm of the
  // position error ||psi_b|| (m and rad mixed, as the thesis's ||C||) and of
  // the velocity error ||G_b' nu|| after the step, before and after the joint
  // correction (equal when it is off); 0 without joints.
  double joint_position_error_before = 0.0, joint_velocity_error_before = 0.0;
  double joint_position_error = 0.0, joint_velocity_error = 0.0;
  int joint_correction_iterations = 0;  // Algorithm 1's position + velocity iterations this step
  // per model joint: the wrench its rows applied to its end B over the step,
  // [force (N); torque about B's anchor (N m)], world frame (joints/joint_problem.hpp)
  std::vector<Vec6> joint_wrenches;
  ImpulseCounts impulse;  // the impulse stepper's events (zero for the others)
  // Drumwright-Shell steppers' certificates (sim/normal_lcp_stepper.hpp,
  // sim/convex_impulse_stepper.hpp), 0 for the others: no-slip's largest
  // |S v+|, |T v+| over touching contacts (m/s, eqs. (45)-(46)); the convex
  // model's largest |u_N + e nu_N| (m/s, 000 eq. (1)), its Newton steps and
  // contacts whose phase-1 normal impulse was negative (guide A.9-2).
  double slip_residual = 0.0;
  double restitution_residual = 0.0;
  int barrier_newton_steps = 0;
  int negative_normal_impulses = 0;
  // viscous stepper, explicit law: touching contacts whose h mu_v w exceeds 2 (the law amplifies their
  // slip: unstable; dynamics/normal_lcp.hpp; viscous_integration: implicit is stable)
  int viscous_overshoots = 0;
  StepProfile profile;

  // Island reports put away by reset(), whose vectors resize_islands() reuses (math/spare.hpp).
  Spare<IslandReport> spare_islands;

  // n island reports: those there are kept, the new ones fresh (as
  // islands.resize(n)), made from put-away reports' vectors where there are
  // some (a steady step allocates nothing here).
  void resize_islands(std::size_t n) {
    while (islands.size() > n) {
      spare_islands.put(std::move(islands.back()));
      islands.pop_back();
    }
    while (islands.size() < n) {
      IslandReport& r = islands.emplace_back();
      IslandReport old;
      if (!spare_islands.take(old)) continue;
      r.bodies = std::move(old.bodies);
      r.bodies.clear();
      r.attempts = std::move(old.attempts);
      r.attempts.clear();
    }
  }

  // Back to a fresh report for step `index`, keeping the vectors' storage.
  void reset(long index) {
    step = index;
    time = 0.0;
    contacts_found = 0;
    constraints = ConstraintCounts{};
    traps = 0;
    short_contact_distance = 0;
    contacts.clear();
    impulses.clear();
    solver = SolverResult{};
    solver.status = SolverStatus::Solved;
    solver_calls = solver_failures = over_budget = solver_recoveries = impulses_scaled = escalations = problem_size = 0;
    for (IslandReport& r : islands) spare_islands.put(std::move(r));
    islands.clear();
    solved_by.clear();
    complementarity = cone_violation = 0.0;
    max_penetration = penetration_before_correction = std::numeric_limits<double>::quiet_NaN();
    penetration_exceeded = false;
    position_corrections = correction_failures = 0;
    joint_position_error_before = joint_velocity_error_before = joint_position_error = joint_velocity_error = 0.0;
    joint_correction_iterations = 0;
    joint_wrenches.clear();
    impulse = ImpulseCounts{};
    slip_residual = restitution_residual = 0.0;
    barrier_newton_steps = negative_normal_impulses = viscous_overshoots = 0;
    profile = StepProfile{};
  }
};

class StepObserver {
 public:
  virtual ~StepObserver() = default;
  virtual void on_step(const Model& model, const State& state, const StepReport& report) = 0;
  // Whether on_step reads StepReport::max_penetration (measured only when asked).
  virtual bool needs_penetration() const { return false; }
};

}  // namespace pegsim
