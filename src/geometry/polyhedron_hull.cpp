// Convex hull of a point set with qhull, turned into the facet representation
// of thesis section 3.1.
//
// qhull is called through its reentrant C API (libqhull_r): the libqhullcpp
// 8.0 headers do not compile as C++20 under GCC 12 (template-id constructors,
// removed in C++20), and pegsim builds as C++20.
//
// Steps: reject flat / non-finite input; drop near-duplicate points; run qhull
// with pre-merging of coplanar facets ("C-n"), so each qhull facet is already
// a merged convex polygon; order each facet's (unordered) vertices by angle
// about its outward normal; drop points left on a ridge between two merged
// facets; renumber and sort; build_adjacency() and validate(). Everything
// qhull might order differently is re-sorted, so the result depends only on
// the input points and their order:
// - vertices: the hull's extreme points in increasing input index;
// - each loop: CCW from outside, rotated to start at its smallest index;
// - faces: sorted lexicographically by their loops.
#include "geometry/polyhedron.hpp"

#include "geometry/shape.hpp"

#include <algorithm>
#include <array>
#include <cfloat>
#include <climits>
#include <cmath>
#include <csetjmp>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <sstream>
#include <string>
#include <unordered_map>

// After the C++ headers: some qhull_r headers lack their own extern "C".
extern "C" {
#include <libqhull_r/qhull_ra.h>
}

namespace pegsim {

namespace {

[[noreturn]] void fail(const std::string& what) { throw GeometryError("polyhedron_from_points: " + what); }

struct RawFacet {
  Vec3 normal;              // qhull's outward unit normal
  std::vector<int> points;  // input indices of its vertices
};

// Rejects inputs qhull cannot hull, with a message naming the reason: too few
// points, non-finite coordinates, and coincident / collinear / coplanar sets.
// The extent test finds a far pair, then the farthest point from their line,
// then from their plane; a set thinner than 1e-10 of its extent is flat.
// Returns the extent (largest distance from the first point).
double check_input(const std::vector<Vec3>& pts) {
  const int n = static_cast<int>(pts.size());
  if (n < 4) {
    std::ostringstream os;
    os << "needs at least 4 points, got " << n;
    fail(os.str());
  }
  for (int i = 0; i < n; ++i)
    if (!pts[i].allFinite()) fail("point " + std::to_string(i) + " is not finite (NaN or inf)");
  auto farthest = [&](auto&& measure) {
    int best = 0;
    double d = -1.0;
    for (int i = 0; i < n; ++i)
      if (const double m = measure(pts[i]); m > d) d = m, best = i;
    return std::pair{best, d};
  };
  const Vec3 p0 = pts[0];
  const auto [i1, extent] = farthest([&](const Vec3& x) { return (x - p0).norm(); });
  if (!(extent > 0.0)) fail("all points coincide");
  const Vec3 u = (pts[i1] - p0) / extent;
  const auto [i2, off_line] = farthest([&](const Vec3& x) { return (x - p0).cross(u).norm(); });
  if (off_line <= 1e-10 * extent) fail("points are collinear");
  const Vec3 w = u.cross(pts[i2] - p0).normalized();
  const auto [i3, off_plane] = farthest([&](const Vec3& x) { return std::abs(w.dot(x - p0)); });
  if (off_plane <= 1e-10 * extent) fail("points are coplanar");
  return extent;
}

// Near-duplicate points: qhull would keep both of two points a hair apart as
// vertices, joined by an edge too short for validate() (1e-9 of the size).
// Points within kDuplicateRadius * extent of an earlier kept point are
// dropped (the earlier index wins, so the choice is deterministic); kept
// points are then pairwise farther apart than any edge validate() rejects.
// A grid of that cell size finds the neighbours.
constexpr double kDuplicateRadius = 1e-8;

std::vector<int> distinct_points(const std::vector<Vec3>& pts, double extent) {
  const double r = kDuplicateRadius * extent;
  using Cell = std::array<long long, 3>;
  struct CellHash {
    std::size_t operator()(const Cell& c) const {
      return std::hash<long long>()(c[0] * 73856093LL ^ c[1] * 19349663LL ^ c[2] * 83492791LL);
    }
  };
  std::unordered_map<Cell, std::vector<int>, CellHash> grid;
  std::vector<int> kept;
  for (int i = 0; i < static_cast<int>(pts.size()); ++i) {
    const Vec3 g = (pts[i] - pts[0]) / r;
    const Cell cell = {std::llround(std::floor(g.x())), std::llround(std::floor(g.y())), std::llround(std::floor(g.z()))};
    bool duplicate = false;
    for (long long dx = -1; dx <= 1 && !duplicate; ++dx)
      for (long long dy = -1; dy <= 1 && !duplicate; ++dy)
        for (long long dz = -1; dz <= 1 && !duplicate; ++dz) {
          const auto it = grid.find({cell[0] + dx, cell[1] + dy, cell[2] + dz});
          if (it == grid.end()) continue;
          for (int j : it->second)
            if ((pts[j] - pts[i]).norm() <= r) duplicate = true;
        }
    if (duplicate) continue;
    grid[cell].push_back(i);
    kept.push_back(i);
  }
  return kept;
}

// Runs qhull (reentrant C API, libqhull_r) and copies out each facet's outward
// unit normal and vertex input indices. qhull's messages go to an in-memory
// stream that is quoted on failure.
//
// Option "C-n": pre-merge adjacent facets whose centrum lies within n of the
// neighbour's plane (n = merge_radius, an absolute length). This merges facets
// that are coplanar up to noise well above round-off (points jittered off a
// flat face), which qhull's default "C-0" (round-off only) leaves as slivers
// with nearly equal normals, and in a stress test of jittered, snapped cubes
// failed far more often; the merged facets stay within ~n of their plane.
std::vector<RawFacet> run_qhull(const std::vector<Vec3>& pts, const std::vector<int>& kept, double merge_radius) {
  std::vector<coordT> coords;
  coords.reserve(3 * kept.size());
  for (int i : kept) coords.insert(coords.end(), {pts[i].x(), pts[i].y(), pts[i].z()});

  char* log_text = nullptr;
  std::size_t log_size = 0;
  FILE* log = open_memstream(&log_text, &log_size);
  qhT qh_storage;
  qhT* qh = &qh_storage;
  QHULL_LIB_CHECK
  qh_zero(qh, log);
  char options[64];
  std::snprintf(options, sizeof options, "qhull C-%.6e", merge_radius);
  const int status = qh_new_qhull(qh, 3, static_cast<int>(kept.size()), coords.data(), False, options, nullptr, log);

  std::vector<RawFacet> facets;
  if (status == 0) {
    facetT* facet;
    FORALLfacets {
      RawFacet raw;
      raw.normal = Vec3(facet->normal[0], facet->normal[1], facet->normal[2]);  // outward, unit
      vertexT* vertex;
      vertexT** vertexp;
      FOREACHvertex_(facet->vertices) raw.points.push_back(kept[qh_pointid(qh, vertex->point)]);
      facets.push_back(std::move(raw));
    }
  }
  qh_freeqhull(qh, !qh_ALL);
  int curlong = 0, totlong = 0;
  qh_memfreeshort(qh, &curlong, &totlong);
  if (log != nullptr) std::fclose(log);
  const std::string message = log_text != nullptr ? std::string(log_text, log_size) : std::string();
  std::free(log_text);
  if (status != 0) fail("qhull failed (code " + std::to_string(status) + "): " + message);
  return facets;
}

// Orders a facet's vertices counter-clockwise about its outward normal n, by
// angle in the basis (b1, b2, n) about the vertices' mean.
void order_ccw(const std::vector<Vec3>& pts, const Vec3& n, std::vector<int>& ids) {
  Vec3 mean = Vec3::Zero();
  for (int i : ids) mean += pts[i];
  mean /= static_cast<double>(ids.size());
  int axis = 0;  // the coordinate axis least aligned with n
  n.cwiseAbs().minCoeff(&axis);
  const Vec3 b1 = n.cross(Vec3::Unit(axis)).normalized();
  const Vec3 b2 = n.cross(b1);
  std::vector<std::pair<double, int>> keyed;
  for (int i : ids) keyed.emplace_back(std::atan2((pts[i] - mean).dot(b2), (pts[i] - mean).dot(b1)), i);
  std::sort(keyed.begin(), keyed.end());
  for (std::size_t k = 0; k < ids.size(); ++k) ids[k] = keyed[k].second;
}

// Drops loop vertices that are not corners (collinear with, or reflex between,
// their loop neighbours): points that qhull kept on a ridge between two
// merged facets. Such a point is dropped only where that is safe: it lies on
// at most two facets and is a non-corner in each, so the two facets' edges
// a -> v -> b and b -> v -> a both become a -> b and the surface stays closed.
// Anything else (a near-collinear point that also touches a sliver facet) is
// left for validate(), which accepts weakly convex corners and checks closure.
void drop_non_corners(const std::vector<Vec3>& pts, std::vector<RawFacet>& facets) {
  for (;;) {
    std::map<int, std::pair<int, int>> seen;  // point -> (facets, facets where not a corner)
    for (const RawFacet& f : facets) {
      const std::size_t m = f.points.size();
      for (std::size_t k = 0; k < m; ++k) {
        const Vec3 a = pts[f.points[k]] - pts[f.points[(k + m - 1) % m]];
        const Vec3 b = pts[f.points[(k + 1) % m]] - pts[f.points[k]];
        auto& [count, flat] = seen[f.points[k]];
        ++count;
        if (a.cross(b).dot(f.normal) <= 1e-11 * a.norm() * b.norm()) ++flat;
      }
    }
    std::vector<int> drop;  // increasing point index (map order)
    for (const auto& [point, cf] : seen)
      if (cf.first <= 2 && cf.second == cf.first) drop.push_back(point);
    if (drop.empty()) return;
    for (RawFacet& f : facets)
      std::erase_if(f.points, [&](int i) { return std::binary_search(drop.begin(), drop.end(), i); });
    std::erase_if(facets, [](const RawFacet& f) { return f.points.size() < 3; });
  }
}

// One hull attempt at a given qhull merge radius; throws GeometryError if the
// result breaks an invariant.
Polyhedron build_hull(const std::vector<Vec3>& points, const std::vector<int>& kept, double merge_radius) {
  std::vector<RawFacet> facets = run_qhull(points, kept, merge_radius);
  for (RawFacet& f : facets) order_ccw(points, f.normal, f.points);
  drop_non_corners(points, facets);

  // Vertices: extreme points in increasing input index.
  std::vector<int> hull_ids;
  for (const RawFacet& f : facets) hull_ids.insert(hull_ids.end(), f.points.begin(), f.points.end());
  std::sort(hull_ids.begin(), hull_ids.end());
  hull_ids.erase(std::unique(hull_ids.begin(), hull_ids.end()), hull_ids.end());
  std::vector<int> new_index(points.size(), -1);
  Polyhedron p;
  for (std::size_t k = 0; k < hull_ids.size(); ++k) {
    new_index[hull_ids[k]] = static_cast<int>(k);
    p.vertices.push_back(points[hull_ids[k]]);
  }

  // Loops in new indices, rotated to start at their smallest index, sorted.
  std::vector<std::vector<int>> loops;
  for (const RawFacet& f : facets) {
    std::vector<int> loop;
    for (int i : f.points) loop.push_back(new_index[i]);
    std::rotate(loop.begin(), std::min_element(loop.begin(), loop.end()), loop.end());
    loops.push_back(std::move(loop));
  }
  std::sort(loops.begin(), loops.end());
  for (std::vector<int>& loop : loops) p.faces.push_back(PolyFace{std::move(loop), Vec3::Zero(), 0.0, {}});

  p.build_adjacency();
  p.validate();
  return p;
}

}  // namespace

// Merge radii tried in turn, relative to the extent of the points. The finest
// keeps the most shape; on inputs noisy at about its level (near-duplicate
// points snapped to a noisy face) qhull's merged facets can come out
// inconsistent (a reflex corner, an unmatched edge), and a coarser radius,
// still inside validate()'s 1e-9 planarity tolerance, recovers: in a stress
// test of 15,200 jittered, snapped cube clouds (noise 0 to 1e-7 of the size)
// every hull validated with this ladder, against ~1 in 600 with the first rung
// alone. The first error is reported if all fail.
Polyhedron polyhedron_from_points(const std::vector<Vec3>& points) {
  const double extent = check_input(points);
  const std::vector<int> kept = distinct_points(points, extent);
  std::string first_error;
  for (double relative_radius : {1e-11, 1e-10, 3e-10}) {
    try {
      return build_hull(points, kept, relative_radius * extent);
    } catch (const GeometryError& e) {
      if (first_error.empty()) first_error = e.what();
    }
  }
  throw GeometryError("polyhedron_from_points: no valid hull (" + first_error + ")");
}

}  // namespace pegsim
