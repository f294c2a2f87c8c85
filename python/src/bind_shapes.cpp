// Shapes: pegsim.box(...), pegsim.polygon(...), ... return a Shape in its own
// frame; Scene.add_body places it (the body frame moves to the centroid, as in
// scene files: docs/scene-format.md, "bodies").
#include "bindings.hpp"

#include "geometry/shape.hpp"

#include <pybind11/stl.h>

#include <cmath>
#include <optional>
#include <stdexcept>

namespace pegsim::python {
namespace {

std::vector<Vec3> points_3d(py::handle value, const char* what) {
  std::vector<Vec3> out;
  for (const auto& row : table_from(value, -1, 3, what)) out.emplace_back(row[0], row[1], row[2]);
  return out;
}

std::vector<Vec2> points_2d(py::handle value, const char* what) {
  std::vector<Vec2> out;
  for (const auto& row : table_from(value, -1, 2, what)) out.emplace_back(row[0], row[1]);
  return out;
}

// geometry errors name the shape constructor the user called
template <class Build>
ShapeHandle checked(const char* name, Build&& build) {
  try {
    return ShapeHandle{Shape(build())};
  } catch (const std::exception& e) {
    throw GeometryError(std::string("pegsim.") + name + ": " + e.what());
  }
}

double positive(double x, const char* name, const char* field) {
  if (!(x > 0.0))
    throw std::invalid_argument(std::string("pegsim.") + name + ": " + field + " must be positive, got " +
                                std::to_string(x));
  return x;
}

py::object vertices_of(const ShapeHandle& h) {
  const Shape& s = h.shape;
  if (const auto* p = std::get_if<Polyhedron>(&s)) return rows_of(p->vertices);
  if (const auto* p = std::get_if<Polygon>(&s)) return rows_of(p->vertices);
  return py::none();
}

}  // namespace

const char* shape_kind(const Shape& s) { return shape_kind_name(s); }

void bind_shapes(py::module_& m) {
  // the shape kinds' names, from the registry (geometry/shape.hpp)
  py::tuple kinds(kShapeKindCount);
  for (std::size_t i = 0; i < kShapeKindCount; ++i) kinds[i] = kShapeKinds[i].name;
  m.attr("shape_kinds") = kinds;
  py::class_<ShapeHandle>(m, "Shape", "A shape in its own frame: a polytope, a curved shape (sphere, capsule, ...), a compound or a half-space.")
      .def_property_readonly("kind", [](const ShapeHandle& s) { return shape_kind(s.shape); },
                             "the shape's kind: one of pegsim.shape_kinds")
      .def_property_readonly("vertices", &vertices_of, "(k, 3) or (k, 2) array; None for a half-space or a curved shape")
      .def("__repr__", [](const ShapeHandle& s) {
        const py::object v = vertices_of(s);
        return std::string("<pegsim.Shape ") + shape_kind(s.shape) +
               (v.is_none() ? "" : ", " + std::to_string(py::len(v)) + " vertices") + ">";
      });

  // solids (3D scenes)
  m.def("box", [](py::handle size) {
    const Vec3 s = vec3_from(size, "pegsim.box: size");
    return checked("box", [&] { return make_box(s); });
  }, py::arg("size"), "a box with full side lengths size = (x, y, z), centred at the origin");
  m.def("cube", [](double edge) { return checked("cube", [&] { return make_cube(positive(edge, "cube", "edge")); }); },
        py::arg("edge"));
  m.def("tetrahedron", [](double edge) {
    return checked("tetrahedron", [&] { return make_tetrahedron(positive(edge, "tetrahedron", "edge")); });
  }, py::arg("edge"), "a regular tetrahedron");
  m.def("octahedron", [](double edge) {
    return checked("octahedron", [&] { return make_octahedron(positive(edge, "octahedron", "edge")); });
  }, py::arg("edge"));
  m.def("dodecahedron", [](double edge) {
    return checked("dodecahedron", [&] { return make_dodecahedron(positive(edge, "dodecahedron", "edge")); });
  }, py::arg("edge"));
  m.def("icosahedron", [](double edge) {
    return checked("icosahedron", [&] { return make_icosahedron(positive(edge, "icosahedron", "edge")); });
  }, py::arg("edge"));
  m.def("prism", [](int sides, double radius, double height) {
    if (sides < 3) throw std::invalid_argument("pegsim.prism: sides must be at least 3, got " + std::to_string(sides));
    return checked("prism", [&] {
      return make_prism(sides, positive(radius, "prism", "radius"), positive(height, "prism", "height"));
    });
  }, py::arg("sides"), py::arg("radius"), py::arg("height"), "an n-gon prism along z (circumradius, height)");
  m.def("polyhedron", [](py::handle vertices, std::optional<std::vector<std::vector<int>>> faces) {
    const std::vector<Vec3> points = points_3d(vertices, "pegsim.polyhedron: vertices");
    if (!faces) return checked("polyhedron", [&] { return polyhedron_from_points(points); });
    for (const auto& loop : *faces)
      for (int i : loop)
        if (i < 0 || i >= static_cast<int>(points.size()))
          throw std::invalid_argument("pegsim.polyhedron: face vertex index " + std::to_string(i) +
                                      " out of range (0.." + std::to_string(points.size() - 1) + ")");
    return checked("polyhedron", [&] { return polyhedron_from_faces(points, *faces); });
  }, py::arg("vertices"), py::arg("faces") = py::none(),
     "the convex hull of (k, 3) vertices; with faces (vertex loops, counter-clockwise seen from outside), "
     "that polyhedron, checked convex and closed");

  // laminae (2D scenes)
  m.def("polygon", [](py::handle vertices) {
    const std::vector<Vec2> points = points_2d(vertices, "pegsim.polygon: vertices");
    return checked("polygon", [&] { return make_polygon(points); });
  }, py::arg("vertices"), "a convex polygon from (k, 2) vertices, counter-clockwise");
  m.def("rectangle", [](double width, double height) {
    return checked("rectangle", [&] {
      return make_rectangle(positive(width, "rectangle", "width"), positive(height, "rectangle", "height"));
    });
  }, py::arg("width"), py::arg("height"));
  m.def("regular_polygon", [](int sides, double radius) {
    if (sides < 3)
      throw std::invalid_argument("pegsim.regular_polygon: sides must be at least 3, got " + std::to_string(sides));
    return checked("regular_polygon", [&] { return make_regular_polygon(sides, positive(radius, "regular_polygon", "radius")); });
  }, py::arg("sides"), py::arg("radius"), "circumradius");

  // curved shapes (geometry/curved.hpp): true smooth geometry
  m.def("sphere", [](double radius) { return checked("sphere", [&] { return make_sphere(radius); }); },
        py::arg("radius"), "a solid ball (3D scenes)");
  m.def("capsule", [](double radius, double length, bool planar) {
    if (planar) return checked("capsule", [&] { return make_capsule_2d(radius, length); });
    return checked("capsule", [&] { return make_capsule(radius, length); });
  }, py::arg("radius"), py::arg("length"), py::arg("planar") = false,
     "the points within radius of a segment of the given length along z (3D) or, planar=True, along x (2D)");
  m.def("cylinder", [](double radius, double height) {
    return checked("cylinder", [&] { return make_cylinder(radius, height); });
  }, py::arg("radius"), py::arg("height"), "a solid cylinder along z, centred at the origin (3D scenes)");
  m.def("cone", [](double radius, double height) { return checked("cone", [&] { return make_cone(radius, height); }); },
        py::arg("radius"), py::arg("height"), "a solid cone: base disc about the origin in z = 0, apex at height (3D)");
  m.def("disc", [](double radius) { return checked("disc", [&] { return make_disc(radius); }); }, py::arg("radius"),
        "a disc (2D scenes)");

  // non-convex bodies (thesis 4.5): a union of overlapping convex parts
  m.def("compound", [](const std::vector<std::pair<ShapeHandle, py::object>>& parts) {
    std::vector<Shape> shapes;
    for (const auto& [part, offset] : parts) {
      Shape s = part.shape;
      if (!offset.is_none()) translate_shape(s, -vec3_from(offset, "pegsim.compound: offset", true));
      shapes.push_back(std::move(s));
    }
    return checked("compound", [&] { return make_compound(std::move(shapes)); });
  }, py::arg("parts"),
     "a non-convex shape as the union of convex parts: [(shape, offset or None), ...]; let neighbouring parts "
     "overlap (docs/scene-format.md)");

  // either dimension; static bodies only
  m.def("half_space", [](py::handle normal, double offset) {
    const Vec3 n = vec3_from(normal, "pegsim.half_space: normal", true);
    if (!(n.norm() > 1e-12) || !n.allFinite())
      throw std::invalid_argument("pegsim.half_space: normal must be a non-zero finite vector");
    if (!std::isfinite(offset)) throw std::invalid_argument("pegsim.half_space: offset must be finite");
    return ShapeHandle{Shape(HalfSpace{n.normalized(), offset})};
  }, py::arg("normal") = py::make_tuple(0.0, 0.0, 1.0), py::arg("offset") = 0.0,
     "the solid {p : normal . p <= offset} (a ground plane; 2D: normal (x, y)); static bodies only");
}

}  // namespace pegsim::python
