// bodies: each body's shape, mass properties, material and initial state
// (docs/scene-format.md, "bodies").
//
// Frames: a scene gives a shape in its own frame and places that frame with
// `position` and `orientation` (2D: `theta`). The body frame of pegsim has its
// origin at the centre of mass, so the loader moves the shape by -c (c: its
// centroid in the shape frame) and puts the body at position + R c: the shape
// ends up exactly where the scene put it.
#include "io/scene_parts.hpp"

#include "geometry/mass_properties.hpp"
#include "io/scene_limits.hpp"

#include <Eigen/Eigenvalues>

#include <cmath>
#include <cstdio>
#include <exception>
#include <map>

namespace pegsim::scene_detail {

namespace {

std::string names_of(const ShapeLibrary& shapes) {
  std::string out;
  for (const auto& [name, shape] : shapes) out += (out.empty() ? "" : ", ") + name;
  return out.empty() ? "none defined under shapes:" : out;
}

Shape resolve_shape(const Field& f, const ShapeLibrary& shapes, Dimension dimension) {
  if (!f.is_scalar()) return parse_shape(f, dimension);
  const std::string name = f.text();
  const auto it = shapes.find(name);
  if (it == shapes.end()) f.fail("unknown shape '" + name + "' (shapes: " + names_of(shapes) + ")");
  return it->second.shape;
}

// mass properties of a solid or lamina at `density`, in the shape's own frame
MassProperties mass_of(const Field& shape_field, const Shape& shape, double density) {
  MassProperties mp;
  try {
    mp = mass_properties(shape, density);
  } catch (const std::exception& e) {
    shape_field.fail(std::string("cannot compute mass properties: ") + e.what());
  }
  if (!(mp.mass > 0.0) || !std::isfinite(mp.mass))
    shape_field.fail("shape has no volume (mass " + std::to_string(mp.mass) + ")");
  return mp;
}

Vec3 point_or_vector(const Field& f, bool planar) { return planar ? lift(f.vec2()) : f.vec3(); }

std::string g(double x) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%g", x);
  return buf;
}

// A body's mass and principal moments within scene_limits: outside, the
// step's inverse masses and energies leave double's range (a mass of 1e-320
// has no finite inverse; 1e308 kg overflows its weight times a step).
void check_mass(const Field& f, double mass) {
  using scene_limits::kMaxMass, scene_limits::kMinMass;
  if (!(mass >= kMinMass && mass <= kMaxMass))
    f.fail("the mass must lie in [" + g(kMinMass) + ", " + g(kMaxMass) + "] kg (docs/scene-format.md, Limits), got " +
           g(mass) + " kg");
}
void check_inertia(const Field& f, const Mat3& inertia, bool planar) {
  using scene_limits::kMaxInertia, scene_limits::kMinInertia;
  const Eigen::SelfAdjointEigenSolver<Mat3> eig(inertia, Eigen::EigenvaluesOnly);
  const double low = planar ? inertia(2, 2) : eig.eigenvalues().minCoeff();
  const double high = planar ? inertia(2, 2) : eig.eigenvalues().maxCoeff();
  if (!(low >= kMinInertia && high <= kMaxInertia))
    f.fail("the principal moments of inertia must lie in [" + g(kMinInertia) + ", " + g(kMaxInertia) +
           "] kg m^2 (docs/scene-format.md, Limits), got " + g(low) + (low == high ? "" : " .. " + g(high)));
}

Quat quaternion(const Field& f) {
  const auto q = f.numbers(4);
  const Quat out(q[0], q[1], q[2], q[3]);
  const double norm = out.norm();
  if (norm == 0.0) f.fail("a quaternion [w, x, y, z] must not be zero");
  if (std::abs(norm - 1.0) > 1e-6)
    f.fail("must be a unit quaternion [w, x, y, z] (|q| = " + std::to_string(norm) +
           ", allowed 1 +- 1e-6); normalise it or use {axis_angle: [x, y, z, angle]}");
  return out.normalized();
}

// one body: validated, centred, added to the model; its initial state appended
void parse_body(const Field& f, std::size_t index, const ShapeLibrary& shapes, Model& model,
                State& state, std::map<std::string, int>& name_lines, Vec3& shape_origin) {
  const bool planar = model.options.dimension == Dimension::Planar;
  f.expect_keys({"name", "shape", "static", "kinematic", "position", "orientation", "theta", "velocity",
                 "angular_velocity", "density", "mass", "inertia", "material"});
  BodyModel body;

  // name, unique
  const Field name = f["name"];
  body.name = name.present() ? name.text() : "body" + std::to_string(index);
  if (auto [it, fresh] = name_lines.emplace(body.name, f.line()); !fresh)
    (name.present() ? name : f)
        .fail("duplicate body name '" + body.name + "' (first used at line " +
              std::to_string(it->second + 1) + ")");
  if (const Field s = f["static"]; s.present()) body.is_static = s.boolean();
  // prescribed motion: static (infinite mass) but moving at its given velocity
  const Field kinematic = f["kinematic"];
  if (kinematic.present() && kinematic.boolean()) {
    if (const Field s = f["static"]; s.present() && !s.boolean())
      kinematic.fail("a kinematic body is static (infinite mass, moved at its given velocity); drop static: false");
    body.is_static = body.is_kinematic = true;
  }

  // shape
  const Field shape_field = f.require("shape");
  body.shape = resolve_shape(shape_field, shapes, model.options.dimension);
  const bool half_space = is_half_space(body.shape);
  if (half_space && !body.is_static)
    shape_field.fail("a half-space can only belong to a static body (add static: true)");
  if (half_space && body.is_kinematic)
    kinematic.fail("a half-space cannot move: a kinematic body needs a bounded shape (a box or a cylinder, say)");

  // pose of the shape frame
  if (planar && f.has("orientation"))
    f["orientation"].fail("3D field in a 2D scene: a planar body turns by theta (radians)");
  if (!planar && f.has("theta"))
    f["theta"].fail("2D field in a 3D scene: use orientation");
  Vec3 position = Vec3::Zero();
  if (const Field p = f["position"]; p.present())
    position = within(p, point_or_vector(p, planar), scene_limits::kMaxLength, "m");
  double theta = 0.0;
  Quat rotation = Quat::Identity();
  if (planar) {
    if (const Field t = f["theta"]; t.present()) theta = t.number();
    rotation = Quat(Eigen::AngleAxisd(theta, Vec3::UnitZ()));
  } else if (const Field o = f["orientation"]; o.present()) {
    rotation = parse_orientation(o);
  }

  // mass properties; the body frame moves to the centroid
  const Field density = f["density"], mass = f["mass"], inertia = f["inertia"];
  if (half_space) {
    for (const Field& g : {density, mass, inertia})
      if (g.present()) g.fail("a half-space has no mass properties; remove this field");
  } else {
    if (density.present() && mass.present()) mass.fail("give either mass or density, not both");
    if (inertia.present() && !mass.present())
      inertia.fail("inertia goes with mass (with density it is computed from the shape)");
    if (!body.is_static && !density.present() && !mass.present())
      f.fail("required field is missing: a dynamic body needs mass or density (or static: true)");
    const double rho = density.present() ? density.positive() : 1.0;
    const MassProperties mp = mass_of(shape_field, body.shape, rho);
    if (mass.present()) {
      body.mass = mass.positive();
      check_mass(mass, body.mass);
      body.inertia = inertia.present() ? parse_inertia(inertia, model.options.dimension)
                                       : Mat3(mp.inertia * (body.mass / mp.mass));
    } else if (density.present()) {
      body.mass = mp.mass;
      body.inertia = mp.inertia;
      check_mass(density, body.mass);
    }
    if (!body.is_static || mass.present() || density.present())
      check_inertia(inertia.present() ? inertia : mass.present() ? mass : density.present() ? density : shape_field,
                    body.inertia, planar);
    Vec3 centroid = mp.centre_of_mass;
    if (planar) centroid.z() = 0.0;
    translate_shape(body.shape, centroid);
    position += rotation * centroid;
    shape_origin = -centroid;
  }

  if (const Field m = f["material"]; m.present()) body.material = find_material(m, model);

  // initial state; velocity is that of the centre of mass, world frame
  BodyState s;
  s.pose.position = position;
  s.pose.orientation = rotation;
  if (const Field v = f["velocity"]; v.present())
    s.linear_velocity = within(v, point_or_vector(v, planar), scene_limits::kMaxSpeed, "m/s");
  if (const Field w = f["angular_velocity"]; w.present())
    s.angular_velocity = within(w, planar ? Vec3(0.0, 0.0, w.number()) : w.vec3(), scene_limits::kMaxAngularSpeed,
                                "rad/s");
  const char* still = "a static body does not move; remove this field, drop static: true, or make it kinematic: true "
                      "(moved at this velocity)";
  if (body.is_static && !body.is_kinematic && s.linear_velocity.norm() > 0.0) f["velocity"].fail(still);
  if (body.is_static && !body.is_kinematic && s.angular_velocity.norm() > 0.0) f["angular_velocity"].fail(still);

  model.add_body(std::move(body));
  state.bodies.push_back(s);
}

}  // namespace

Quat parse_orientation(const Field& f) {
  if (f.is_sequence()) return quaternion(f);
  const char* forms = "expected [w, x, y, z] or a map with one key: quaternion, axis_angle or rpy";
  if (!f.is_map()) f.fail(std::string(forms) + ", got " + f.describe());
  const auto entries = f.entries();
  if (entries.size() != 1) f.fail(forms);
  const auto& [kind, value] = entries.front();
  if (kind == "quaternion") return quaternion(value);
  if (kind == "axis_angle") {
    const auto a = value.numbers(4);
    const Vec3 axis(a[0], a[1], a[2]);
    if (!(axis.norm() > 1e-12)) value.fail("the rotation axis must not be the zero vector");
    return Quat(Eigen::AngleAxisd(a[3], axis.normalized()));
  }
  if (kind == "rpy") {  // R = Rz(yaw) Ry(pitch) Rx(roll), radians
    const auto a = value.numbers(3);
    return Quat(Eigen::AngleAxisd(a[2], Vec3::UnitZ()) * Eigen::AngleAxisd(a[1], Vec3::UnitY()) *
                Eigen::AngleAxisd(a[0], Vec3::UnitX()));
  }
  value.fail("unknown orientation form '" + kind + "' (expected quaternion, axis_angle or rpy)");
}

Mat3 parse_inertia(const Field& f, Dimension dimension) {
  Mat3 inertia = Mat3::Zero();
  if (dimension == Dimension::Planar) {  // Izz about the centre of mass
    inertia(2, 2) = f.positive();
    return inertia;
  }
  const auto rows = f.items(3);
  if (!rows[0].is_sequence()) {  // [Ixx, Iyy, Izz]: principal moments along the shape axes
    for (int i = 0; i < 3; ++i) inertia(i, i) = rows[i].positive();
    return inertia;
  }
  for (int i = 0; i < 3; ++i) {
    const auto row = rows[i].numbers(3);
    for (int j = 0; j < 3; ++j) inertia(i, j) = row[j];
  }
  const double scale = inertia.cwiseAbs().maxCoeff();
  if ((inertia - inertia.transpose()).cwiseAbs().maxCoeff() > 1e-9 * scale)
    f.fail("an inertia matrix must be symmetric");
  inertia = 0.5 * (inertia + inertia.transpose());
  const Eigen::SelfAdjointEigenSolver<Mat3> eig(inertia, Eigen::EigenvaluesOnly);
  if (!(eig.eigenvalues().minCoeff() > 0.0))
    f.fail("an inertia matrix must be positive definite (smallest eigenvalue " +
           std::to_string(eig.eigenvalues().minCoeff()) + ")");
  return inertia;
}

void parse_bodies(const Field& bodies, const ShapeLibrary& shapes, Model& model, State& state,
                  std::vector<Vec3>* shape_origins) {
  const auto list = bodies.items();
  if (list.empty()) bodies.fail("a scene needs at least one body");
  if (list.size() > scene_limits::kMaxBodies)
    bodies.fail(std::to_string(list.size()) + " bodies, more than the limit of " +
                std::to_string(scene_limits::kMaxBodies));
  std::map<std::string, int> name_lines;
  std::vector<Vec3> origins(list.size(), Vec3::Zero());
  for (std::size_t i = 0; i < list.size(); ++i)
    parse_body(list[i], i, shapes, model, state, name_lines, origins[i]);
  if (shape_origins) *shape_origins = std::move(origins);
}

}  // namespace pegsim::scene_detail
