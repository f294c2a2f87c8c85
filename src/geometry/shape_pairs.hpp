// A table over ordered pairs of shape kinds (kind x kind -> rule): what a
// pairwise operation does for each pair. Narrowphase (collision/
// collision_table.cpp), the penetration measure (penetration.cpp) and the
// overlap measure (intersection.cpp) each fill one by registrations.
//
// Every ordered pair gets exactly one rule:
//   Call  - the routine registered for it;
//   None  - explicitly nothing: the pair never touches (two half-spaces, a 2D
//           shape with a 3D one), so the operation returns its empty result;
//   Parts - a compound (thesis 4.5): the operation is taken over every pair of
//           convex parts, each looked up again in the table.
// check_complete() rejects a table with a pair left out, so a new kind cannot
// be registered without saying what each pair with it does.
#pragma once

#include "geometry/shape.hpp"

#include <array>
#include <cstdint>
#include <stdexcept>
#include <string>

namespace pegsim {

template <class Routine>  // a function pointer type
class ShapePairTable {
 public:
  enum class Rule : std::uint8_t { Missing, Call, None, Parts };
  struct Entry {
    Rule rule = Rule::Missing;
    Routine routine = nullptr;  // set when rule == Call
  };

  explicit ShapePairTable(const char* operation) : operation_(operation) {}

  template <class A, class B>
  void call(Routine routine) {
    set(kind_index<A>, kind_index<B>, Entry{Rule::Call, routine});
  }
  template <class A, class B>
  void none() {
    set(kind_index<A>, kind_index<B>, Entry{Rule::None, nullptr});
    if (kind_index<A> != kind_index<B>) set(kind_index<B>, kind_index<A>, Entry{Rule::None, nullptr});
  }
  // every pair with K, in either order, taken part by part
  template <class K>
  void parts() {
    for (std::size_t j = 0; j < kShapeKindCount; ++j) {
      set(kind_index<K>, j, Entry{Rule::Parts, nullptr});
      if (j != kind_index<K>) set(j, kind_index<K>, Entry{Rule::Parts, nullptr});
    }
  }

  const Entry& at(std::size_t a, std::size_t b) const { return entries_[a][b]; }
  const Entry& at(const Shape& a, const Shape& b) const { return entries_[kind_of(a)][kind_of(b)]; }

  // Throws std::logic_error naming the first pair (in kind order) with no rule.
  const ShapePairTable& check_complete() const {
    for (std::size_t a = 0; a < kShapeKindCount; ++a)
      for (std::size_t b = 0; b < kShapeKindCount; ++b)
        if (entries_[a][b].rule == Rule::Missing) fail("no rule for", a, b);
    return *this;
  }

 private:
  void set(std::size_t a, std::size_t b, Entry e) {
    if (entries_[a][b].rule != Rule::Missing) fail("two rules for", a, b);
    entries_[a][b] = e;
  }
  [[noreturn]] void fail(const char* what, std::size_t a, std::size_t b) const {
    throw std::logic_error(std::string(operation_) + ": " + what + " the pair " + kShapeKinds[a].name + " x " +
                           kShapeKinds[b].name);
  }

  const char* operation_;
  std::array<std::array<Entry, kShapeKindCount>, kShapeKindCount> entries_{};
};

}  // namespace pegsim
