// Convex polygons in the plane (thesis section 3.5): edge normals, checks with
// messages that name the defect, primitives, and the convex hull of a point
// set (Andrew's monotone chain).
#include "geometry/polygon.hpp"

#include "geometry/shape.hpp"

#include <algorithm>
#include <cmath>
#include <numbers>
#include <string>

namespace pegsim {

namespace {

// Sine of the smallest corner turn accepted; below it a corner is collinear.
constexpr double kTurnTol = 1e-12;

[[noreturn]] void fail(const std::string& what) { throw GeometryError("polygon: " + what); }

std::string str(int i) { return std::to_string(i); }

// Signed sine of the turn at corner k of the loop: > 0 left (convex, CCW),
// 0 straight, < 0 right (reflex).
double corner_turn(const std::vector<Vec2>& v, int k) {
  const int n = static_cast<int>(v.size());
  const Vec2 a = v[k] - v[(k + n - 1) % n];
  const Vec2 b = v[(k + 1) % n] - v[k];
  return cross2(a, b) / (a.norm() * b.norm());
}

}  // namespace

void Polygon::build() {
  const int n = size();
  edge_normals.resize(n);
  // Outward normal of a CCW edge: the edge turned by -pi/2 (perp_cw).
  for (int i = 0; i < n; ++i) edge_normals[i] = perp_cw(vertices[next(i)] - vertices[i]).normalized();
  bounding_radius = 0.0;
  for (const Vec2& v : vertices) bounding_radius = std::max(bounding_radius, v.norm());
}

// Checks in the order that names the real defect: count, finiteness,
// repeated vertices, degenerate area, orientation, then corner by corner, and
// last that the loop winds once (all-left turns can still wind twice).
void Polygon::validate() const {
  const int n = size();
  if (n < 3) fail("needs at least 3 vertices, got " + str(n));
  for (int i = 0; i < n; ++i)
    if (!vertices[i].allFinite()) fail("vertex " + str(i) + " is not finite (NaN or inf)");

  double scale = 0.0;
  for (const Vec2& v : vertices) scale = std::max(scale, (v - vertices[0]).norm());
  const double tol = 1e-12 * scale;
  for (int i = 0; i < n; ++i)
    if ((vertices[next(i)] - vertices[i]).norm() <= tol)
      fail("zero-length edge " + str(i) + " (repeated vertex " + str(next(i)) + ")");
  for (int i = 0; i < n; ++i)
    for (int j = i + 2; j < n; ++j)
      if ((vertices[i] - vertices[j]).norm() <= tol) fail("repeated vertex " + str(j) + " (same as vertex " + str(i) + ")");

  double twice_area = 0.0;
  for (int i = 0; i < n; ++i) twice_area += cross2(vertices[i] - vertices[0], vertices[next(i)] - vertices[0]);
  if (std::abs(twice_area) <= 1e-12 * scale * scale) fail("degenerate: all vertices are collinear");
  if (twice_area < 0.0) fail("vertices are clockwise (must be counter-clockwise)");

  double winding = 0.0;
  for (int i = 0; i < n; ++i) {
    const double turn = corner_turn(vertices, i);
    if (turn < -kTurnTol) fail("polygon is not convex at vertex " + str(i));
    if (turn <= kTurnTol) fail("collinear vertices at vertex " + str(i));
    const Vec2 a = vertices[i] - vertices[prev(i)], b = vertices[next(i)] - vertices[i];
    winding += std::atan2(cross2(a, b), a.dot(b));
  }
  if (winding > 3.0 * std::numbers::pi) fail("polygon is not simple (its boundary winds more than once)");

  if (static_cast<int>(edge_normals.size()) != n) fail("edge normals are stale (call build())");
  for (int i = 0; i < n; ++i)
    if ((edge_normals[i] - perp_cw(vertices[next(i)] - vertices[i]).normalized()).norm() > 1e-9)
      fail("edge normal " + str(i) + " is stale (call build())");
}

void Polygon::translate(const Vec2& offset) {
  for (Vec2& v : vertices) v -= offset;
  bounding_radius = 0.0;
  for (const Vec2& v : vertices) bounding_radius = std::max(bounding_radius, v.norm());
}

Polygon make_polygon(const std::vector<Vec2>& vertices) {
  Polygon p;
  p.vertices = vertices;
  if (p.size() >= 3) p.build();
  p.validate();
  return p;
}

Polygon make_rectangle(double width, double height) {
  if (!(width > 0.0 && height > 0.0) || !std::isfinite(width) || !std::isfinite(height))
    throw GeometryError("make_rectangle: width and height must be positive and finite");
  const double w = 0.5 * width, h = 0.5 * height;
  return make_polygon({{-w, -h}, {w, -h}, {w, h}, {-w, h}});
}

// Vertex i at angle -pi/2 - pi/n + 2 pi i / n: vertices 0 and 1 straddle the
// -y axis, so the polygon rests on a horizontal bottom edge (and n = 4 gives an
// axis-aligned square).
Polygon make_regular_polygon(int sides, double circumradius) {
  if (sides < 3) throw GeometryError("make_regular_polygon: needs at least 3 sides, got " + str(sides));
  if (!(circumradius > 0.0) || !std::isfinite(circumradius))
    throw GeometryError("make_regular_polygon: circumradius must be positive and finite");
  std::vector<Vec2> v;
  for (int i = 0; i < sides; ++i) {
    const double a = -0.5 * std::numbers::pi - std::numbers::pi / sides + 2.0 * std::numbers::pi * i / sides;
    v.emplace_back(circumradius * std::cos(a), circumradius * std::sin(a));
  }
  return make_polygon(v);
}

// Andrew's monotone chain: sort by (x, y), build the lower then the upper
// chain, popping every point that does not turn strictly left (so collinear
// points are dropped, within kTurnTol). The result starts at the lowest-x
// (then lowest-y) point and runs counter-clockwise.
Polygon polygon_hull(const std::vector<Vec2>& points) {
  for (std::size_t i = 0; i < points.size(); ++i)
    if (!points[i].allFinite()) fail("point " + str(static_cast<int>(i)) + " is not finite (NaN or inf)");
  std::vector<Vec2> pts = points;
  std::sort(pts.begin(), pts.end(),
            [](const Vec2& a, const Vec2& b) { return a.x() < b.x() || (a.x() == b.x() && a.y() < b.y()); });
  pts.erase(std::unique(pts.begin(), pts.end()), pts.end());
  if (pts.size() < 3) fail("hull of " + str(static_cast<int>(pts.size())) + " distinct points is degenerate");

  auto turns_left = [](const Vec2& o, const Vec2& a, const Vec2& b) {
    const Vec2 u = a - o, w = b - a;
    return cross2(u, w) > kTurnTol * u.norm() * w.norm();
  };
  std::vector<Vec2> hull;
  for (int pass = 0; pass < 2; ++pass) {
    const std::size_t base = hull.size();
    for (std::size_t k = 0; k < pts.size(); ++k) {
      const Vec2& p = pass == 0 ? pts[k] : pts[pts.size() - 1 - k];
      while (hull.size() >= base + 2 && !turns_left(hull[hull.size() - 2], hull.back(), p)) hull.pop_back();
      hull.push_back(p);
    }
    hull.pop_back();  // the chain's last point starts the other chain
  }
  if (hull.size() < 3) fail("degenerate: all points are collinear");
  return make_polygon(hull);
}

}  // namespace pegsim
