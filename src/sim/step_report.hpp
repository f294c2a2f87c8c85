// What one step produced, handed to observers (recorder, statistics, callbacks).
#pragma once

#include "collision/contact.hpp"
#include "contact/constraint_set.hpp"
#include "solvers/lcp.hpp"

#include <array>
#include <cstdint>
#include <vector>

namespace pegsim {

struct Model;
struct State;

// Stages of the step, in pipeline order; each is timed into StepProfile.
enum class Stage : std::uint8_t {
  Broadphase, Narrowphase, ContactModel, Formulation, Solver, Integration, Observers, Count
};
inline constexpr std::array<const char*, static_cast<int>(Stage::Count)> kStageNames = {
    "broadphase", "narrowphase", "contact_model", "formulation", "solver", "integration", "observers"};

struct StepProfile {
  std::array<double, static_cast<int>(Stage::Count)> seconds{};
  double& operator[](Stage s) { return seconds[static_cast<int>(s)]; }
  double operator[](Stage s) const { return seconds[static_cast<int>(s)]; }
};

struct ContactImpulse {
  double normal = 0.0;           // p_n (N s)
  Vec3 friction = Vec3::Zero();  // sum_k p_f,k d_k (N s), world frame
};

struct StepReport {
  long step = 0;          // index of the step just taken (state.step after it is step + 1)
  double time = 0.0;      // time at the end of the step
  int contacts_found = 0;                 // feature pairs the narrowphase found at the start of the step
  ConstraintCounts constraints;           // U-, I-, X-constraints the contact model built from them
  int traps = 0;                          // standard-model traps among them (contact/traps.hpp),
                                          // whatever the contact model
  std::vector<Contact> contacts;          // the contact model's (sub-)contacts, when a problem was solved
  std::vector<ContactImpulse> impulses;   // one per contact
  SolverResult solver;                    // of the (last) solve this step; Solved if no contacts
  int solver_calls = 0;                   // islands / problems solved this step
  int solver_failures = 0;                // calls that did not end Solved
  int solver_recoveries = 0;              // failures recovered by re-solving without the psi/h term
  int problem_size = 0;                   // LCP variables, summed over problems
  double max_penetration = 0.0;           // deepest overlap between bodies after the step (m),
                                          // by the separating axis theorem on the broadphase's pairs
  StepProfile profile;
};

class StepObserver {
 public:
  virtual ~StepObserver() = default;
  virtual void on_step(const Model& model, const State& state, const StepReport& report) = 0;
};

}  // namespace pegsim
