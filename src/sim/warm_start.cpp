#include "sim/warm_start.hpp"

#include <algorithm>

namespace pegsim {
namespace {
constexpr int kRoles = static_cast<int>(RowRole::Other) + 1;
constexpr std::uint64_t kJointKind = 0xfe;  // the kind byte of a joint variable (0xff: unnamed)
}  // namespace

void WarmStartCache::begin_step() {
  next_.clear();
  hint_base_ = 0;
}

void WarmStartCache::end_step() {
  // The order that sorts this step's names: last step's when the names came
  // in the same sequence (a steady contact set: no sort, one comparison per
  // entry), else sorted afresh and kept for the next step.
  const std::size_t n = next_.size();
  bool same = n == last_names_.size();
  for (std::size_t i = 0; same && i < n; ++i) same = next_[i].name == last_names_[i];
  if (!same) {
    last_names_.resize(n);
    for (std::size_t i = 0; i < n; ++i) last_names_[i] = next_[i].name;
    sorted_.resize(n);
    for (std::size_t i = 0; i < n; ++i) sorted_[i] = static_cast<std::uint32_t>(i);
    std::sort(sorted_.begin(), sorted_.end(), [&](std::uint32_t a, std::uint32_t b) {
      const Name& x = last_names_[a];
      const Name& y = last_names_[b];
      return x != y ? x < y : a > b;  // equal names: latest first
    });
  }
  // in that order, one entry per name (the latest)
  previous_.clear();
  for (std::uint32_t i : sorted_)
    if (previous_.empty() || !(previous_.back().name == next_[i].name)) previous_.push_back(next_[i]);
  next_.clear();
}

void WarmStartCache::clear() {
  previous_.clear();
  last_names_.clear();
  next_.clear();
  hints_.clear();
  hint_base_ = 0;
}

namespace {
std::uint64_t pack(std::uint32_t high, std::uint32_t low) { return static_cast<std::uint64_t>(high) << 32 | low; }
// an int's bits in an order-preserving unsigned form (features may be -1)
std::uint32_t ordered(int x) { return static_cast<std::uint32_t>(x) ^ 0x80000000u; }
}  // namespace

void WarmStartCache::name_variables(const ConstraintSet& set, const StepProblem& problem) {
  const int n = problem.lcp.size();
  const int nc = static_cast<int>(set.contacts.size());
  names_.resize(static_cast<std::size_t>(n));
  ordinal_.assign(static_cast<std::size_t>(nc) * kRoles, 0);
  auto make = [](std::uint32_t a, std::uint32_t b, int fa, int fb, std::uint16_t pa, std::uint16_t pb,
                 std::uint64_t kind, RowRole role, int ordinal) {
    Name name;
    name.bodies = pack(a, b);
    name.features = pack(ordered(fa), ordered(fb));
    // an ordinal beyond 16 bits (never met: a contact's rows of one role are
    // its friction directions) leaves the variable unnamed rather than aliased
    if (ordinal < 0 || ordinal > 0xffff) kind = Name::kUnnamed;
    name.rest = static_cast<std::uint64_t>(pa) << 48 | static_cast<std::uint64_t>(pb) << 32 | (kind & 0xff) << 24 |
                static_cast<std::uint64_t>(static_cast<std::uint8_t>(role)) << 16 |
                static_cast<std::uint64_t>(ordinal & 0xffff);
    return name;
  };
  for (int v = 0; v < n; ++v) {
    Name& name = names_[static_cast<std::size_t>(v)];
    const int c = v < static_cast<int>(problem.var_contact.size()) ? problem.var_contact[v] : -1;
    const RowRole role = problem.lcp.role.empty() ? RowRole::Other : problem.lcp.role[v];
    const int joint = v < static_cast<int>(problem.var_joint.size()) ? problem.var_joint[v] : -1;
    if (joint >= 0) {  // a joint's variable: named by (joint, its index among the joint's variables)
      name = make(kNoBody, kNoBody, joint, problem.var_joint_row[v], 0, 0, kJointKind, role, 0);
      continue;
    }
    if (c < 0) {  // a variable of no contact: never guessed
      name = make(kNoBody, kNoBody, -1, -1, 0, 0, Name::kUnnamed, role, 0);
      continue;
    }
    const Contact& k = set.contacts[c].contact;
    int& ordinal = ordinal_[static_cast<std::size_t>(c) * kRoles + static_cast<int>(role)];
    name = make(k.body_a, k.body_b, k.features.feature_a, k.features.feature_b, k.part_a, k.part_b,
                static_cast<std::uint8_t>(k.kind), role, ordinal++);
  }
}

std::size_t WarmStartCache::find(const Name& name, std::size_t& from, std::size_t& to) const {
  const auto before = [](const Entry& e, const Name& key) { return e.name < key; };
  if (from == kUnsearched) {  // the first of its contact's names: bracket the contact's entries
    Name first = name;
    first.rest &= ~std::uint64_t{0xffffff};  // its role 0, ordinal 0
    from = static_cast<std::size_t>(std::lower_bound(previous_.begin(), previous_.end(), first, before) -
                                    previous_.begin());
    to = from;
    while (to < previous_.size() && previous_[to].name.same_contact(name)) ++to;
  }
  const auto begin = previous_.begin() + static_cast<std::ptrdiff_t>(from);
  const auto end = previous_.begin() + static_cast<std::ptrdiff_t>(to);
  const auto it = std::lower_bound(begin, end, name, before);
  return it != end && it->name == name ? static_cast<std::size_t>(it - previous_.begin()) : previous_.size();
}

void WarmStartCache::guess(const ConstraintSet& set, const StepProblem& problem, VecX& z) {
  z.setZero(problem.lcp.size());
  name_variables(set, problem);
  const std::size_t base = hint_base_;
  hint_base_ += static_cast<std::size_t>(z.size());
  if (hints_.size() < hint_base_) hints_.resize(hint_base_, kUnsearched);
  if (previous_.empty()) return;
  // per contact, the bracket of its entries, found on its first variable (a
  // contact's variables need not be neighbours in the problem's order)
  brackets_.assign(set.contacts.size(), {kUnsearched, 0});
  for (int v = 0; v < z.size(); ++v) {
    const Name& name = names_[static_cast<std::size_t>(v)];
    if (!name.named()) continue;
    std::size_t& hint = hints_[base + static_cast<std::size_t>(v)];
    if (hint < previous_.size() && previous_[hint].name == name) {  // names are unique in previous_
      z(v) = previous_[hint].impulse;
      continue;
    }
    const int c = v < static_cast<int>(problem.var_contact.size()) ? problem.var_contact[v] : -1;
    if (c >= 0) {
      auto& [first, end] = brackets_[static_cast<std::size_t>(c)];
      hint = find(name, first, end);
    } else {  // a joint's variable: searched on its own
      std::size_t from = kUnsearched, to = 0;
      hint = find(name, from, to);
    }
    if (hint < previous_.size()) z(v) = previous_[hint].impulse;
  }
}

void WarmStartCache::remember(const VecX& z) {
  for (int v = 0; v < z.size() && v < static_cast<int>(names_.size()); ++v) {
    const Name& name = names_[static_cast<std::size_t>(v)];
    if (!name.named()) continue;
    next_.push_back(Entry{name, z(v)});
  }
}

}  // namespace pegsim
