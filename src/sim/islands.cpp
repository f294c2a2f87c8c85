#include "sim/islands.hpp"

#include <algorithm>
#include <stdexcept>

namespace pegsim {
namespace {
constexpr std::uint32_t kNoIsland = 0xffffffffu;
}  // namespace

std::uint32_t BodyUnion::find(std::uint32_t body) {
  while (parent_[body] != body) {
    parent_[body] = parent_[parent_[body]];  // path halving
    body = parent_[body];
  }
  return body;
}

void BodyUnion::unite(std::uint32_t a, std::uint32_t b) {
  a = find(a);
  b = find(b);
  if (a == b) return;
  if (a < b) parent_[b] = a;  // the smaller index stays the representative
  else parent_[a] = b;
}

std::vector<std::uint32_t> component_labels(std::size_t bodies,
                                            const std::vector<std::pair<std::uint32_t, std::uint32_t>>& edges,
                                            const std::vector<bool>& is_static) {
  BodyUnion u(bodies);
  for (const auto& [a, b] : edges)
    if (!is_static[a] && !is_static[b]) u.unite(a, b);
  std::vector<std::uint32_t> label(bodies);
  for (std::size_t i = 0; i < bodies; ++i) label[i] = u.find(static_cast<std::uint32_t>(i));
  return label;
}

void BodyUnion::reset(std::size_t n) {
  parent_.resize(n);
  for (std::size_t i = 0; i < n; ++i) parent_[i] = static_cast<std::uint32_t>(i);
}

void find_islands(const ConstraintSet& set, const std::vector<bool>& is_static, std::vector<Island>& out,
                  const std::vector<std::pair<std::uint32_t, std::uint32_t>>& joint_ends) {
  const std::size_t nb = is_static.size();
  // the working lists are the thread's and `out`'s islands keep their
  // vectors: a steady step allocates nothing here (issue 11 item 5)
  thread_local BodyUnion u;
  u.reset(nb);
  // unite the dynamic bodies of each constraint's sub-contacts
  for (const ContactConstraint& k : set.constraints) {
    std::uint32_t first = kNoIsland;
    for (int c : k.contacts)
      for (std::uint32_t body : {set.contacts[c].contact.body_a, set.contacts[c].contact.body_b}) {
        if (body >= nb || is_static[body]) continue;
        if (first == kNoIsland) first = body;
        else u.unite(first, body);
      }
  }
  // joints unite their two ends (a world or static end joins nothing)
  auto dynamic = [&](std::uint32_t b) { return b < nb && !is_static[b]; };
  for (const auto& [a, b] : joint_ends)
    if (dynamic(a) && dynamic(b)) u.unite(a, b);
  // the island of a contact: its dynamic body's representative (a contact
  // between two static bodies, which the broadphase never pairs, goes with body_a)
  auto island_of = [&](int c) {
    const Contact& k = set.contacts[c].contact;
    if (k.body_a < nb && !is_static[k.body_a]) return u.find(k.body_a);
    if (k.body_b < nb && !is_static[k.body_b]) return u.find(k.body_b);
    return k.body_a;
  };
  thread_local std::vector<std::uint32_t> representatives;  // smallest body of each island, ascending
  thread_local std::vector<std::uint32_t> contact_island, joint_island;
  representatives.clear();
  contact_island.resize(set.contacts.size());
  for (std::size_t c = 0; c < set.contacts.size(); ++c) {
    contact_island[c] = island_of(static_cast<int>(c));
    representatives.push_back(contact_island[c]);
  }
  joint_island.assign(joint_ends.size(), kNoIsland);
  for (std::size_t j = 0; j < joint_ends.size(); ++j) {
    const auto [a, b] = joint_ends[j];
    if (dynamic(a) || dynamic(b)) {
      joint_island[j] = u.find(dynamic(a) ? a : b);
      representatives.push_back(joint_island[j]);
    }
  }
  std::sort(representatives.begin(), representatives.end());
  representatives.erase(std::unique(representatives.begin(), representatives.end()), representatives.end());
  auto index = [&](std::uint32_t representative) {  // its island, or out.size() when none
    const auto it = std::lower_bound(representatives.begin(), representatives.end(), representative);
    return it != representatives.end() && *it == representative ? static_cast<std::size_t>(it - representatives.begin())
                                                                 : representatives.size();
  };
  out.resize(representatives.size());
  for (Island& island : out) {
    island.bodies.clear();
    island.contacts.clear();
    island.constraints.clear();
    island.joints.clear();
  }
  for (std::size_t c = 0; c < set.contacts.size(); ++c)
    out[index(contact_island[c])].contacts.push_back(static_cast<int>(c));
  for (std::size_t k = 0; k < set.constraints.size(); ++k) {
    if (set.constraints[k].contacts.empty()) continue;
    out[index(contact_island[set.constraints[k].contacts.front()])].constraints.push_back(static_cast<int>(k));
  }
  for (std::size_t j = 0; j < joint_ends.size(); ++j)
    if (joint_island[j] != kNoIsland) out[index(joint_island[j])].joints.push_back(static_cast<int>(j));
  for (std::size_t b = 0; b < nb; ++b) {
    if (is_static[b]) continue;
    const std::size_t i = index(u.find(static_cast<std::uint32_t>(b)));
    if (i < out.size()) out[i].bodies.push_back(static_cast<std::uint32_t>(b));
  }
}

void extract_island(const ConstraintSet& set, const Island& island, ConstraintSet& out) {
  out.clear();
  thread_local std::vector<int> renumber;  // global contact -> island contact (-1: not in the island)
  renumber.assign(set.contacts.size(), -1);
  for (int c : island.contacts) {
    renumber[static_cast<std::size_t>(c)] = static_cast<int>(out.contacts.size());
    out.contacts.push_back(set.contacts[c]);
  }
  auto island_contact = [&](int c) {
    const int r = renumber.at(static_cast<std::size_t>(c));
    if (r < 0) throw std::out_of_range("extract_island: a constraint names a contact outside its island");
    return r;
  };
  for (int k : island.constraints) {
    const ContactConstraint& from = set.constraints[static_cast<std::size_t>(k)];
    ContactConstraint& copy = out.add_constraint(from.kind);
    copy.primaries = from.primaries;
    for (int c : from.contacts) copy.contacts.push_back(island_contact(c));
    for (int c : from.friction) copy.friction.push_back(island_contact(c));
  }
}

}  // namespace pegsim
