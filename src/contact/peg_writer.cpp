// See peg_writer.hpp; decisions D3-D5 are peg_2d.cpp's.
#include "contact/peg_writer.hpp"

#include <algorithm>
#include <utility>

namespace pegsim {

PegWriter::PegWriter(const Model& model, const std::vector<Contact>& contacts, ConstraintSet& out,
                     PegVariant variant)
    : model_(model), contacts_(contacts), out_(out), variant_(variant), out_index_(contacts.size(), -1),
      tolerance_(model.options.eps_feasible) {}

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
int PegWriter::first_primary(const std::vector<int>& contacts, bool is_output) const {
  auto gap = [&](std::size_t k) { return (is_output ? output(contacts[k]) : input(contacts[k])).gap; };
  int best = -1;
  for (std::size_t k = 0; k < contacts.size(); ++k) {
    if (gap(k) < -tolerance_) continue;
    if (best < 0 || gap(k) < gap(static_cast<std::size_t>(best))) best = static_cast<int>(k);
  }
  if (best >= 0) return best;
  best = 0;
  for (std::size_t k = 1; k < contacts.size(); ++k)
    if (gap(k) > gap(static_cast<std::size_t>(best))) best = static_cast<int>(k);
  return best;
}

void PegWriter::u(int input) {
  ContactConstraint k;
  k.kind = ConstraintKind::U;
  k.contacts = {add(input)};
  if (out_.contacts[static_cast<std::size_t>(k.contacts[0])].mu > 0.0) k.friction = k.contacts;
  out_.constraints.push_back(std::move(k));
}

void PegWriter::i(const std::vector<int>& group) {
  std::vector<int> primaries, secondaries;
  for (int c : group)
    (variant_ == PegVariant::Lnc || input(c).features.primary ? primaries : secondaries).push_back(c);
  if (primaries.empty()) {  // D3: promote one
    const int f = first_primary(secondaries, false);
    primaries = {secondaries[static_cast<std::size_t>(f)]};
    secondaries.erase(secondaries.begin() + f);
  }
  const auto first = primaries.begin() + first_primary(primaries, false);
  std::rotate(primaries.begin(), first, first + 1);  // D4: to the front, the others keep their order
  ContactConstraint k;
  k.kind = ConstraintKind::I;
  k.primaries = static_cast<int>(primaries.size());
  for (int c : primaries) {
    k.contacts.push_back(add(c));
    if (out_.contacts[static_cast<std::size_t>(k.contacts.back())].mu > 0.0) k.friction.push_back(k.contacts.back());
  }
  for (int c : secondaries) k.contacts.push_back(add(c));
  out_.constraints.push_back(std::move(k));
}

void PegWriter::x(int a, int b) {
  const Contact& ca = output(a);
  const Contact& cb = output(b);
  bool b_first = false;
  if (ca.features.primary != cb.features.primary) b_first = cb.features.primary;
  else if (ca.features.primary) b_first = first_primary({a, b}, true) == 1;
  else b_first = cb.gap > ca.gap;
  if (b_first) std::swap(a, b);
  ContactConstraint k;
  k.kind = ConstraintKind::X;
  k.primaries = 1;
  k.contacts = {a, b};
  out_.constraints.push_back(std::move(k));
}

}  // namespace pegsim
