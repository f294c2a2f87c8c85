// Objects put away for reuse, with the heap storage they own (issue 11 item 5:
// no heap allocation in a steady step).
//
// A container that is rebuilt every step (a ConstraintSet's constraints, a
// StepReport's island reports) loses its elements' vectors when it is
// cleared, and the next step allocates them again. Putting the elements away
// here instead, and taking them back as the container grows, keeps those
// vectors' capacity. The spare objects are storage, not part of the owner's
// value: a copy of the owner starts with none, and they are never read.
#pragma once

#include <utility>
#include <vector>

namespace pegsim {

template <class T>
class Spare {
 public:
  Spare() = default;
  Spare(const Spare&) {}
  Spare& operator=(const Spare&) { return *this; }
  Spare(Spare&&) noexcept = default;
  Spare& operator=(Spare&&) noexcept = default;

  void put(T&& item) { items_.push_back(std::move(item)); }
  // Moves a put-away object into `into`; false (into untouched) when there is none.
  bool take(T& into) {
    if (items_.empty()) return false;
    into = std::move(items_.back());
    items_.pop_back();
    return true;
  }

 private:
  std::vector<T> items_;
};

}  // namespace pegsim
