// Contact islands: the bodies connected through contacts, solved apart.
//
// Two dynamic bodies are in one island when a chain of contacts joins them.
// A static body (the ground) moves for no impulse, so it joins nothing: two
// stacks on one floor are two islands, and their complementarity problems
// (thesis eq. 6.1) share no variable and no Jacobian column. Solving them one
// at a time gives the same impulses as solving them together (the matrix is
// block diagonal after a permutation), with smaller problems.
//
// Islands are ordered by their smallest body index, contacts and constraints
// inside an island keep the constraint set's order: no order depends on an
// address or a hash, so reruns give the same islands bit for bit.
#pragma once

#include "contact/constraint_set.hpp"

#include <cstdint>
#include <utility>
#include <vector>

namespace pegsim {

// Union-find over body indices (union by smaller index, path halving): the
// representative of a set is always its smallest index.
class BodyUnion {
 public:
  BodyUnion() = default;
  explicit BodyUnion(std::size_t n) { reset(n); }
  void reset(std::size_t n);  // n bodies, each its own set (the storage is kept)
  std::uint32_t find(std::uint32_t body);
  void unite(std::uint32_t a, std::uint32_t b);

 private:
  std::vector<std::uint32_t> parent_;
};

// Per body, the smallest body index of its connected component through
// `edges`; edges touching a static body are ignored, and a static body's label
// is itself (it belongs to no island).
std::vector<std::uint32_t> component_labels(std::size_t bodies,
                                            const std::vector<std::pair<std::uint32_t, std::uint32_t>>& edges,
                                            const std::vector<bool>& is_static);

struct Island {
  std::vector<std::uint32_t> bodies;  // dynamic bodies, ascending
  std::vector<int> contacts;          // indices into the constraint set's contacts, ascending
  std::vector<int> constraints;       // indices into its constraints, ascending
  std::vector<int> joints;            // indices into Model::joints, ascending
};

// Splits a constraint set into islands. Every constraint lies in one island
// (all bodies its sub-contacts touch are united), ordered by smallest body.
// `joint_ends` (body_a, body_b per joint; kNoBody for the world) unite their
// bodies too, and an island may hold joints and no contact.
void find_islands(const ConstraintSet& set, const std::vector<bool>& is_static, std::vector<Island>& out,
                  const std::vector<std::pair<std::uint32_t, std::uint32_t>>& joint_ends = {});

// The island's part of `set`, contact indices renumbered in island order.
void extract_island(const ConstraintSet& set, const Island& island, ConstraintSet& out);

}  // namespace pegsim
