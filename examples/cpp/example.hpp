// What the C++ examples share: the run length, and adding a body whose shape
// is centred at its centre of mass (the primitives make_box, make_regular_polygon, ...).
#pragma once

#include "geometry/mass_properties.hpp"
#include "sim/model.hpp"
#include "sim/state.hpp"

#include <cstdlib>
#include <cstring>
#include <string>

namespace example {

using namespace pegsim;

// Simulated seconds: `full`, or `quick` when PEGSIM_EXAMPLE_TIME=quick (the
// test suite), or the number PEGSIM_EXAMPLE_TIME gives.
inline double run_time(double full, double quick) {
  const char* env = std::getenv("PEGSIM_EXAMPLE_TIME");
  if (!env || !*env) return full;
  if (std::strcmp(env, "quick") == 0) return quick;
  const double t = std::atof(env);
  return t > 0.0 ? t : full;
}

// A dynamic body of uniform density; `shape` must have its centroid at the origin.
inline BodyId add_dynamic(Model& model, State& state, const std::string& name, Shape shape, double density,
                          const Pose& pose) {
  const MassProperties mp = std::holds_alternative<Polyhedron>(shape)
                                ? mass_properties(std::get<Polyhedron>(shape), density)
                                : mass_properties(std::get<Polygon>(shape), density);
  BodyModel body;
  body.name = name;
  body.shape = std::move(shape);
  body.mass = mp.mass;
  body.inertia = mp.inertia;
  BodyState s;
  s.pose = pose;
  state.bodies.push_back(s);
  return model.add_body(std::move(body));
}

inline BodyId add_static(Model& model, State& state, const std::string& name, Shape shape, const Pose& pose = {}) {
  BodyModel body;
  body.name = name;
  body.is_static = true;
  body.shape = std::move(shape);
  BodyState s;
  s.pose = pose;
  state.bodies.push_back(s);
  return model.add_body(std::move(body));
}

}  // namespace example
