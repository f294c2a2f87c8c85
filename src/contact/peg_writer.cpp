// See peg_writer.hpp; decisions D3-D5 are peg_2d.cpp's.
#include "contact/peg_writer.hpp"

#include <algorithm>
#include <utility>

namespace pegsim {

PegWriter::PegWriter(const Model& model, const std::vector<Contact>& contacts, ConstraintSet& out,
                     PegVariant variant, Storage& storage)
    : model_(model), contacts_(contacts), out_(out), variant_(variant), out_index_(storage.out_index),
      primaries_(storage.primaries), secondaries_(storage.secondaries), tolerance_(model.options.eps_feasible) {
  out_index_.assign(contacts.size(), -1);
}

int PegWriter::add(int input) {
  int& index = out_index_[static_cast<std::size_t>(input)];
  if (index < 0) index = add_new(contacts_[static_cast<std::size_t>(input)]);
  return index;
}

int PegWriter::add_new(const Contact& c) {
  const int index = static_cast<int>(out_.contacts.size());
  out_.contacts.push_back(
      ConstrainedContact{c, model_.mu(model_.bodies[c.body_a].material, model_.bodies[c.body_b].material)});
  return index;
}

// D4: among the contacts with gap >= -eps_feasible the smallest gap, else the
// largest gap; ties keep order. Returns a position in `contacts` (input or
// output indices).
int PegWriter::first_primary(const int* contacts, std::size_t count, bool is_output) const {
  auto gap = [&](std::size_t k) { return (is_output ? output(contacts[k]) : input(contacts[k])).gap; };
  int best = -1;
  for (std::size_t k = 0; k < count; ++k) {
    if (gap(k) < -tolerance_) continue;
    if (best < 0 || gap(k) < gap(static_cast<std::size_t>(best))) best = static_cast<int>(k);
  }
  if (best >= 0) return best;
  best = 0;
  for (std::size_t k = 1; k < count; ++k)
    if (gap(k) > gap(static_cast<std::size_t>(best))) best = static_cast<int>(k);
  return best;
}

void PegWriter::u(int input) {
  const int c = add(input);
  ContactConstraint& k = out_.add_constraint(ConstraintKind::U);
  k.contacts.push_back(c);
  if (out_.contacts[static_cast<std::size_t>(c)].mu > 0.0) k.friction.push_back(c);
}

void PegWriter::i(const std::vector<int>& group) {
  std::vector<int>& primaries = primaries_;
  std::vector<int>& secondaries = secondaries_;
  primaries.clear();
  secondaries.clear();
  for (int c : group)
    (variant_ == PegVariant::Lnc || input(c).features.primary ? primaries : secondaries).push_back(c);
  if (primaries.empty()) {  // D3: promote one
    const int f = first_primary(secondaries.data(), secondaries.size(), false);
    primaries = {secondaries[static_cast<std::size_t>(f)]};
    secondaries.erase(secondaries.begin() + f);
  }
  const auto first = primaries.begin() + first_primary(primaries.data(), primaries.size(), false);
  std::rotate(primaries.begin(), first, first + 1);  // D4: to the front, the others keep their order
  for (int& c : primaries) c = add(c);  // output indices from here (added before the constraint: add() appends)
  for (int& c : secondaries) c = add(c);
  ContactConstraint& k = out_.add_constraint(ConstraintKind::I);
  k.primaries = static_cast<int>(primaries.size());
  for (int c : primaries) {
    k.contacts.push_back(c);
    if (out_.contacts[static_cast<std::size_t>(c)].mu > 0.0) k.friction.push_back(c);
  }
  for (int c : secondaries) k.contacts.push_back(c);
}

void PegWriter::x(int a, int b) {
  const Contact& ca = output(a);
  const Contact& cb = output(b);
  bool b_first = false;
  if (ca.features.primary != cb.features.primary) {
    b_first = cb.features.primary;
  } else if (ca.features.primary) {
    const int pair[2] = {a, b};
    b_first = first_primary(pair, 2, true) == 1;
  } else {
    b_first = cb.gap > ca.gap;
  }
  if (b_first) std::swap(a, b);
  ContactConstraint& k = out_.add_constraint(ConstraintKind::X);
  k.contacts.push_back(a);
  k.contacts.push_back(b);
}

}  // namespace pegsim
