// GJK distance and EPA depth (geometry/gjk.hpp). D = A - B is the Minkowski
// difference, its support point along d is s_A(d) - s_B(-d); the sets are
// apart by |v| where v is D's point closest to the origin, and overlap when
// the origin is inside D, by the distance from the origin to D's boundary.
#include "geometry/gjk.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <numbers>
#include <string>
#include <vector>

namespace pegsim {

Vec3 SupportMapping::operator()(const Vec3& d) const {
  Vec3 x = !shape_ ? (d.dot(q_) > d.dot(p_) ? q_ : p_) : pose_.to_world(support(*shape_, pose_.orientation.conjugate() * d));
  if (extrusion_ > 0.0) x.z() = d.z() >= 0.0 ? extrusion_ : -extrusion_;
  return x;
}

Vec3 SupportMapping::centre() const {
  if (!shape_) return 0.5 * (p_ + q_);
  return pose_.to_world(0.5 * (support(*shape_, Vec3::UnitX()) + support(*shape_, -Vec3::UnitX())));
}

double SupportMapping::scale() const { return shape_ ? bounding_radius(*shape_) : 0.5 * (q_ - p_).norm(); }

namespace {
struct ConvexSet {
  SupportMapping set;
  double radius;
  bool planar;
};
ConvexSet convex_set(const Shape& s, const Pose& pose) {
  if (is_half_space(s) || is_compound(s))
    throw GeometryError(std::string("shape_distance: a ") + shape_kind_name(s) + " is not a bounded convex shape");
  const bool planar = kind_info(s).dims == ShapeDims::Planar;
  RoundCore core;
  if (const auto* k = std::get_if<Sphere>(&s)) core = core_of(*k);
  else if (const auto* k = std::get_if<Capsule>(&s)) core = core_of(*k);
  else if (const auto* k = std::get_if<Disc>(&s)) core = core_of(*k);
  else if (const auto* k = std::get_if<Capsule2d>(&s)) core = core_of(*k);
  else return ConvexSet{SupportMapping::shape(s, pose), 0.0, planar};
  return ConvexSet{SupportMapping::segment(pose.to_world(core.p), pose.to_world(core.q)), core.radius, planar};
}
}  // namespace

ConvexDistance shape_distance(const Shape& a, const Pose& pa, const Shape& b, const Pose& pb) {
  ConvexSet ca = convex_set(a, pa), cb = convex_set(b, pb);
  if (ca.planar != cb.planar) throw GeometryError("shape_distance: a 2D shape with a 3D one");
  if (ca.planar) {
    const double h = 10.0 * (bounding_radius(a) + bounding_radius(b) + (pa.position - pb.position).norm());
    ca.set.extruded(h);
    cb.set.extruded(h);
  }
  ConvexDistance d = convex_distance(ca.set, cb.set);
  if (ca.planar) {  // back into the plane (the prisms' points are at +-h)
    d.point_a.z() = 0.0;
    d.normal.z() = 0.0;
    d.normal.normalize();
  }
  d.point_a += ca.radius * d.normal;
  d.distance -= ca.radius + cb.radius;
  d.point_b = d.point_a + d.distance * d.normal;
  return d;
}

namespace {

constexpr double kRelative = 1e-12;  // relative gap between GJK's bounds at termination
constexpr int kMaxGjk = 128;
constexpr int kMaxEpa = 128;

struct Vertex {
  Vec3 w = Vec3::Zero(), a = Vec3::Zero(), b = Vec3::Zero();  // w = a - b
};

struct Simplex {
  std::array<Vertex, 4> v;
  std::array<double, 4> lambda{};  // barycentric weights of the closest point
  int size = 0;
};

// Closest point to the origin on the segment / triangle of s's vertices
// (Ericson 5.1.2, 5.1.5 with p = 0), reducing s to the smallest sub-simplex
// holding it, with its weights.
void closest_on_segment(Simplex& s) {
  const Vec3 &a = s.v[0].w, &b = s.v[1].w;
  const Vec3 ab = b - a;
  const double len2 = ab.squaredNorm();
  const double t = len2 > 0.0 ? -a.dot(ab) / len2 : 0.0;
  if (t <= 0.0) {
    s.size = 1, s.lambda[0] = 1.0;
  } else if (t >= 1.0) {
    s.v[0] = s.v[1], s.size = 1, s.lambda[0] = 1.0;
  } else {
    s.lambda[0] = 1.0 - t, s.lambda[1] = t;
  }
}

void keep(Simplex& s, std::initializer_list<int> which, std::initializer_list<double> weights) {
  std::array<Vertex, 4> v = s.v;
  int k = 0;
  auto w = weights.begin();
  for (int i : which) s.v[static_cast<std::size_t>(k)] = v[static_cast<std::size_t>(i)], s.lambda[static_cast<std::size_t>(k++)] = *w++;
  s.size = k;
}

void closest_on_triangle(Simplex& s) {
  const Vec3 &a = s.v[0].w, &b = s.v[1].w, &c = s.v[2].w;
  const Vec3 ab = b - a, ac = c - a, ap = -a;
  const double d1 = ab.dot(ap), d2 = ac.dot(ap);
  if (d1 <= 0.0 && d2 <= 0.0) return keep(s, {0}, {1.0});
  const Vec3 bp = -b;
  const double d3 = ab.dot(bp), d4 = ac.dot(bp);
  if (d3 >= 0.0 && d4 <= d3) return keep(s, {1}, {1.0});
  const double vc = d1 * d4 - d3 * d2;
  if (vc <= 0.0 && d1 >= 0.0 && d3 <= 0.0) {
    const double t = d1 / (d1 - d3);
    return keep(s, {0, 1}, {1.0 - t, t});
  }
  const Vec3 cp = -c;
  const double d5 = ab.dot(cp), d6 = ac.dot(cp);
  if (d6 >= 0.0 && d5 <= d6) return keep(s, {2}, {1.0});
  const double vb = d5 * d2 - d1 * d6;
  if (vb <= 0.0 && d2 >= 0.0 && d6 <= 0.0) {
    const double t = d2 / (d2 - d6);
    return keep(s, {0, 2}, {1.0 - t, t});
  }
  const double va = d3 * d6 - d5 * d4;
  if (va <= 0.0 && (d4 - d3) >= 0.0 && (d5 - d6) >= 0.0) {
    const double t = (d4 - d3) / ((d4 - d3) + (d5 - d6));
    return keep(s, {1, 2}, {1.0 - t, t});
  }
  const double denom = 1.0 / (va + vb + vc);
  const double v = vb * denom, w = vc * denom;
  keep(s, {0, 1, 2}, {1.0 - v - w, v, w});
}

Vec3 point_of(const Simplex& s) {
  Vec3 p = Vec3::Zero();
  for (int i = 0; i < s.size; ++i) p += s.lambda[static_cast<std::size_t>(i)] * s.v[static_cast<std::size_t>(i)].w;
  return p;
}

// Tetrahedron: false when the origin is inside it by more than `tolerance`
// (s unchanged); otherwise s becomes the sub-simplex of its closest point,
// the nearest of its four faces' closest points (Ericson 5.1.6). The inside
// test orients every face by the one signed volume of the tetrahedron, never
// face by face: when GJK's fourth support point is (nearly) coplanar with
// the triangle -- two boxes with (nearly) parallel faces, where D has a flat
// facet -- the opposite vertex's side of a face is round-off, and a per-face
// orientation could call the origin inside (EPA then measures a depth) or
// drop the face that holds the closest point (a sideways face then answered
// centimetres). With one orientation the faces' barycentric shares sum to
// one, so the origin cannot be outside none of them by error alone; and
// every face is searched, so the nearest is never skipped.
bool closest_on_tetrahedron(Simplex& s, double tolerance) {
  static constexpr int kFaces[4][4] = {{0, 1, 2, 3}, {0, 2, 3, 1}, {0, 3, 1, 2}, {1, 3, 2, 0}};
  const auto w = [&](int i) -> const Vec3& { return s.v[static_cast<std::size_t>(i)].w; };
  const double volume = (w(1) - w(0)).dot((w(2) - w(0)).cross(w(3) - w(0)));
  bool inside = volume != 0.0;
  for (const auto& f : kFaces) {
    if (!inside) break;
    const Vec3 n = (w(f[1]) - w(f[0])).cross(w(f[2]) - w(f[0]));
    const double len = n.norm();
    // n . (d - a) has the sign of `volume` for each face as listed (the
    // triple product's cyclic symmetry); the origin's height over the face
    // towards the opposite vertex d:
    const double depth = (volume > 0.0 ? -w(f[0]).dot(n) : w(f[0]).dot(n)) / (len > 0.0 ? len : 1.0);
    if (!(len > 0.0) || depth <= tolerance) inside = false;  // on a face counts as outside: measured, not EPA
  }
  if (inside) return false;
  double best = std::numeric_limits<double>::infinity();
  Simplex result;
  for (const auto& f : kFaces) {
    Simplex t;
    t.v = {s.v[static_cast<std::size_t>(f[0])], s.v[static_cast<std::size_t>(f[1])], s.v[static_cast<std::size_t>(f[2])], Vertex{}};
    t.size = 3;
    closest_on_triangle(t);
    const double dist = point_of(t).squaredNorm();
    if (dist < best) best = dist, result = t;
  }
  s = result;
  return true;
}

// ---------------------------------------------------------------- EPA

struct Face {
  std::array<int, 3> v;
  Vec3 n;        // outward unit normal
  double dist;   // n . v0: the origin's distance below the face plane
};

class Epa {
 public:
  Epa(const SupportMapping& a, const SupportMapping& b, double tolerance)
      : a_(a), b_(b), tolerance_(tolerance) {}

  ConvexDistance run(const Simplex& start, int& iterations, bool& converged) {
    for (int i = 0; i < start.size; ++i) vertices_.push_back(start.v[static_cast<std::size_t>(i)]);
    if (!make_tetrahedron()) return touching();
    for (int f : {0, 1, 2, 3}) add_face(kTet[f][0], kTet[f][1], kTet[f][2], kTet[f][3]);
    converged = false;
    if (faces_.empty()) return touching();
    // The nearest face's distance only grows as the polytope grows towards
    // D's boundary; a drop means round-off has folded a new face over (nearly
    // coplanar faces of a curved D): the last good face is then the answer,
    // within its gap to the support point (the bound the stop test uses).
    ConvexDistance best = result(faces_[nearest_face()]);
    for (int it = 0; it < kMaxEpa; ++it) {
      ++iterations;
      const Face f = faces_[nearest_face()];
      if (f.dist < -best.distance - tolerance_) break;  // folded: keep the last good face
      best = result(f);
      const Vertex w = support(f.n);
      if (f.n.dot(w.w) - f.dist <= tolerance_) {
        converged = true;
        break;
      }
      expand(w);
      if (faces_.empty()) break;
    }
    return best;
  }

 private:
  static constexpr int kTet[4][4] = {{0, 1, 2, 3}, {0, 3, 1, 2}, {0, 2, 3, 1}, {1, 3, 2, 0}};

  Vertex support(const Vec3& d) const {
    const Vec3 pa = a_(d), pb = b_(-d);
    return Vertex{pa - pb, pa, pb};
  }
  bool distinct(const Vertex& x) const {
    for (const Vertex& v : vertices_)
      if ((v.w - x.w).norm() <= tolerance_) return false;
    return true;
  }
  // grows GJK's final simplex (origin on or inside it) to a tetrahedron of D's support points
  bool make_tetrahedron() {
    static const Vec3 kAxes[6] = {Vec3::UnitX(), -Vec3::UnitX(), Vec3::UnitY(), -Vec3::UnitY(), Vec3::UnitZ(), -Vec3::UnitZ()};
    for (const Vec3& d : kAxes) {
      if (vertices_.size() >= 2) break;
      const Vertex x = support(d);
      if (distinct(x)) vertices_.push_back(x);
    }
    if (vertices_.size() == 2) {
      const Vec3 line = vertices_[1].w - vertices_[0].w;
      const int axis = line.cwiseAbs().minCoeff() == std::abs(line.x()) ? 0 : (line.cwiseAbs().minCoeff() == std::abs(line.y()) ? 1 : 2);
      const Vec3 u = line.cross(Vec3::Unit(axis)).normalized(), v = line.normalized().cross(u);
      for (int k = 0; k < 6 && vertices_.size() < 3; ++k) {
        const double angle = k * std::numbers::pi / 3.0;
        const Vertex x = support(std::cos(angle) * u + std::sin(angle) * v);
        if ((x.w - vertices_[0].w).cross(line).norm() > tolerance_ * line.norm()) vertices_.push_back(x);
      }
    }
    if (vertices_.size() == 3) {
      const Vec3 n = (vertices_[1].w - vertices_[0].w).cross(vertices_[2].w - vertices_[0].w);
      for (const Vec3& d : {n, Vec3(-n)}) {
        const Vertex x = support(d);
        if (std::abs(n.normalized().dot(x.w - vertices_[0].w)) > tolerance_) {
          vertices_.push_back(x);
          break;
        }
      }
    }
    return vertices_.size() == 4;
  }
  // the face (i, j, k) oriented away from vertex `opposite` (or from the origin's side when -1)
  void add_face(int i, int j, int k, int opposite) {
    Vec3 n = (w(j) - w(i)).cross(w(k) - w(i));
    if (opposite >= 0 && n.dot(w(opposite) - w(i)) > 0.0) std::swap(j, k), n = -n;
    const double len = n.norm();
    if (!(len > 0.0)) return;  // degenerate: no plane (its neighbours close the hull)
    n /= len;
    faces_.push_back(Face{{i, j, k}, n, n.dot(w(i))});
  }
  const Vec3& w(int i) const { return vertices_[static_cast<std::size_t>(i)].w; }
  std::size_t nearest_face() const {
    std::size_t best = 0;
    for (std::size_t f = 1; f < faces_.size(); ++f)
      if (faces_[f].dist < faces_[best].dist) best = f;
    return best;
  }
  // adds w: removes the faces it sees, closes the hole from their horizon
  void expand(const Vertex& x) {
    const int index = static_cast<int>(vertices_.size());
    vertices_.push_back(x);
    std::vector<std::array<int, 2>> horizon;
    std::vector<Face> kept;
    for (const Face& f : faces_) {
      if (f.n.dot(x.w - w(f.v[0])) > tolerance_) {
        for (int e = 0; e < 3; ++e) {
          const std::array<int, 2> edge{f.v[static_cast<std::size_t>(e)], f.v[static_cast<std::size_t>((e + 1) % 3)]};
          const auto twin = std::find(horizon.begin(), horizon.end(), std::array<int, 2>{edge[1], edge[0]});
          if (twin != horizon.end()) horizon.erase(twin);
          else horizon.push_back(edge);
        }
      } else {
        kept.push_back(f);
      }
    }
    faces_.swap(kept);
    for (const auto& e : horizon) add_face(e[0], e[1], index, -1);
  }
  ConvexDistance result(const Face& f) const {
    // the origin's projection onto the face, in barycentric weights (Ericson 3.4)
    const Vec3 p = f.dist * f.n;
    const Vec3 &a = w(f.v[0]), &b = w(f.v[1]), &c = w(f.v[2]);
    const Vec3 v0 = b - a, v1 = c - a, v2 = p - a;
    const double d00 = v0.dot(v0), d01 = v0.dot(v1), d11 = v1.dot(v1), d20 = v2.dot(v0), d21 = v2.dot(v1);
    const double denom = d00 * d11 - d01 * d01;
    const double l1 = denom != 0.0 ? (d11 * d20 - d01 * d21) / denom : 0.0;
    const double l2 = denom != 0.0 ? (d00 * d21 - d01 * d20) / denom : 0.0;
    const double l0 = 1.0 - l1 - l2;
    const auto vertex = [&](int k) -> const Vertex& { return vertices_[static_cast<std::size_t>(f.v[static_cast<std::size_t>(k)])]; };
    ConvexDistance r;
    r.point_a = l0 * vertex(0).a + l1 * vertex(1).a + l2 * vertex(2).a;
    r.distance = -f.dist;
    r.normal = f.n;
    r.point_b = r.point_a + r.distance * r.normal;
    return r;
  }
  // D is flat or the origin on its boundary: zero depth, along the first vertex's direction
  ConvexDistance touching() const {
    ConvexDistance r;
    r.point_a = r.point_b = vertices_.front().a;
    r.distance = 0.0;
    return r;
  }

  const SupportMapping& a_;
  const SupportMapping& b_;
  double tolerance_;
  std::vector<Vertex> vertices_;
  std::vector<Face> faces_;
};

}  // namespace

ConvexDistance convex_distance(const SupportMapping& a, const SupportMapping& b) {
  const double scale = std::max({a.scale(), b.scale(), (a.centre() - b.centre()).norm(), 1e-300});
  const double tolerance = 1e-13 * scale;
  auto support = [&](const Vec3& d) {
    const Vec3 pa = a(d), pb = b(-d);
    return Vertex{pa - pb, pa, pb};
  };
  Simplex s;
  Vec3 v = a.centre() - b.centre();
  if (v.squaredNorm() == 0.0) v = Vec3::UnitX();
  s.v[0] = support(-v);
  s.lambda[0] = 1.0;
  s.size = 1;
  v = s.v[0].w;
  int iterations = 0;
  bool overlapping = false, converged = false, touching = false;
  const bool planar = a.is_extruded() || b.is_extruded();
  Vec3 direction = v;
  for (; iterations < kMaxGjk; ++iterations) {
    const double vv = v.squaredNorm();
    if (vv <= tolerance * tolerance) {
      // the origin on GJK's segment or triangle, within round-off: on D's
      // boundary (touching) or inside D, which a segment or triangle through
      // D's interior cannot tell apart (two cylinders overlapping 2 mm face to
      // face ended here at 7e-15 after two iterations). EPA decides; should
      // it not converge, a touching answer: the distance |v| along the last
      // search direction (a planar pair, extruded, stays with EPA: GJK keeps
      // to the plane, where the origin may be inside D)
      overlapping = true;
      touching = vv > 0.0 && !planar;
      break;
    }
    direction = v;
    const Vertex w = support(-v);
    // van den Bergen's test (Collision Detection in Interactive 3D
    // Environments, 2004, 4.3.1; JGT 1999): |v| - v.w/|v| bounds the error of
    // the distance |v|, the lower bound v.w/|v| being D's extent towards the
    // origin along v. Stop when it is within a relative kRelative of |v|, or
    // within `tolerance` absolutely: v.w carries the round-off of w's
    // coordinates (~1e-16 |w|, |w| up to the scale) times |v|, so the
    // absolute floor is a length times |v|, not tolerance^2 -- which at
    // millimetre gaps sits below that round-off and let a flat simplex
    // (boxes with parallel faces) go on to a degenerate tetrahedron.
    if (vv - v.dot(w.w) <= std::max(kRelative * vv, tolerance * std::sqrt(vv))) {  // bounds met
      converged = true;
      break;
    }
    const Simplex before = s;
    s.v[static_cast<std::size_t>(s.size++)] = w;
    if (s.size == 2) closest_on_segment(s);
    else if (s.size == 3) closest_on_triangle(s);
    else if (!closest_on_tetrahedron(s, tolerance)) {
      overlapping = true;
      break;
    }
    const Vec3 next = point_of(s);
    if (!(next.squaredNorm() < vv)) {
      // round-off floor reached: |v| must decrease strictly (Gilbert, Johnson
      // and Keerthi 1988, Theorem 3); a new simplex whose closest point is no
      // nearer is round-off, so the last simplex and v stay the answer (taking
      // the new one returned a farther point and its sideways normal)
      s = before;
      converged = true;
      break;
    }
    v = next;
  }
  if (overlapping) {
    bool epa_converged = false;
    // EPA's faces approximate a curved D: a looser stop than GJK's (1e-9 of the scale)
    ConvexDistance r = Epa(a, b, 1e4 * tolerance).run(s, iterations, epa_converged);
    r.iterations = iterations;
    r.converged = epa_converged;
    if (epa_converged || !touching) return r;
  }
  ConvexDistance r;
  r.point_a = r.point_b = Vec3::Zero();
  for (int i = 0; i < s.size; ++i) {
    r.point_a += s.lambda[static_cast<std::size_t>(i)] * s.v[static_cast<std::size_t>(i)].a;
    r.point_b += s.lambda[static_cast<std::size_t>(i)] * s.v[static_cast<std::size_t>(i)].b;
  }
  r.distance = v.norm();
  r.normal = touching ? Vec3(-direction.normalized()) : Vec3(-v / r.distance);
  r.point_b = r.point_a + r.distance * r.normal;  // the convention, exact
  r.iterations = iterations;
  r.converged = converged || touching;
  return r;
}

}  // namespace pegsim
