// Warm starts: last step's impulses, per persistent contact.
//
// A contact persists from one step to the next when the narrowphase finds the
// same feature pair again (bodies, feature kind, feature indices, parts). Each
// LCP variable is named across steps by its contact's features, its role
// (normal, friction, slip, PEG slack) and its ordinal among the variables of
// that contact and role (a friction direction; PEG's second normal impulse on
// a sub-contact held by an I- and an X-constraint; a sub-contact's c and d
// slacks, eqs. 4.10, 4.12). Every variable is kept, PEG's slacks included, so
// a resting PEG contact set starts from last step's complete solution.
//
// A joint's variables (joints/joint_problem.hpp) are named by the joint and
// their index among its variables, so a joint's impulses carry over every step.
//
// Storage: two flat arrays (this step's, last step's) sorted by name, reused
// from step to step: no allocation once they have grown to the run's largest
// contact set. Lookups are binary searches. No order depends on an address or
// a hash: ties (one feature pair found twice) keep the later one, as a map's
// overwrite would.
#pragma once

#include "contact/constraint_set.hpp"
#include "dynamics/formulation.hpp"

#include <compare>
#include <cstdint>
#include <vector>

namespace pegsim {

class WarmStartCache {
 public:
  // Starts a step: the impulses remembered during the last one become the guesses.
  void begin_step();
  // Names the variables of `problem` (then kept for remember()) and sets z
  // to last step's impulse per variable whose name it had, 0 elsewhere.
  void guess(const ConstraintSet& set, const StepProblem& problem, VecX& z);
  // Names them again: the problem solved is no longer the one guess() named
  // (a recovery's re-formulation may order PEG's variables differently).
  void rename(const ConstraintSet& set, const StepProblem& problem) { name_variables(set, problem); }
  // Remembers this step's solution z of the problem last named (islands call
  // guess, then remember, in turn).
  void remember(const VecX& z);
  // Ends the step: what was remembered is next step's guesses. A step without
  // contacts remembers nothing, so nothing stale survives it.
  void end_step();
  void clear();
  std::size_t size() const { return previous_.size(); }

 private:
  struct Name {
    std::uint32_t body_a, body_b;
    int feature_a, feature_b;
    std::uint16_t part_a, part_b;
    std::uint8_t kind, role;
    int ordinal;
    friend auto operator<=>(const Name&, const Name&) = default;
  };
  struct Entry {
    Name name;
    std::uint32_t order;  // insertion order: the later of two equal names wins
    double impulse;
  };
  // names of every variable of `problem`, in variable order, into names_
  void name_variables(const ConstraintSet& set, const StepProblem& problem);

  std::vector<Entry> previous_, next_;
  std::vector<Name> names_;
  std::vector<int> ordinal_;  // per (contact, role) while naming
};

}  // namespace pegsim
