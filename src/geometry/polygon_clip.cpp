// Sutherland-Hodgman clipping of a convex polygon by one half-plane, and the
// shoelace area and centroid (see clipping.hpp for the tolerance).
#include "geometry/clipping.hpp"

#include <algorithm>
#include <cmath>

namespace pegsim {
namespace {

// The magnitude of the coordinates of a loop: its extent plus the distance of
// its first vertex from the origin (bounds every |x|, the scale of round-off
// in n . x - offset).
double loop_scale(const std::vector<Vec2>& loop) {
  double extent = 0.0;
  for (const Vec2& p : loop) extent = std::max(extent, (p - loop[0]).cwiseAbs().maxCoeff());
  return extent + loop[0].cwiseAbs().maxCoeff();
}

// The point where segment p -> q crosses the line, computed from the
// lexicographically smaller end point so that the two loops sharing an edge
// (or the same edge walked either way) get the same bits.
Vec2 crossing(const Vec2& p, double dp, const Vec2& q, double dq) {
  const bool swap = q.x() < p.x() || (q.x() == p.x() && q.y() < p.y());
  const Vec2& a = swap ? q : p;
  const Vec2& b = swap ? p : q;
  const double da = swap ? dq : dp, db = swap ? dp : dq;
  return a + (da / (da - db)) * (b - a);
}

}  // namespace

void clip_polygon(const std::vector<Vec2>& in, const Vec2& n, double offset, std::vector<Vec2>& out) {
  out.clear();
  const std::size_t m = in.size();
  if (m == 0) return;
  const double tol = kClipTolerance * loop_scale(in) * n.norm();
  thread_local std::vector<double> d;
  d.resize(m);
  double lo = 0.0, hi = 0.0;
  for (std::size_t i = 0; i < m; ++i) {
    d[i] = n.dot(in[i]) - offset;
    if (!std::isfinite(d[i])) return;  // a non-finite input has no region to keep
    lo = i == 0 ? d[i] : std::min(lo, d[i]);
    hi = i == 0 ? d[i] : std::max(hi, d[i]);
  }
  if (hi <= tol) {  // nothing strictly outside
    out = in;
    return;
  }
  if (!(lo < -tol)) return;  // nothing strictly inside: at most a touching edge
  for (std::size_t i = 0; i < m; ++i) {
    const std::size_t j = (i + 1) % m;
    if (d[i] <= tol) out.push_back(in[i]);
    // a strict crossing only: a vertex on the line is itself the crossing
    if ((d[i] < -tol && d[j] > tol) || (d[i] > tol && d[j] < -tol)) out.push_back(crossing(in[i], d[i], in[j], d[j]));
  }
}

double polygon_area(const std::vector<Vec2>& loop) {
  const std::size_t m = loop.size();
  if (m < 3) return 0.0;
  double twice = 0.0;
  for (std::size_t i = 1; i + 1 < m; ++i) twice += cross2(loop[i] - loop[0], loop[i + 1] - loop[0]);
  return 0.5 * twice;
}

Vec2 polygon_centroid(const std::vector<Vec2>& loop) {
  const std::size_t m = loop.size();
  if (m == 0) return Vec2::Zero();
  Vec2 mean = Vec2::Zero();
  for (const Vec2& p : loop) mean += p;
  mean /= static_cast<double>(m);
  // fan triangles about the first vertex: sum of area * (triangle centroid)
  double twice = 0.0;
  Vec2 moment = Vec2::Zero();
  for (std::size_t i = 1; i + 1 < m; ++i) {
    const Vec2 a = loop[i] - loop[0], b = loop[i + 1] - loop[0];
    const double t = cross2(a, b);
    twice += t;
    moment += t * (a + b);
  }
  if (!(std::abs(twice) > 0.0)) return mean;
  const Vec2 c = loop[0] + moment / (3.0 * twice);
  return c.allFinite() ? c : mean;
}

std::vector<Vec2> world_loop(const Polygon& p, const Pose& pose) {
  std::vector<Vec2> out;
  out.reserve(p.vertices.size());
  for (const Vec2& v : p.vertices) out.push_back(pose.to_world_2d(v));
  return out;
}

}  // namespace pegsim
