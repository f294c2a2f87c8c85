// Contact determination between two bodies (thesis ch. 3).
//
// Every feature pair within the contact distance eps is reported, marked
// primary (applicable and feasible) or secondary. Shapes are given in their
// body frames with world poses; outputs are in world coordinates.
#pragma once

#include "collision/contact.hpp"
#include "geometry/shape.hpp"
#include "math/pose.hpp"

#include <vector>

namespace pegsim {

struct NarrowphaseParams {
  double eps = 0.01;         // contact distance
  double eps_theta = -0.1;   // applicability threshold, = -sin(theta) (thesis 3.2)
  double eps_feasible = 1e-9;  // allowed depth below a facet for feasibility (thesis 3.3)
};

struct BodyGeometry {
  std::uint32_t index;  // internal body index, copied into Contact::body_a / body_b
  const Shape* shape;
  Pose pose;
};

// Appends the contacts between a and b to out. The pair order of the output
// (which body is A) follows the feature kinds' conventions, not the arguments.
// Order of the appended contacts is deterministic (feature index order).
void find_contacts(const BodyGeometry& a, const BodyGeometry& b, const NarrowphaseParams& params,
                   std::vector<Contact>& out);

// The routines of the collision table (collision_table.cpp), one per pair of
// shape kinds, the shapes given as their kinds (a's and b's BodyGeometry::shape
// point to them).
void find_contacts_polyhedra(const BodyGeometry& a, const Polyhedron& pa, const BodyGeometry& b,
                             const Polyhedron& pb, const NarrowphaseParams& params,
                             std::vector<Contact>& out);
void find_contacts_polygons(const BodyGeometry& a, const Polygon& pa, const BodyGeometry& b,
                            const Polygon& pb, const NarrowphaseParams& params,
                            std::vector<Contact>& out);
// plane owner a, vertices of b
void find_contacts_half_space(const BodyGeometry& a, const HalfSpace& plane, const BodyGeometry& b,
                              const Polyhedron& pb, const NarrowphaseParams& params, std::vector<Contact>& out);
void find_contacts_half_space(const BodyGeometry& a, const HalfSpace& plane, const BodyGeometry& b,
                              const Polygon& pb, const NarrowphaseParams& params, std::vector<Contact>& out);

}  // namespace pegsim
