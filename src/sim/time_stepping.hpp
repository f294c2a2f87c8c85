// The time-stepping LCP stepper (thesis 2.5; Stewart-Trinkle eq. 6.1, or
// Anitescu-Potra without the psi/h term; PEG's eqs. 4.41-4.51): one step is
//
//   free velocities   nu* = nu + M^-1 p_ext                 (eq. 2.30)
//   contact finding   broadphase + narrowphase               (thesis 2.6, ch. 3)
//   contact model     feature pairs -> U/I/X constraints      (thesis ch. 4)
//   contact drift     last step's tangential drift, when on   (sim/contact_drift.hpp)
//   solve             per island: formulation, certified chain, impulses
//   integration       poses from nu^{l+1}                     (eq. 2.36)
//                     kinematic trees: v, q in joint space (sim/tree_stepping.hpp)
//   joint correction  joint errors measured; Algorithm 1 when on (joints/joint_correction.hpp)
//   penetration       deepest overlap, when asked
//   position correction, when on (sim/position_correction.hpp)
//
// each a piece of its own (sim/contact_finder.hpp, contact/contact_model.hpp,
// sim/island_solver.hpp, dynamics/integration.hpp, sim/penetration_meter.hpp)
// and a timed stage of the step's profile.
#pragma once

#include "contact/contact_model.hpp"
#include "sim/contact_drift.hpp"
#include "sim/contact_finder.hpp"
#include "sim/island_solver.hpp"
#include "sim/position_correction.hpp"
#include "sim/stepper.hpp"
#include "sim/tree_stepping.hpp"

#include <memory>
#include <vector>

namespace pegsim {

class TimeSteppingStepper final : public Stepper {
 public:
  std::string_view name() const override { return "time-stepping"; }
  void configure(const Model& model) override;
  void step(const Model& model, State& state, const StepNeeds& needs, StepReport& report) override;

  // What the last step built, for inspection and capture (io/capture_world.hpp).
  const ConstraintSet& constraints() const { return constraints_; }
  const std::vector<StepProblem>& problems() const { return solver_.problems(); }
  const std::vector<Island>& islands() const { return solver_.islands(); }
  const ConstraintSet& island_constraints(std::size_t island) const {
    return solver_.island_constraints(constraints_, island);
  }

 private:
  void free_velocities(const Model& model, const State& state, StepReport& report);
  void correct_joints_after_step(const Model& model, State& state, StepReport& report);

  ContactFinder finder_;
  std::unique_ptr<ContactModel> contact_model_;
  IslandSolver solver_;
  PositionCorrector correction_;
  ContactDrift drift_;  // SimOptions::contact_drift_correction
  TreeStepping trees_;  // kinematic trees: joint-space free motion, A's terms, integration
  ConstraintSet constraints_;
  std::vector<InverseMass> inverse_mass_;
  std::vector<Vec6> free_velocity_, velocity_;
  std::vector<VecX> tree_plus_;  // per tree v+, for the drift's anchors
  TreeTerms terms_;              // the trees' terms, for the drift's consistent targets
};

}  // namespace pegsim
