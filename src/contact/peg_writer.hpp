// Writing U-, I- and X-constraints into a ConstraintSet (thesis 4.2), shared by
// PEG 2D, PEG 3D and the LNC model.
//
// Contacts are referred to by their index in the narrowphase's list ("input");
// each is copied into the set once, however many constraints name it.
#pragma once

#include "collision/contact.hpp"
#include "contact/constraint_set.hpp"
#include "sim/model.hpp"

#include <vector>

namespace pegsim {

// PEG, or the locally non-convex model of Nguyen and Trinkle (thesis eqs.
// 4.2-4.4, dvc3D section 4): PEG's I-constraints without its C-split (every
// sub-contact may push) and without X-constraints; every contact found gets a
// constraint, as in the standard model.
enum class PegVariant { Peg, Lnc };

class PegWriter {
 public:
  // The writer's per-call vectors, kept by its caller from step to step (a
  // steady step allocates nothing: issue 11 item 5).
  struct Storage {
    std::vector<int> out_index, primaries, secondaries;
  };
  PegWriter(const Model& model, const std::vector<Contact>& contacts, ConstraintSet& out, PegVariant variant,
            Storage& storage);

  PegVariant variant() const { return variant_; }
  const Contact& input(int i) const { return contacts_[static_cast<std::size_t>(i)]; }

  // Index in out.contacts of input contact i (copied on first use).
  int add(int input);
  // A contact that is not in the input (PEG 3D's flipped edge-edge contact, Algorithm 14).
  int add_new(const Contact& c);

  void u(int input);  // eqs. 4.7-4.8
  // I(C-split(group)) of eq. 4.9 over input contacts; LNC: all primaries.
  void i(const std::vector<int>& group);
  // X({a}, {b}) of eq. 4.15 over output contact indices, as an I-constraint
  // with one force (peg_2d.cpp D5).
  void x(int a, int b);

 private:
  int first_primary(const int* contacts, std::size_t count, bool output) const;
  const Contact& output(int k) const { return out_.contacts[static_cast<std::size_t>(k)].contact; }

  const Model& model_;
  const std::vector<Contact>& contacts_;
  ConstraintSet& out_;
  PegVariant variant_;
  std::vector<int>& out_index_;  // input contact -> index in out_.contacts (-1: not used)
  std::vector<int>& primaries_;  // i()'s scratch
  std::vector<int>& secondaries_;
  double tolerance_;
};

}  // namespace pegsim
