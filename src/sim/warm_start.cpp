#include "sim/warm_start.hpp"

#include <algorithm>

namespace pegsim {
namespace {
constexpr int kRoles = static_cast<int>(RowRole::Other) + 1;
constexpr std::uint8_t kJointKind = 0xfe;  // Name::kind of a joint variable (0xff: unnamed)
}  // namespace

void WarmStartCache::begin_step() { next_.clear(); }

void WarmStartCache::end_step() {
  std::sort(next_.begin(), next_.end(), [](const Entry& a, const Entry& b) {
    return a.name != b.name ? a.name < b.name : a.order > b.order;  // equal names: latest first
  });
  // keep one entry per name (the latest)
  next_.erase(std::unique(next_.begin(), next_.end(), [](const Entry& a, const Entry& b) { return a.name == b.name; }),
              next_.end());
  previous_.swap(next_);
  next_.clear();
}

void WarmStartCache::clear() {
  previous_.clear();
  next_.clear();
}

void WarmStartCache::name_variables(const ConstraintSet& set, const StepProblem& problem) {
  const int n = problem.lcp.size();
  const int nc = static_cast<int>(set.contacts.size());
  names_.resize(static_cast<std::size_t>(n));
  ordinal_.assign(static_cast<std::size_t>(nc) * kRoles, 0);
  for (int v = 0; v < n; ++v) {
    Name& name = names_[static_cast<std::size_t>(v)];
    const int c = v < static_cast<int>(problem.var_contact.size()) ? problem.var_contact[v] : -1;
    const RowRole role = problem.lcp.role.empty() ? RowRole::Other : problem.lcp.role[v];
    const int joint = v < static_cast<int>(problem.var_joint.size()) ? problem.var_joint[v] : -1;
    if (joint >= 0) {  // a joint's variable: named by (joint, its index among the joint's variables)
      name = Name{kNoBody, kNoBody, joint, problem.var_joint_row[v], 0, 0, kJointKind, static_cast<std::uint8_t>(role), 0};
      continue;
    }
    if (c < 0) {  // a variable of no contact: never guessed
      name = Name{kNoBody, kNoBody, -1, -1, 0, 0, 0xff, static_cast<std::uint8_t>(role), v};
      continue;
    }
    const Contact& k = set.contacts[c].contact;
    int& ordinal = ordinal_[static_cast<std::size_t>(c) * kRoles + static_cast<int>(role)];
    name = Name{k.body_a, k.body_b, k.features.feature_a, k.features.feature_b, k.part_a, k.part_b, static_cast<std::uint8_t>(k.kind),
                static_cast<std::uint8_t>(role), ordinal++};
  }
}

void WarmStartCache::guess(const ConstraintSet& set, const StepProblem& problem, VecX& z) {
  z.setZero(problem.lcp.size());
  name_variables(set, problem);
  if (previous_.empty()) return;
  for (int v = 0; v < z.size(); ++v) {
    const Name& name = names_[static_cast<std::size_t>(v)];
    if (name.kind == 0xff) continue;
    auto it = std::lower_bound(previous_.begin(), previous_.end(), name,
                               [](const Entry& e, const Name& key) { return e.name < key; });
    if (it != previous_.end() && it->name == name) z(v) = it->impulse;
  }
}

void WarmStartCache::remember(const VecX& z) {
  for (int v = 0; v < z.size() && v < static_cast<int>(names_.size()); ++v) {
    const Name& name = names_[static_cast<std::size_t>(v)];
    if (name.kind == 0xff) continue;
    next_.push_back(Entry{name, static_cast<std::uint32_t>(next_.size()), z(v)});
  }
}

}  // namespace pegsim
