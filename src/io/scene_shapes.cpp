// shapes: named, reusable shapes, and the inline shape maps of bodies
// (docs/scene-format.md, "shapes"). Every shape is a map with exactly one key,
// its kind, e.g. {box: [1, 2, 0.5]} or {regular_polygon: {sides: 6, radius: 1}}.
// Shapes are built in their own frame; the body that uses one centres it.
#include "io/scene_parts.hpp"

#include "geometry/shape.hpp"
#include "io/scene_limits.hpp"

#include <array>
#include <exception>
#include <string_view>

namespace pegsim::scene_detail {

namespace {

// geometry's reason without its leading "function_name: "
std::string reason(const char* message) {
  const std::string m = message;
  const std::size_t colon = m.find(": ");
  const bool prefixed = colon != std::string::npos && colon > 0 &&
                        m.find_first_of(" \t") > colon;  // one word before the colon
  return prefixed ? m.substr(colon + 2) : m;
}

// geometry's constructors throw GeometryError; report it at the shape's field
template <class Build>
Shape checked(const Field& f, const char* what, Build&& build) {
  try {
    return build();
  } catch (const SceneError&) {
    throw;
  } catch (const std::exception& e) {
    f.fail(std::string("invalid ") + what + ": " + reason(e.what()));
  }
}

using scene_limits::kMaxLength;

Vec3 positive_vec3(const Field& f) {
  const auto items = f.items(3);
  return Vec3(length(items[0]), length(items[1]), length(items[2]));
}

// a shape's point list: at most kMaxShapePoints points, each within kMaxLength of the origin
std::vector<Field> point_items(const Field& f) {
  std::vector<Field> items = f.items();
  if (items.size() > scene_limits::kMaxShapePoints)
    f.fail(std::to_string(items.size()) + " points, more than the limit of " +
           std::to_string(scene_limits::kMaxShapePoints));
  return items;
}

std::vector<Vec3> points_3d(const Field& f) {
  std::vector<Vec3> out;
  for (const Field& p : point_items(f)) out.push_back(within(p, p.vec3(), kMaxLength, "m"));
  return out;
}

std::vector<Vec2> points_2d(const Field& f) {
  std::vector<Vec2> out;
  for (const Field& p : point_items(f)) {
    const Vec2 v = p.vec2();
    within(p, lift(v), kMaxLength, "m");
    out.push_back(v);
  }
  return out;
}

// sides of a regular polygon or prism
int sides_of(const Field& f) {
  const int sides = f.integer_at_least(3);
  if (sides > scene_limits::kMaxPolygonSides)
    f.fail("must be at most " + std::to_string(scene_limits::kMaxPolygonSides) +
           " (then within 7.5e-5 of the circle; disc and cylinder are exact), got " + f.describe());
  return sides;
}

Shape half_space(const Field& f, Dimension dimension) {
  f.expect_keys({"normal", "offset"});
  const Field normal_field = f.require("normal");
  HalfSpace hs;
  const Vec3 normal =
      dimension == Dimension::Planar ? lift(normal_field.vec2()) : normal_field.vec3();
  if (!(normal.norm() > 1e-12)) normal_field.fail("must not be the zero vector");
  hs.normal = normal.normalized();
  if (Field offset = f["offset"]; offset.present()) hs.offset = within(offset, offset.number(), kMaxLength, "m");
  return hs;
}

Shape polyhedron_with_faces(const Field& f) {
  f.expect_keys({"vertices", "faces"});
  const std::vector<Vec3> vertices = points_3d(f.require("vertices"));
  std::vector<std::vector<int>> faces;
  const Field faces_field = f.require("faces");
  const std::vector<Field> face_items = faces_field.items();
  if (face_items.size() > 2 * scene_limits::kMaxShapePoints)
    faces_field.fail(std::to_string(face_items.size()) + " faces, more than the limit of " +
                     std::to_string(2 * scene_limits::kMaxShapePoints));
  for (const Field& face : face_items) {
    std::vector<int> loop;
    for (const Field& index : face.items()) {
      const int i = index.integer();
      if (i < 0 || i >= static_cast<int>(vertices.size()))
        index.fail("vertex index out of range (0.." + std::to_string(vertices.size() - 1) +
                   "), got " + index.describe());
      loop.push_back(i);
    }
    if (loop.size() < 3) face.fail("a face needs at least 3 vertices");
    faces.push_back(std::move(loop));
  }
  return checked(f, "polyhedron", [&] { return Shape(polyhedron_from_faces(vertices, faces)); });
}

// {compound: [{part: SHAPE, offset: [x, y(, z)]}, ...]}: a non-convex body as a
// union of overlapping convex parts (thesis 4.5); each part is any convex
// shape map, moved by its offset (default 0) into the compound's frame.
Shape compound(const Field& f, Dimension dimension) {
  const bool planar = dimension == Dimension::Planar;
  std::vector<Shape> parts;
  for (const Field& item : f.items()) {
    item.expect_keys({"part", "offset"});
    const Field spec = item.require("part");
    Shape part = parse_shape(spec, dimension);
    if (is_half_space(part) || is_compound(part))
      spec.fail("a compound's part must be a convex polygon or polyhedron");
    if (const Field offset = item["offset"]; offset.present()) {
      const Vec3 d = within(offset, planar ? lift(offset.vec2()) : offset.vec3(), kMaxLength, "m");
      translate_shape(part, -d);
    }
    parts.push_back(std::move(part));
  }
  return checked(f, "compound", [&] { return Shape(make_compound(std::move(parts))); });
}

// a regular solid given by its edge length
Shape edge_solid(const Field& f, const char* what, Polyhedron (*make)(double)) {
  return checked(f, what, [&] { return Shape(make(length(f))); });
}

Shape box(const Field& f, Dimension) {
  return checked(f, "box", [&] { return Shape(make_box(positive_vec3(f))); });
}

Shape prism(const Field& f, Dimension) {
  f.expect_keys({"sides", "radius", "height"});
  const int sides = sides_of(f.require("sides"));
  const double radius = length(f.require("radius"));
  const double height = length(f.require("height"));
  return checked(f, "prism", [&] { return Shape(make_prism(sides, radius, height)); });
}

Shape polygon(const Field& f, Dimension) {
  return checked(f, "polygon", [&] { return Shape(make_polygon(points_2d(f))); });
}

Shape rectangle(const Field& f, Dimension) {
  const auto wh = f.items(2);
  const double w = length(wh[0]), h = length(wh[1]);
  return checked(f, "rectangle", [&] { return Shape(make_rectangle(w, h)); });
}

Shape regular_polygon(const Field& f, Dimension) {
  f.expect_keys({"sides", "radius"});
  const int sides = sides_of(f.require("sides"));
  const double radius = length(f.require("radius"));
  return checked(f, "regular polygon", [&] { return Shape(make_regular_polygon(sides, radius)); });
}

Shape hull(const Field& f, Dimension dimension) {
  if (dimension == Dimension::Planar) return checked(f, "hull", [&] { return Shape(polygon_hull(points_2d(f))); });
  return checked(f, "hull", [&] { return Shape(polyhedron_from_points(points_3d(f))); });
}

// Curved kinds (geometry/curved.hpp): maps of their dimensions.
Shape sphere(const Field& f, Dimension) {
  f.expect_keys({"radius"});
  const double r = length(f.require("radius"));
  return checked(f, "sphere", [&] { return Shape(make_sphere(r)); });
}
Shape disc(const Field& f, Dimension) {
  f.expect_keys({"radius"});
  const double r = length(f.require("radius"));
  return checked(f, "disc", [&] { return Shape(make_disc(r)); });
}
// {capsule: {radius: r, length: l}}: along body z (3D) or body x (2D)
Shape capsule(const Field& f, Dimension dimension) {
  f.expect_keys({"radius", "length"});
  const double r = length(f.require("radius"));
  const Field length_field = f.require("length");
  const double l = within(length_field, length_field.number(), kMaxLength, "m");
  if (!(l >= 0.0)) length_field.fail("must be >= 0, got " + length_field.describe());
  if (dimension == Dimension::Planar) return checked(f, "capsule", [&] { return Shape(make_capsule_2d(r, l)); });
  return checked(f, "capsule", [&] { return Shape(make_capsule(r, l)); });
}
template <class K, K (*make)(double, double)>
Shape round_solid(const Field& f, Dimension) {
  f.expect_keys({"radius", "height"});
  const double r = length(f.require("radius"));
  const double h = length(f.require("height"));
  return checked(f, K::kind_info.name, [&] { return Shape(make(r, h)); });
}

// The shape maps a scene file takes: each shape kind under its registry name
// (geometry/shape.hpp), and the constructors of common shapes, each with the
// dimension of the kind it builds.
struct Constructor {
  const char* name;
  ShapeDims dims;
  Shape (*build)(const Field&, Dimension);
};
constexpr ShapeDims kSolid = Polyhedron::kind_info.dims, kLamina = Polygon::kind_info.dims;
constexpr std::array<Constructor, 21> kConstructors = {{
    {"box", kSolid, box},
    {"cube", kSolid, [](const Field& f, Dimension) { return edge_solid(f, "cube", make_cube); }},
    {"tetrahedron", kSolid, [](const Field& f, Dimension) { return edge_solid(f, "tetrahedron", make_tetrahedron); }},
    {"octahedron", kSolid, [](const Field& f, Dimension) { return edge_solid(f, "octahedron", make_octahedron); }},
    {"dodecahedron", kSolid, [](const Field& f, Dimension) { return edge_solid(f, "dodecahedron", make_dodecahedron); }},
    {"icosahedron", kSolid, [](const Field& f, Dimension) { return edge_solid(f, "icosahedron", make_icosahedron); }},
    {"prism", kSolid, prism},
    {Polyhedron::kind_info.name, kSolid, [](const Field& f, Dimension) { return polyhedron_with_faces(f); }},
    {Polygon::kind_info.name, kLamina, polygon},
    {"rectangle", kLamina, rectangle},
    {"regular_polygon", kLamina, regular_polygon},
    {"half_plane", ShapeDims::Planar, half_space},  // the 2D name of a half-space
    {"hull", ShapeDims::Both, hull},
    {HalfSpace::kind_info.name, HalfSpace::kind_info.dims, half_space},
    {Compound::kind_info.name, Compound::kind_info.dims, compound},
    {Sphere::kind_info.name, Sphere::kind_info.dims, sphere},
    {"capsule", ShapeDims::Both, capsule},  // kinds capsule (3D) and capsule_2d (2D)
    {Capsule2d::kind_info.name, Capsule2d::kind_info.dims, capsule},
    {Cylinder::kind_info.name, Cylinder::kind_info.dims, round_solid<Cylinder, make_cylinder>},
    {Cone::kind_info.name, Cone::kind_info.dims, round_solid<Cone, make_cone>},
    {Disc::kind_info.name, Disc::kind_info.dims, disc},
}};

std::string kinds_of(Dimension scene) {
  std::string out;
  for (const Constructor& k : kConstructors)
    if (fits(k.dims, scene)) out += (out.empty() ? "" : ", ") + std::string(k.name);
  return out;
}

}  // namespace

Shape parse_shape(const Field& spec, Dimension dimension) {
  const bool planar = dimension == Dimension::Planar;
  if (!spec.is_map())
    spec.fail("expected a shape map such as {" + std::string(planar ? "rectangle: [1, 2]" : "box: [1, 2, 3]") +
              "}, got " + spec.describe());
  const auto entries = spec.entries();
  if (entries.size() != 1)
    spec.fail("a shape map has exactly one key, its kind (one of: " + kinds_of(dimension) + "), got " +
              std::to_string(entries.size()));
  const auto& [name, value] = entries.front();
  for (const Constructor& k : kConstructors) {
    if (k.name != name) continue;
    if (!fits(k.dims, dimension))
      value.fail(std::string(planar ? "3D shape in a 2D scene" : "2D shape in a 3D scene") +
                 " (shapes of this dimension: " + kinds_of(dimension) + ")");
    return k.build(value, dimension);
  }
  value.fail("unknown shape kind '" + name + "' (expected one of: " + kinds_of(dimension) + ")");
}

ShapeLibrary parse_shape_library(const Field& shapes, Dimension dimension) {
  ShapeLibrary out;
  if (!shapes.present()) return out;
  for (const auto& [name, spec] : shapes.entries("shape name"))
    out.emplace(name, NamedShape{parse_shape(spec, dimension), spec.line()});
  return out;
}

}  // namespace pegsim::scene_detail
