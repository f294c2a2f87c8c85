// The geometric pair measures (geometry/penetration.hpp, intersection.hpp)
// for pairs with a curved kind (geometry/curved.hpp), and their registration
// in those operations' tables (geometry/shape_pairs.hpp):
//   - penetration: the signed distance (geometry/gjk.hpp, shape_distance) of
//     two bounded shapes, its normal the axis; against a half-space, the
//     shape's support point along the plane's inward normal (exact);
//   - intersection (the overlap area / volume of thesis 5.2.3, analysis and
//     reports only): a midpoint quadrature over the common box of the two
//     shapes, kQuadrature cells a side, exactly 0 for shapes that are apart;
//     its relative error is of the order of one cell layer over the region.
// A 2D curved kind with a 3D kind: none.
#pragma once

#include "geometry/intersection.hpp"
#include "geometry/penetration.hpp"
#include "geometry/shape_pairs.hpp"

namespace pegsim {

inline constexpr int kQuadrature = 40;

PenetrationAxis curved_penetration(const Shape& a, const Pose& pa, const Shape& b, const Pose& pb);
ShapeIntersection curved_intersection(const Shape& a, const Pose& pa, const Shape& b, const Pose& pb);

namespace curved_pairs_detail {
template <class R, class K, class... Xs>
void with(ShapePairTable<R>& t, R routine) {
  auto one = [&]<class X>(std::type_identity<X>) {
    t.template call<K, X>(routine);
    if constexpr (!std::is_same_v<K, X>) t.template call<X, K>(routine);
  };
  (one(std::type_identity<Xs>{}), ...);
}
}  // namespace curved_pairs_detail

// Every ordered pair with a curved kind gets `routine` (or none for 2D x 3D).
template <class R>
void register_curved_pairs(ShapePairTable<R>& t, R routine) {
  using curved_pairs_detail::with;
  with<R, Sphere, Polyhedron, HalfSpace, Sphere, Capsule, Cylinder, Cone>(t, routine);
  with<R, Capsule, Polyhedron, HalfSpace, Capsule, Cylinder, Cone>(t, routine);
  with<R, Cylinder, Polyhedron, HalfSpace, Cylinder, Cone>(t, routine);
  with<R, Cone, Polyhedron, HalfSpace, Cone>(t, routine);
  with<R, Disc, Polygon, HalfSpace, Disc, Capsule2d>(t, routine);
  with<R, Capsule2d, Polygon, HalfSpace, Capsule2d>(t, routine);
  t.template none<Polygon, Sphere>(), t.template none<Polygon, Capsule>();
  t.template none<Polygon, Cylinder>(), t.template none<Polygon, Cone>();
  t.template none<Disc, Polyhedron>(), t.template none<Capsule2d, Polyhedron>();
  t.template none<Disc, Sphere>(), t.template none<Disc, Capsule>(), t.template none<Disc, Cylinder>();
  t.template none<Disc, Cone>(), t.template none<Capsule2d, Sphere>(), t.template none<Capsule2d, Capsule>();
  t.template none<Capsule2d, Cylinder>(), t.template none<Capsule2d, Cone>();
}

}  // namespace pegsim
