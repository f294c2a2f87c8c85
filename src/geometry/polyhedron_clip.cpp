// Clipping a closed convex face list by a plane, its volume and centroid
// (see clipping.hpp for the method and the tolerance).
//
// Each face loop is clipped like a polygon (Sutherland-Hodgman); the points
// left in the plane (crossings and vertices on it) are the boundary of the
// cut, closed by a cap face: their convex hull in the plane, ordered
// counter-clockwise seen from +n, the cap's outward side. Taking the hull
// rather than chaining the faces' cut segments makes the cap indifferent to
// repeated points (a vertex on the plane is reported by every face around it)
// and to the order of the faces.
#include "geometry/clipping.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace pegsim {
namespace {

double cell_scale(const ConvexCell& cell) {
  const Vec3& p0 = cell.faces.front().front();
  double extent = 0.0;
  for (const auto& f : cell.faces)
    for (const Vec3& p : f) extent = std::max(extent, (p - p0).cwiseAbs().maxCoeff());
  return extent + p0.cwiseAbs().maxCoeff();
}

bool lex_less(const Vec3& a, const Vec3& b) {
  if (a.x() != b.x()) return a.x() < b.x();
  if (a.y() != b.y()) return a.y() < b.y();
  return a.z() < b.z();
}

// Crossing of segment p -> q with the plane, computed from the lexicographically
// smaller end so that the two faces sharing the edge get the same point.
Vec3 crossing(const Vec3& p, double dp, const Vec3& q, double dq) {
  const bool swap = lex_less(q, p);
  const Vec3& a = swap ? q : p;
  const Vec3& b = swap ? p : q;
  const double da = swap ? dq : dp, db = swap ? dp : dq;
  return a + (da / (da - db)) * (b - a);
}

// Convex hull (Andrew's monotone chain) of points given by their 2D
// coordinates in the plane; returns indices, counter-clockwise, collinear and
// repeated points dropped.
std::vector<int> hull_2d(const std::vector<Vec2>& q) {
  std::vector<int> order(q.size());
  std::iota(order.begin(), order.end(), 0);
  std::sort(order.begin(), order.end(), [&](int a, int b) {
    if (q[a].x() != q[b].x()) return q[a].x() < q[b].x();
    return q[a].y() < q[b].y();
  });
  if (order.size() < 3) return {};
  std::vector<int> h(2 * order.size());
  std::size_t k = 0;
  const auto turn = [&](int o, int a, int b) { return cross2(q[a] - q[o], q[b] - q[o]); };
  for (int i : order) {  // lower hull
    while (k >= 2 && turn(h[k - 2], h[k - 1], i) <= 0.0) --k;
    h[k++] = i;
  }
  const std::size_t lower = k + 1;
  for (auto it = order.rbegin() + 1; it != order.rend(); ++it) {  // upper hull
    while (k >= lower && turn(h[k - 2], h[k - 1], *it) <= 0.0) --k;
    h[k++] = *it;
  }
  h.resize(k - 1);  // the last point repeats the first
  return h.size() >= 3 ? h : std::vector<int>{};
}

}  // namespace

void ConvexCell::clip(const Vec3& n, double offset) {
  if (faces.empty()) return;
  const double tol = kClipTolerance * cell_scale(*this);
  double lo = 0.0, hi = 0.0;
  bool first = true;
  for (const auto& f : faces)
    for (const Vec3& p : f) {
      const double d = n.dot(p) - offset;
      if (!std::isfinite(d)) {  // a non-finite input has no region to keep
        faces.clear();
        return;
      }
      lo = first ? d : std::min(lo, d);
      hi = first ? d : std::max(hi, d);
      first = false;
    }
  if (hi <= tol) return;  // nothing strictly outside
  if (lo >= -tol) {       // nothing strictly inside: at most a touching face
    faces.clear();
    return;
  }

  std::vector<std::vector<Vec3>> kept;
  kept.reserve(faces.size() + 1);
  std::vector<Vec3> cut;  // points of the cut, in the plane
  std::vector<double> d;
  for (const auto& f : faces) {
    const std::size_t m = f.size();
    d.resize(m);
    for (std::size_t i = 0; i < m; ++i) d[i] = n.dot(f[i]) - offset;
    std::vector<Vec3> out;
    bool off_plane = false;  // a kept vertex strictly inside: the face is not part of the cut
    for (std::size_t i = 0; i < m; ++i) {
      const std::size_t j = (i + 1) % m;
      if (d[i] <= tol) {
        out.push_back(f[i]);
        if (d[i] >= -tol) cut.push_back(f[i]);
        else off_plane = true;
      }
      if ((d[i] < -tol && d[j] > tol) || (d[i] > tol && d[j] < -tol)) {
        out.push_back(crossing(f[i], d[i], f[j], d[j]));
        cut.push_back(out.back());
      }
    }
    // a face reduced to the plane lies under the cap, which replaces it
    if (out.size() >= 3 && off_plane) kept.push_back(std::move(out));
  }

  // the cap: hull of the cut in a basis (u, v) of the plane with u x v = n
  const Vec3 axis = std::abs(n.x()) < 0.6 ? Vec3::UnitX() : Vec3::UnitY();
  const Vec3 u = n.cross(axis).normalized();
  const Vec3 v = n.cross(u);
  std::vector<Vec2> q;
  q.reserve(cut.size());
  for (const Vec3& p : cut) q.emplace_back(u.dot(p - cut.front()), v.dot(p - cut.front()));
  const std::vector<int> hull = cut.size() >= 3 ? hull_2d(q) : std::vector<int>{};
  if (!hull.empty()) {
    std::vector<Vec3> cap;
    cap.reserve(hull.size());
    for (int i : hull) cap.push_back(cut[static_cast<std::size_t>(i)]);
    kept.push_back(std::move(cap));
  }
  if (kept.size() < 4) kept.clear();  // no closed solid is left (flat to round-off)
  faces = std::move(kept);
}

namespace {

// Sum of the signed tetrahedra (r, p0, pk, pk+1) over the fan triangles of the
// faces, and their first moment about r.
void tetrahedra(const ConvexCell& cell, Vec3& r, double& six_volume, Vec3& moment) {
  r.setZero();
  std::size_t count = 0;
  for (const auto& f : cell.faces)
    for (const Vec3& p : f) {
      r += p;
      ++count;
    }
  if (count > 0) r /= static_cast<double>(count);
  six_volume = 0.0;
  moment.setZero();
  for (const auto& f : cell.faces)
    for (std::size_t k = 1; k + 1 < f.size(); ++k) {
      const Vec3 a = f[0] - r, b = f[k] - r, c = f[k + 1] - r;
      const double t = a.dot(b.cross(c));
      six_volume += t;
      moment += t * (a + b + c);
    }
}

}  // namespace

double ConvexCell::volume() const {
  if (faces.empty()) return 0.0;
  Vec3 r, moment;
  double six = 0.0;
  tetrahedra(*this, r, six, moment);
  return six / 6.0;
}

Vec3 ConvexCell::centroid() const {
  if (faces.empty()) return Vec3::Zero();
  Vec3 r, moment;
  double six = 0.0;
  tetrahedra(*this, r, six, moment);
  if (!(std::abs(six) > 0.0)) return r;
  const Vec3 c = r + moment / (4.0 * six);
  return c.allFinite() ? c : r;
}

ConvexCell make_cell(const Polyhedron& p, const Pose& pose) {
  std::vector<Vec3> world;
  world.reserve(p.vertices.size());
  for (const Vec3& v : p.vertices) world.push_back(pose.to_world(v));
  ConvexCell cell;
  cell.faces.reserve(p.faces.size());
  for (const PolyFace& f : p.faces) {
    std::vector<Vec3> loop;
    loop.reserve(f.loop.size());
    for (int i : f.loop) loop.push_back(world[static_cast<std::size_t>(i)]);
    cell.faces.push_back(std::move(loop));
  }
  return cell;
}

}  // namespace pegsim
