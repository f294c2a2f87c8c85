// The collision table: (shape kind x shape kind) -> narrowphase routine
// (geometry/shape_pairs.hpp), filled by the registrations in
// collision_table.cpp. find_contacts (narrowphase.cpp) dispatches through it.
#pragma once

#include "collision/narrowphase.hpp"
#include "geometry/shape_pairs.hpp"

#include <vector>

namespace pegsim {

// A routine as the table holds it: both shapes still behind BodyGeometry.
using NarrowphaseRoutine = void (*)(const BodyGeometry& a, const BodyGeometry& b, const NarrowphaseParams& params,
                                    std::vector<Contact>& out);
using CollisionTable = ShapePairTable<NarrowphaseRoutine>;

// The registered table, checked complete on first use.
const CollisionTable& collision_table();

// A routine as a kind's narrowphase file writes it: the shapes as their kinds.
template <class A, class B>
using PairRoutine = void (*)(const BodyGeometry& a, const A& sa, const BodyGeometry& b, const B& sb,
                             const NarrowphaseParams& params, std::vector<Contact>& out);

namespace collision_detail {
template <class A, class B, PairRoutine<A, B> F>
void as_is(const BodyGeometry& a, const BodyGeometry& b, const NarrowphaseParams& params, std::vector<Contact>& out) {
  F(a, *std::get_if<A>(a.shape), b, *std::get_if<B>(b.shape), params, out);
}
// F written for (A, B) serving the pair (B, A): called with the bodies swapped,
// its contacts keep F's convention of which body is A
template <class A, class B, PairRoutine<A, B> F>
void swapped(const BodyGeometry& b, const BodyGeometry& a, const NarrowphaseParams& params, std::vector<Contact>& out) {
  F(a, *std::get_if<A>(a.shape), b, *std::get_if<B>(b.shape), params, out);
}
}  // namespace collision_detail

// Registers F for the pair (A, B).
template <class A, class B, PairRoutine<A, B> F>
void register_pair(CollisionTable& table) {
  table.call<A, B>(&collision_detail::as_is<A, B, F>);
}
// Registers F for (A, B) and, with the bodies swapped, for (B, A).
template <class A, class B, PairRoutine<A, B> F>
void register_both_orders(CollisionTable& table) {
  table.call<A, B>(&collision_detail::as_is<A, B, F>);
  table.call<B, A>(&collision_detail::swapped<A, B, F>);
}

}  // namespace pegsim
