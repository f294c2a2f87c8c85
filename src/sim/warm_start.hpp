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
// contact set. Lookups are binary searches, one per contact and one within its
// entries; a step whose names come in last step's sequence reuses its sort,
// and each variable first tries the entry it found last step (a resting
// contact set: one comparison per variable, no search).
// No order depends on an address or a hash: ties (one feature pair found
// twice) keep the later one, as a map's overwrite would.
#pragma once

#include "contact/constraint_set.hpp"
#include "dynamics/formulation.hpp"

#include <compare>
#include <cstdint>
#include <utility>
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
  // A variable's name packed into three words, compared as one 192-bit
  // number (a lexicographic compare of nine fields cost a tenth of a resting
  // stack's step): the contact's bodies; its features; its parts, kind,
  // and then the variable's role and ordinal in the lowest 24 bits, so that
  // one contact's variables are neighbours in the sorted order.
  struct Name {
    std::uint64_t bodies = 0, features = 0, rest = 0;
    friend auto operator<=>(const Name&, const Name&) = default;
    std::uint64_t contact_bits() const { return rest >> 24; }  // parts and kind
    bool same_contact(const Name& o) const {
      return bodies == o.bodies && features == o.features && contact_bits() == o.contact_bits();
    }
    bool named() const { return ((rest >> 24) & 0xff) != kUnnamed; }
    static constexpr std::uint64_t kUnnamed = 0xff;  // the kind byte of a variable never guessed
  };
  struct Entry {
    Name name;
    double impulse;
  };
  // names of every variable of `problem`, in variable order, into names_
  void name_variables(const ConstraintSet& set, const StepProblem& problem);
  // the index in previous_ of this name, previous_.size() when it has none; `from` and `to`
  // bracket the entries of the name's contact, searched when from ==
  // kUnsearched and kept by the caller for the contact's other names (an
  // empty bracket too: a new contact is searched once, not per variable)
  static constexpr std::size_t kUnsearched = static_cast<std::size_t>(-1);
  std::size_t find(const Name& name, std::size_t& from, std::size_t& to) const;

  std::vector<Entry> previous_, next_;
  std::vector<Name> last_names_;       // the names end_step last sorted, in the order remembered
  std::vector<std::uint32_t> sorted_;  // the order that sorts them
  std::vector<Name> names_;
  std::vector<int> ordinal_;  // per (contact, role) while naming
  std::vector<std::pair<std::size_t, std::size_t>> brackets_;  // per contact while guessing
  // per variable of the step (islands in turn), the previous_ entry it found
  // last step: tried first, and taken when it carries the same name
  std::vector<std::size_t> hints_;
  std::size_t hint_base_ = 0;  // this step's variables guessed so far
};

}  // namespace pegsim
