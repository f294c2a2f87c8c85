#include "body_builder.hpp"

#include "geometry/mass_properties.hpp"

#include <Eigen/Eigenvalues>

#include <cmath>
#include <stdexcept>

namespace pegsim::python {

MaterialId material_named(const Model& model, const std::string& name) {
  std::string known;
  for (std::size_t i = 0; i < model.materials.size(); ++i) {
    if (model.materials[i].name == name) return MaterialId{static_cast<std::uint32_t>(i)};
    known += (known.empty() ? "" : ", ") + model.materials[i].name;
  }
  throw std::invalid_argument("unknown material '" + name + "' (materials: " + known + ")");
}

std::uint32_t add_body(Scene& scene, BodySpec spec) {
  Model& model = scene.model;
  const bool planar = model.options.dimension == Dimension::Planar;
  if (spec.name.empty()) spec.name = "body" + std::to_string(model.bodies.size());
  const std::string where = "add_body '" + spec.name + "': ";
  auto fail = [&](const std::string& what) { throw std::invalid_argument(where + what); };
  for (const BodyModel& b : model.bodies)
    if (b.name == spec.name) fail("duplicate body name");

  // shape of the scene's dimension; a half-space belongs to a static body
  const bool half_space = is_half_space(spec.shape);
  const Shape& first = part_of(spec.shape, 0);  // a compound's parts are all of one kind
  if (!fits(kind_info(first).dims, model.options.dimension))
    fail(std::string("a ") + shape_kind_name(first) + (planar ? " in a 2D scene (use polygon, rectangle, ...)"
                                                              : " in a 3D scene (use box, polyhedron, ...)"));
  if (half_space && !spec.is_static) fail("a half-space can only belong to a static body (static=True)");
  if (half_space && spec.is_kinematic) fail("a half-space cannot move: a kinematic body needs a bounded shape");
  if (planar && half_space && std::get<HalfSpace>(spec.shape).normal.z() != 0.0)
    fail("a 2D half-plane's normal is (x, y)");

  // pose and velocities: finite; planar bodies stay in the z = 0 plane
  if (!spec.position.allFinite() || !spec.velocity.allFinite() || !spec.angular_velocity.allFinite() ||
      !std::isfinite(spec.theta) || !spec.orientation.coeffs().allFinite())
    fail("position, orientation and velocities must be finite");
  if (planar && (spec.position.z() != 0.0 || spec.velocity.z() != 0.0 || spec.angular_velocity.x() != 0.0 ||
                 spec.angular_velocity.y() != 0.0))
    fail("a 2D body moves in the plane: position and velocity (x, y), angular velocity about z only");
  const double qn = spec.orientation.norm();
  if (!planar && std::abs(qn - 1.0) > 1e-6)
    fail("orientation must be a unit quaternion (w, x, y, z) (|q| = " + std::to_string(qn) + ", allowed 1 +- 1e-6)");
  const Quat rotation = planar ? Quat(Eigen::AngleAxisd(spec.theta, Vec3::UnitZ())) : spec.orientation.normalized();
  if (spec.is_static && !spec.is_kinematic && (spec.velocity.norm() > 0.0 || spec.angular_velocity.norm() > 0.0))
    fail("a static body does not move: give it no velocity (or kinematic=True: moved at that velocity)");

  // mass properties; the body frame moves to the centroid
  BodyModel body;
  body.name = spec.name;
  body.is_static = spec.is_static;
  body.is_kinematic = spec.is_kinematic;
  body.material = material_named(model, spec.material);
  Vec3 position = spec.position;
  if (half_space) {
    if (spec.mass || spec.density || spec.inertia) fail("a half-space has no mass properties");
  } else {
    if (spec.mass && spec.density) fail("give either mass or density, not both");
    if (spec.inertia && !spec.mass) fail("inertia goes with mass (with density it is computed from the shape)");
    if (!spec.is_static && !spec.mass && !spec.density) fail("a dynamic body needs mass or density (or static=True)");
    if (spec.mass && !(*spec.mass > 0.0 && std::isfinite(*spec.mass)))
      fail("mass must be positive, got " + std::to_string(*spec.mass));
    if (spec.density && !(*spec.density > 0.0 && std::isfinite(*spec.density)))
      fail("density must be positive, got " + std::to_string(*spec.density));
    const double rho = spec.density.value_or(1.0);
    const MassProperties mp = mass_properties(spec.shape, rho);
    if (!(mp.mass > 0.0) || !std::isfinite(mp.mass)) fail("the shape has no volume");
    if (spec.mass) {
      body.mass = *spec.mass;
      body.inertia = spec.inertia ? *spec.inertia : Mat3(mp.inertia * (body.mass / mp.mass));
    } else if (spec.density) {
      body.mass = mp.mass;
      body.inertia = mp.inertia;
    }
    if (spec.inertia) {
      const Mat3& j = *spec.inertia;
      const bool symmetric = (j - j.transpose()).cwiseAbs().maxCoeff() <= 1e-9 * j.cwiseAbs().maxCoeff();
      const bool ok = planar ? j(2, 2) > 0.0
                             : symmetric && Eigen::SelfAdjointEigenSolver<Mat3>(j, Eigen::EigenvaluesOnly)
                                                    .eigenvalues()
                                                    .minCoeff() > 0.0;
      if (!ok) fail(planar ? "inertia (Izz) must be positive" : "inertia must be symmetric positive definite");
    }
    Vec3 centroid = mp.centre_of_mass;
    if (planar) centroid.z() = 0.0;
    translate_shape(spec.shape, centroid);
    position += rotation * centroid;
  }
  body.shape = std::move(spec.shape);

  BodyState s;
  s.pose.position = position;
  s.pose.orientation = rotation;
  s.linear_velocity = spec.velocity;
  s.angular_velocity = spec.angular_velocity;
  const BodyId id = model.add_body(std::move(body));
  scene.state.bodies.push_back(s);
  return id.index;
}

}  // namespace pegsim::python
