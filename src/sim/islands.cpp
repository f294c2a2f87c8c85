#include "sim/islands.hpp"

#include <algorithm>
#include <map>

namespace pegsim {
namespace {
constexpr std::uint32_t kNoIsland = 0xffffffffu;
}  // namespace

BodyUnion::BodyUnion(std::size_t n) : parent_(n) {
  for (std::size_t i = 0; i < n; ++i) parent_[i] = static_cast<std::uint32_t>(i);
}

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

void find_islands(const ConstraintSet& set, const std::vector<bool>& is_static, std::vector<Island>& out,
                  const std::vector<std::pair<std::uint32_t, std::uint32_t>>& joint_ends) {
  out.clear();
  const std::size_t nb = is_static.size();
  BodyUnion u(nb);
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
  std::map<std::uint32_t, std::size_t> index;  // representative (smallest body) -> island, ordered
  std::vector<std::uint32_t> contact_island(set.contacts.size());
  for (std::size_t c = 0; c < set.contacts.size(); ++c) {
    contact_island[c] = island_of(static_cast<int>(c));
    index.emplace(contact_island[c], 0);
  }
  std::vector<std::uint32_t> joint_island(joint_ends.size(), kNoIsland);
  for (std::size_t j = 0; j < joint_ends.size(); ++j) {
    const auto [a, b] = joint_ends[j];
    if (dynamic(a) || dynamic(b)) {
      joint_island[j] = u.find(dynamic(a) ? a : b);
      index.emplace(joint_island[j], 0);
    }
  }
  out.resize(index.size());
  std::size_t next = 0;
  for (auto& [representative, i] : index) i = next++;
  for (std::size_t c = 0; c < set.contacts.size(); ++c)
    out[index[contact_island[c]]].contacts.push_back(static_cast<int>(c));
  for (std::size_t k = 0; k < set.constraints.size(); ++k) {
    if (set.constraints[k].contacts.empty()) continue;
    out[index[contact_island[set.constraints[k].contacts.front()]]].constraints.push_back(static_cast<int>(k));
  }
  for (std::size_t j = 0; j < joint_ends.size(); ++j)
    if (joint_island[j] != kNoIsland) out[index[joint_island[j]]].joints.push_back(static_cast<int>(j));
  for (std::size_t b = 0; b < nb; ++b) {
    if (is_static[b]) continue;
    auto it = index.find(u.find(static_cast<std::uint32_t>(b)));
    if (it != index.end()) out[it->second].bodies.push_back(static_cast<std::uint32_t>(b));
  }
}

void extract_island(const ConstraintSet& set, const Island& island, ConstraintSet& out) {
  out.clear();
  std::map<int, int> renumber;  // global contact -> island contact
  for (int c : island.contacts) {
    renumber[c] = static_cast<int>(out.contacts.size());
    out.contacts.push_back(set.contacts[c]);
  }
  for (int k : island.constraints) {
    ContactConstraint copy = set.constraints[k];
    for (int& c : copy.contacts) c = renumber.at(c);
    for (int& c : copy.friction) c = renumber.at(c);
    out.constraints.push_back(std::move(copy));
  }
}

}  // namespace pegsim
