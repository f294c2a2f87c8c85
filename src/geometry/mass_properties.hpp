// Mass properties from geometry and density.
#pragma once

#include "geometry/polygon.hpp"
#include "geometry/polyhedron.hpp"
#include "math/types.hpp"

namespace pegsim {

struct MassProperties {
  double mass = 0.0;
  Vec3 centre_of_mass = Vec3::Zero();  // in the shape's input frame
  Mat3 inertia = Mat3::Zero();         // about the centre of mass, input frame axes
                                       // (2D: only inertia(2,2) = Izz is meaningful)
};

// Solid polyhedron of uniform density (divergence theorem over the triangles).
MassProperties mass_properties(const Polyhedron& p, double density);
// Lamina of uniform areal density (kg/m^2), inertia about z.
MassProperties mass_properties(const Polygon& p, double density);
// Union of a compound's overlapping convex parts (inclusion-exclusion, compound.cpp).
struct Compound;
MassProperties mass_properties(const Compound& c, double density);
// Any shape: MassProperties mass_properties(const Shape&, double) in geometry/shape.hpp.

double volume(const Polyhedron& p);
double area(const Polygon& p);

}  // namespace pegsim
