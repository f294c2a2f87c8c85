// Contact islands (sim/islands.hpp): the union-find against brute-force
// connected components, the split of a constraint set, and a world solved per
// island against the same world solved as one problem.
#include "sim/islands.hpp"

#include "io/scene.hpp"
#include "sim/world.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <set>

namespace pegsim {
namespace {

using Edges = std::vector<std::pair<std::uint32_t, std::uint32_t>>;

// Components by repeated graph search, O(n * edges): per dynamic body, the
// smallest dynamic body reachable through edges between dynamic bodies.
std::vector<std::uint32_t> brute_force_labels(std::size_t n, const Edges& edges, const std::vector<bool>& is_static) {
  std::vector<std::uint32_t> label(n);
  for (std::size_t start = 0; start < n; ++start) {
    label[start] = static_cast<std::uint32_t>(start);
    if (is_static[start]) continue;
    std::vector<bool> seen(n, false);
    std::vector<std::uint32_t> stack{static_cast<std::uint32_t>(start)};
    seen[start] = true;
    while (!stack.empty()) {
      const std::uint32_t b = stack.back();
      stack.pop_back();
      label[start] = std::min(label[start], b);
      for (const auto& [x, y] : edges) {
        if (is_static[x] || is_static[y]) continue;
        const std::uint32_t other = x == b ? y : y == b ? x : b;
        if (other != b && !seen[other]) {
          seen[other] = true;
          stack.push_back(other);
        }
      }
    }
  }
  return label;
}

TEST(Islands, UnionFindMatchesBruteForceOnRandomGraphs) {
  std::mt19937 rng(12345);
  for (int trial = 0; trial < 300; ++trial) {
    const std::size_t n = 1 + rng() % 40;
    const std::size_t m = rng() % (2 * n + 1);
    std::vector<bool> is_static(n);
    for (std::size_t i = 0; i < n; ++i) is_static[i] = rng() % 5 == 0;
    Edges edges;
    for (std::size_t e = 0; e < m; ++e)
      edges.emplace_back(static_cast<std::uint32_t>(rng() % n), static_cast<std::uint32_t>(rng() % n));
    EXPECT_EQ(component_labels(n, edges, is_static), brute_force_labels(n, edges, is_static)) << "trial " << trial;
  }
}

Contact contact_between(std::uint32_t a, std::uint32_t b, int feature) {
  Contact c;
  c.body_a = a;
  c.body_b = b;
  c.features.feature_a = feature;
  return c;
}

TEST(Islands, SplitsAConstraintSetByBodiesAndKeepsOrder) {
  std::mt19937 rng(777);
  for (int trial = 0; trial < 100; ++trial) {
    const std::size_t n = 2 + rng() % 20;
    std::vector<bool> is_static(n, false);
    is_static[0] = true;  // the ground
    ConstraintSet set;
    Edges edges;
    for (int k = 0; k < static_cast<int>(rng() % 30); ++k) {
      const auto a = static_cast<std::uint32_t>(rng() % n), b = static_cast<std::uint32_t>(rng() % n);
      if (a == b) continue;
      if (rng() % 3 == 0) {  // an I-constraint of two sub-contacts on one pair, friction on the first
        ContactConstraint i;
        i.kind = ConstraintKind::I;
        i.contacts = {static_cast<int>(set.contacts.size()), static_cast<int>(set.contacts.size()) + 1};
        i.friction = {i.contacts[0]};
        set.contacts.push_back({contact_between(a, b, k), 0.5});
        set.contacts.push_back({contact_between(a, b, 100 + k), 0.5});
        set.constraints.push_back(i);
      } else {
        set.add_unilateral(contact_between(a, b, k), 0.0);
      }
      edges.emplace_back(a, b);
    }
    std::vector<Island> islands;
    find_islands(set, is_static, islands);
    const std::vector<std::uint32_t> label = component_labels(n, edges, is_static);
    std::vector<int> all_contacts, all_constraints;
    std::uint32_t previous_first = 0;
    for (std::size_t i = 0; i < islands.size(); ++i) {
      const Island& island = islands[i];
      ASSERT_FALSE(island.bodies.empty());
      EXPECT_TRUE(std::is_sorted(island.bodies.begin(), island.bodies.end()));
      if (i > 0) {
        EXPECT_GT(island.bodies.front(), previous_first);  // ordered by smallest body
      }
      previous_first = island.bodies.front();
      for (std::uint32_t b : island.bodies) {  // exactly one component, all of it
        EXPECT_FALSE(is_static[b]);
        EXPECT_EQ(label[b], island.bodies.front());
      }
      EXPECT_EQ(static_cast<std::size_t>(std::count(label.begin(), label.end(), island.bodies.front())),
                island.bodies.size());
      ConstraintSet part;
      extract_island(set, island, part);
      ASSERT_EQ(part.contacts.size(), island.contacts.size());
      for (std::size_t c = 0; c < island.contacts.size(); ++c) {
        const Contact& k = part.contacts[c].contact;
        EXPECT_EQ(k.features.feature_a, set.contacts[island.contacts[c]].contact.features.feature_a);
        const std::uint32_t dynamic = is_static[k.body_a] ? k.body_b : k.body_a;
        EXPECT_EQ(label[dynamic], island.bodies.front());
      }
      for (std::size_t k = 0; k < part.constraints.size(); ++k) {
        const ContactConstraint& original = set.constraints[island.constraints[k]];
        ASSERT_EQ(part.constraints[k].contacts.size(), original.contacts.size());
        for (std::size_t j = 0; j < original.contacts.size(); ++j)
          EXPECT_EQ(island.contacts[part.constraints[k].contacts[j]], original.contacts[j]);
      }
      all_contacts.insert(all_contacts.end(), island.contacts.begin(), island.contacts.end());
      all_constraints.insert(all_constraints.end(), island.constraints.begin(), island.constraints.end());
    }
    // a partition of the contacts and the constraints
    std::sort(all_contacts.begin(), all_contacts.end());
    std::sort(all_constraints.begin(), all_constraints.end());
    EXPECT_EQ(all_contacts.size(), set.contacts.size());
    EXPECT_EQ(all_constraints.size(), set.constraints.size());
    for (std::size_t c = 0; c < all_contacts.size(); ++c) EXPECT_EQ(all_contacts[c], static_cast<int>(c));
    for (std::size_t k = 0; k < all_constraints.size(); ++k) EXPECT_EQ(all_constraints[k], static_cast<int>(k));
  }
}

// Two frictionless stacks of two boxes, 3 m apart on one floor, dropped
// 5 cm: two islands once they touch down.
const char* kTwoStacks = R"(
options: {name: two-stacks, dimension: 3, h: 0.005, eps: 0.01, friction: 0, solver: lemke}
bodies:
  - {name: ground, shape: {half_space: {normal: [0, 0, 1], offset: 0}}, static: true}
  - {name: a1, shape: {box: [1, 1, 0.5]}, mass: 2, position: [-1.5, 0, 0.3]}
  - {name: b1, shape: {box: [1, 1, 0.5]}, mass: 1, position: [1.5, 0, 0.3]}
  - {name: a2, shape: {box: [0.6, 0.6, 0.4]}, mass: 5, position: [-1.4, 0.05, 0.8]}
  - {name: b2, shape: {box: [0.6, 0.6, 0.4]}, mass: 0.5, position: [1.5, -0.1, 0.8], orientation: {axis_angle: [1, 0, 0, 0.1]}}
)";

World two_stacks(bool islands) {
  Scene s = load_scene_string(kTwoStacks, "two-stacks.yaml");
  s.model.options.islands = islands;
  return World(std::move(s.model), std::move(s.state));
}

// Frictionless Stewart-Trinkle problems have A = N'M^-1N + 0 (no friction
// rows): symmetric positive semidefinite, so every solution gives the same
// velocities M^-1 N p (the impulses themselves need not be unique: four
// corners of a resting box). Per island or all at once, Lemke finds
// solutions of the same problem (block diagonal after a permutation), and
// the trajectories agree up to the solution's residual (1e-9 relative, about
// 1e-11 m/s per step here) accumulated over 300 steps: 1e-8 m is a bound with
// room to spare and far below any physical difference.
TEST(Islands, TwoStacksSolvedPerIslandMatchOneProblem) {
  World split = two_stacks(true), joint = two_stacks(false);
  int steps_with_two = 0;
  for (int i = 0; i < 300; ++i) {
    const StepReport& a = split.step();
    const StepReport& b = joint.step();
    ASSERT_EQ(a.solver_failures, 0);
    ASSERT_EQ(b.solver_failures, 0);
    EXPECT_LE(b.islands.size(), 1u);
    EXPECT_EQ(a.problem_size, b.problem_size);
    if (a.islands.size() == 2) {
      ++steps_with_two;
      EXPECT_EQ(a.solver_calls, 2);
      for (const IslandReport& island : a.islands)  // a1, a2 (odd) or b1, b2 (even): one stack each
        for (std::uint32_t body : island.bodies) EXPECT_EQ(body % 2, island.bodies.front() % 2);
      EXPECT_EQ(split.last_problems().size(), 2u);
      EXPECT_EQ(static_cast<int>(split.last_problems()[0].lcp.size() + split.last_problems()[1].lcp.size()),
                a.problem_size);
    }
    for (std::size_t body = 1; body < 5; ++body) {
      EXPECT_NEAR((split.state().bodies[body].pose.position - joint.state().bodies[body].pose.position).norm(), 0.0,
                  1e-8) << "step " << i << " body " << body;
    }
  }
  EXPECT_GT(steps_with_two, 200);  // the stacks rest after touching down
  const StepReport& last = split.last_report();
  ASSERT_EQ(last.islands.size(), 2u);
  EXPECT_EQ(last.islands[0].bodies, (std::vector<std::uint32_t>{1, 3}));  // ordered by smallest body
  EXPECT_EQ(last.islands[1].bodies, (std::vector<std::uint32_t>{2, 4}));
}

TEST(Islands, PerIslandRunsRepeatBitForBit) {
  World a = two_stacks(true), b = two_stacks(true);
  for (int i = 0; i < 100; ++i) {
    a.step();
    b.step();
  }
  for (std::size_t body = 0; body < 5; ++body) {
    EXPECT_EQ(a.state().bodies[body].pose.position, b.state().bodies[body].pose.position);
    EXPECT_EQ(a.state().bodies[body].pose.orientation.coeffs(), b.state().bodies[body].pose.orientation.coeffs());
  }
}

}  // namespace
}  // namespace pegsim
