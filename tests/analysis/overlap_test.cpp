// Overlap area / volume (analysis/overlap.hpp) against exact cases and brute
// force.
//
// Brute force: N points uniform in the box where both shapes' world bounding
// boxes meet (volume or area W), counting the k inside both shapes. k is
// binomial(N, p) with p = V / W for the true overlap V, so the estimate
// W k / N has standard deviation sigma = W sqrt(p (1 - p) / N). Each pair is
// checked against its own sigma with p taken from the measured V (the
// hypothesis under test): |V - W k / N| <= 5 sigma fails a correct
// implementation with probability 6e-7 per pair (the seeds are fixed, so the
// test is deterministic anyway), while an error of a few percent of V on a
// pair with N = 20000 samples is several sigma. A bias too small for one pair
// is caught on the sum: the z-scores of M correct pairs sum to a normal of
// standard deviation sqrt(M), checked at 5 sqrt(M).
#include "analysis/overlap.hpp"

#include "common/polygon_pool.hpp"
#include "common/sampler.hpp"
#include "geometry/mass_properties.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <numbers>

namespace pegsim {
namespace {

constexpr int kSamples = 20000;

bool inside(const Shape& s, const Pose& pose, const Vec3& x) {
  const Vec3 y = pose.to_body(x);
  if (const auto* p = std::get_if<Polyhedron>(&s)) {
    for (const PolyFace& f : p->faces)
      if (f.normal.dot(y) > f.offset) return false;
    return true;
  }
  if (const auto* p = std::get_if<Polygon>(&s)) {
    const Vec2 q(y.x(), y.y());
    for (int e = 0; e < p->size(); ++e)
      if (p->edge_normals[e].dot(q - p->vertices[e]) > 0.0) return false;
    return true;
  }
  const auto& h = std::get<HalfSpace>(s);
  return h.normal.dot(y) <= h.offset;
}

// World bounding box of a body (a half-space gets a big box around the other body).
Eigen::AlignedBox3d world_box(const Shape& s, const Pose& pose) {
  Eigen::AlignedBox3d box;
  if (const auto* p = std::get_if<Polyhedron>(&s))
    for (const Vec3& v : p->vertices) box.extend(pose.to_world(v));
  else if (const auto* p = std::get_if<Polygon>(&s))
    for (const Vec2& v : p->vertices) box.extend(pose.to_world(lift(v)));
  else
    box.extend(Vec3::Constant(-1e3)).extend(Vec3::Constant(1e3));
  return box;
}

// The exact intersection of two axis-aligned boxes over their first `dims`
// axes (area or volume; below 1e-9 counted as 0), and whether they touch
// along an axis (an overlap length within 1e-9 of 0).
struct BoxIntersection {
  double measure;
  bool touch;
};
BoxIntersection box_intersection(const Eigen::AlignedBox3d& ba, const Eigen::AlignedBox3d& bb, int dims) {
  BoxIntersection r{1.0, false};
  for (int k = 0; k < dims; ++k) {
    const double len = std::min(ba.max()(k), bb.max()(k)) - std::max(ba.min()(k), bb.min()(k));
    if (std::abs(len) < 1e-9) r.touch = true;
    r.measure *= std::max(0.0, len);
  }
  if (r.measure < 1e-9) r.measure = 0.0;
  return r;
}

struct Estimate {
  double value = 0.0, sigma_of_true = 0.0;
  long hits = 0;
  double z = 0.0;  // (measured - estimate) / sigma, 0 when sigma is 0
};

// Monte Carlo estimate of the overlap, and the z-score of `measured` against it.
Estimate brute_force(const Shape& a, const Pose& pa, const Shape& b, const Pose& pb, bool planar, double measured,
                     test::Sampler& rng) {
  Estimate e;
  Eigen::AlignedBox3d box = world_box(a, pa).intersection(world_box(b, pb));
  if (box.isEmpty()) return e;
  const Vec3 lo = box.min(), size = box.sizes();
  const double w = planar ? size.x() * size.y() : size.prod();
  if (!(w > 0.0)) return e;
  for (int k = 0; k < kSamples; ++k) {
    const double x = rng.unit(), y = rng.unit(), z = planar ? 0.0 : rng.unit();
    const Vec3 p = lo + Vec3(x * size.x(), y * size.y(), planar ? 0.0 : z * size.z());
    if (inside(a, pa, p) && inside(b, pb, p)) ++e.hits;
  }
  e.value = w * static_cast<double>(e.hits) / kSamples;
  const double p = std::clamp(measured / w, 0.0, 1.0);
  e.sigma_of_true = w * std::sqrt(p * (1.0 - p) / kSamples);
  if (e.sigma_of_true > 0.0) e.z = (measured - e.value) / e.sigma_of_true;
  return e;
}

Polyhedron random_hull(test::Sampler& rng) {
  const Vec3 scale(rng.uniform(0.3, 0.8), rng.uniform(0.3, 0.8), rng.uniform(0.3, 0.8));
  for (;;) {
    std::vector<Vec3> pts;
    const int n = rng.integer(5, 20);
    for (int k = 0; k < n; ++k) pts.push_back(rng.in_ball(1.0).cwiseProduct(scale));
    try {
      Polyhedron p = polyhedron_from_points(pts);
      return p;
    } catch (const std::exception&) {
    }
  }
}

Polyhedron random_body(test::Sampler& rng) {
  if (rng.integer(0, 1) == 0) return make_box(rng.vec3(0.2, 1.5));
  return random_hull(rng);
}

Pose random_pose(test::Sampler& rng, const Vec3& near, double spread) {
  Pose p;
  p.position = near + rng.in_ball(spread);
  p.orientation = rng.rotation();
  return p;
}

// A common rigid motion applied to a pose: T * pose.
Pose moved(const Pose& motion, const Pose& p) {
  Pose out;
  out.position = motion.to_world(p.position);
  out.orientation = (motion.orientation * p.orientation).normalized();
  return out;
}

void check_sum_of_z(double sum_z, int count) {
  ASSERT_GT(count, 0);
  EXPECT_LT(std::abs(sum_z), 5.0 * std::sqrt(static_cast<double>(count))) << "over " << count << " pairs";
}

// --- exact cases ---------------------------------------------------------

TEST(Overlap, AxisAlignedBoxesOverlapByTheirCommonBox) {
  const Shape a = make_box(Vec3(1, 2, 3)), b = make_box(Vec3(2, 1, 1));
  Pose pa, pb;
  pa.position = Vec3(10, -5, 2);
  pb.position = pa.position + Vec3(0.8, 0.3, 1.2);
  // x: [-0.5, 0.5] & [-0.2, 1.8]; y: [-1, 1] & [-0.2, 0.8]; z: [-1.5, 1.5] & [0.7, 1.7]
  EXPECT_NEAR(overlap_measure(a, pa, b, pb), 0.7 * 1.0 * 0.8, 1e-12);
  EXPECT_NEAR(overlap_measure(b, pb, a, pa), 0.7 * 1.0 * 0.8, 1e-12);
  // the same with coplanar side faces: b's y-extent equal to a's
  const Shape c = make_box(Vec3(2, 2, 1));
  Pose pc;
  pc.position = pa.position + Vec3(0.8, 0.0, 1.2);
  EXPECT_NEAR(overlap_measure(a, pa, c, pc), 0.7 * 2.0 * 0.8, 1e-12);
}

TEST(Overlap, AxisAlignedRectanglesOverlapByTheirCommonRectangle) {
  const Shape a = make_rectangle(1, 2), b = make_rectangle(2, 1);
  const Pose pa = Pose::planar(3, 4, 0), pb = Pose::planar(3.8, 4.3, 0);
  EXPECT_NEAR(overlap_measure(a, pa, b, pb), 0.7 * 1.0, 1e-12);
  // b turned by a quarter turn is 1 wide, 2 high: x [3.3, 4.3] & [2.5, 3.5], y [3.3, 5.3] & [3, 5]
  const Pose pq = Pose::planar(3.8, 4.3, std::numbers::pi / 2);
  EXPECT_NEAR(overlap_measure(a, pa, b, pq), 0.2 * 1.7, 1e-12);
}

TEST(Overlap, IdenticalShapesOverlapByTheirWholeMeasure) {
  test::Sampler rng(5);
  for (int trial = 0; trial < 50; ++trial) {
    const Polyhedron p = random_body(rng);
    const Pose pose = random_pose(rng, Vec3(2, -3, 1), 5.0);
    EXPECT_NEAR(overlap_measure(p, pose, p, pose), volume(p), 1e-12 * volume(p) + 1e-14) << trial;
  }
  for (const Polygon& p : test::polygon_pool()) {
    const Pose pose = Pose::planar(rng.uniform(-5, 5), rng.uniform(-5, 5), rng.uniform(-4, 4));
    EXPECT_NEAR(overlap_measure(p, pose, p, pose), area(p), 1e-12 * area(p) + 1e-14);
  }
}

TEST(Overlap, DisjointAndTouchingShapesOverlapByZero) {
  const Shape box = make_box(Vec3(1, 1, 1));
  Pose pa, pb;
  pb.position = Vec3(1.0, 0.3, -0.2);  // sharing part of a face
  EXPECT_EQ(overlap_measure(box, pa, box, pb), 0.0);
  pb.position = Vec3(1.0, 1.0, 1.0);  // a shared corner
  EXPECT_EQ(overlap_measure(box, pa, box, pb), 0.0);
  pb.position = Vec3(1.5, 0, 0);  // apart
  EXPECT_EQ(overlap_measure(box, pa, box, pb), 0.0);
  // resting on top, turned about the vertical: faces coplanar, edges crossing
  pb.position = Vec3(0.2, -0.1, 1.0);
  pb.orientation = Quat(Eigen::AngleAxisd(0.7, Vec3::UnitZ()));
  EXPECT_LT(overlap_measure(box, pa, box, pb), 1e-14);
  EXPECT_LT(overlap_measure(box, pb, box, pa), 1e-14);
  // 2D: an edge shared, a corner shared, apart
  const Shape sq = make_rectangle(1, 1);
  EXPECT_EQ(overlap_measure(sq, Pose::planar(0, 0, 0), sq, Pose::planar(1, 0.4, 0)), 0.0);
  EXPECT_EQ(overlap_measure(sq, Pose::planar(0, 0, 0), sq, Pose::planar(1, 1, 0)), 0.0);
  EXPECT_EQ(overlap_measure(sq, Pose::planar(0, 0, 0), sq, Pose::planar(2, 0, 0)), 0.0);
  // a corner touching an edge
  EXPECT_LT(overlap_measure(sq, Pose::planar(0, 0, 0), sq, Pose::planar(0.2, 0.5 + std::sqrt(0.5), 0.25 * std::numbers::pi)),
            1e-14);
}

TEST(Overlap, HalfSpaceOverlapsByThePartBelowItsPlane) {
  const Shape ground = HalfSpace{Vec3::UnitZ(), 0.0};
  const Shape box = make_box(Vec3(2, 1, 1));
  Pose pg, pb;
  pb.position = Vec3(5, 3, 0.3);  // 0.2 below
  EXPECT_NEAR(overlap_measure(ground, pg, box, pb), 2 * 1 * 0.2, 1e-12);
  EXPECT_NEAR(overlap_measure(box, pb, ground, pg), 2 * 1 * 0.2, 1e-12);
  pb.position.z() = 0.5;  // resting
  EXPECT_EQ(overlap_measure(ground, pg, box, pb), 0.0);
  pb.position.z() = -3.0;  // sunk
  EXPECT_NEAR(overlap_measure(ground, pg, box, pb), 2.0, 1e-12);
  // a ground plane at a pose: z' = z - 1 after a translation
  pg.position = Vec3(0, 0, 1);
  pb.position.z() = 1.2;
  EXPECT_NEAR(overlap_measure(ground, pg, box, pb), 2 * 1 * 0.3, 1e-12);
  // 2D: half-plane y <= 0 and a rectangle 0.1 below
  const Shape floor = HalfSpace{Vec3::UnitY(), 0.0};
  const Shape rect = make_rectangle(2, 1);
  EXPECT_NEAR(overlap_measure(floor, Pose::planar(0, 0, 0), rect, Pose::planar(4, 0.4, 0)), 2 * 0.1, 1e-12);
  EXPECT_EQ(overlap_measure(floor, Pose::planar(0, 0, 0), rect, Pose::planar(4, 0.5, 0)), 0.0);
}

TEST(Overlap, PairsThatCannotTouchOverlapByZero) {
  const Shape ground = HalfSpace{Vec3::UnitZ(), 0.0};
  const Shape floor2d = HalfSpace{Vec3::UnitY(), 0.0};
  const Shape box = make_box(Vec3(1, 1, 1));
  const Shape sq = make_rectangle(1, 1);
  const Pose o;
  EXPECT_EQ(overlap_measure(ground, o, ground, o), 0.0);
  EXPECT_EQ(overlap_measure(box, o, sq, o), 0.0);
  EXPECT_EQ(overlap_measure(sq, o, box, o), 0.0);
  EXPECT_EQ(overlap_measure(ground, o, sq, o), 0.0);  // a 3D half-space and a planar body
  EXPECT_EQ(overlap_measure(floor2d, o, floor2d, o), 0.0);
}

// Boxes on a lattice turned by quarter turns: all faces axis-aligned, many
// coplanar, shared and touching; the overlap is the product of the three
// interval overlaps.
TEST(Overlap, LatticeBoxesWithCoplanarAndSharedFacesAreExact) {
  test::Sampler rng(77);
  int touching = 0, overlapping = 0;
  for (int trial = 0; trial < 400; ++trial) {
    const Shape a = make_box(rng.lattice3(1, 2).cast<double>());
    const Shape b = make_box(rng.lattice3(1, 2).cast<double>());
    Pose pa, pb;
    pa.position = 0.5 * rng.lattice3(-2, 2);
    pb.position = 0.5 * rng.lattice3(-2, 2);
    pa.orientation = rng.axis_rotation();
    pb.orientation = rng.axis_rotation();
    const Eigen::AlignedBox3d ba = world_box(a, pa), bb = world_box(b, pb);
    const auto [exact, touch] = box_intersection(ba, bb, 3);
    touching += touch;
    overlapping += exact > 0.0;
    const double v = overlap_measure(a, pa, b, pb);
    ASSERT_TRUE(std::isfinite(v)) << trial;
    EXPECT_NEAR(v, exact, 1e-12) << trial;
    EXPECT_NEAR(overlap_measure(b, pb, a, pa), exact, 1e-12) << trial;
  }
  EXPECT_GT(touching, 50);
  EXPECT_GT(overlapping, 50);
}

TEST(Overlap, LatticeRectanglesWithCollinearAndSharedEdgesAreExact) {
  test::Sampler rng(78);
  int touching = 0, overlapping = 0;
  for (int trial = 0; trial < 400; ++trial) {
    const Vec3 sa = rng.lattice3(1, 2).cast<double>(), sb = rng.lattice3(1, 2).cast<double>();
    const Shape a = make_rectangle(sa.x(), sa.y()), b = make_rectangle(sb.x(), sb.y());
    const Vec3 ca = 0.5 * rng.lattice3(-2, 2).cast<double>(), cb = 0.5 * rng.lattice3(-2, 2).cast<double>();
    const Pose pa = Pose::planar(ca.x(), ca.y(), rng.integer(0, 3) * std::numbers::pi / 2);
    const Pose pb = Pose::planar(cb.x(), cb.y(), rng.integer(0, 3) * std::numbers::pi / 2);
    const Eigen::AlignedBox3d ba = world_box(a, pa), bb = world_box(b, pb);
    const auto [exact, touch] = box_intersection(ba, bb, 2);
    touching += touch;
    overlapping += exact > 0.0;
    const double v = overlap_measure(a, pa, b, pb);
    ASSERT_TRUE(std::isfinite(v)) << trial;
    EXPECT_NEAR(v, exact, 1e-12) << trial;
    EXPECT_NEAR(overlap_measure(b, pb, a, pa), exact, 1e-12) << trial;
  }
  EXPECT_GT(touching, 50);
  EXPECT_GT(overlapping, 50);
}

// --- brute force, symmetry, rigid motion ---------------------------------

TEST(Overlap, RandomPolyhedraMatchMonteCarloAndAreSymmetricAndInvariant) {
  test::Sampler rng(2024), mc(99);
  int overlapping = 0, count = 0;
  double sum_z = 0.0;
  for (int trial = 0; trial < 200; ++trial) {
    const Shape a = random_body(rng), b = random_body(rng);
    const Pose pa = random_pose(rng, Vec3::Zero(), 0.1);
    const Pose pb = random_pose(rng, pa.position, 1.0);
    const double v = overlap_measure(a, pa, b, pb);
    ASSERT_TRUE(std::isfinite(v)) << trial;
    ASSERT_GE(v, 0.0) << trial;
    const Estimate e = brute_force(a, pa, b, pb, false, v, mc);
    if (v == 0.0) {
      EXPECT_EQ(e.hits, 0) << trial;
    } else {
      ++overlapping;
      EXPECT_LT(std::abs(e.z), 5.0) << trial << ": measured " << v << ", Monte Carlo " << e.value;
      sum_z += e.z;
      ++count;
    }
    // symmetry and a common rigid motion: equal to round-off
    EXPECT_NEAR(overlap_measure(b, pb, a, pa), v, 1e-12) << trial;
    Pose motion;
    motion.position = rng.vec3(-20, 20);
    motion.orientation = rng.rotation();
    EXPECT_NEAR(overlap_measure(a, moved(motion, pa), b, moved(motion, pb)), v, 1e-11) << trial;
  }
  EXPECT_GT(overlapping, 100);
  check_sum_of_z(sum_z, count);
}

TEST(Overlap, RandomPolygonsMatchMonteCarloAndAreSymmetricAndInvariant) {
  const std::vector<Polygon> pool = test::polygon_pool();
  test::Sampler rng(2025), mc(98);
  int overlapping = 0, count = 0;
  double sum_z = 0.0;
  for (int trial = 0; trial < 300; ++trial) {
    const Shape a = pool[static_cast<std::size_t>(rng.integer(0, static_cast<int>(pool.size()) - 1))];
    const Shape b = pool[static_cast<std::size_t>(rng.integer(0, static_cast<int>(pool.size()) - 1))];
    const Pose pa = Pose::planar(rng.uniform(-0.1, 0.1), rng.uniform(-0.1, 0.1), rng.uniform(-4, 4));
    const Vec2 d = rng.in_disc(1.0);
    const Pose pb = Pose::planar(d.x(), d.y(), rng.uniform(-4, 4));
    const double v = overlap_measure(a, pa, b, pb);
    ASSERT_TRUE(std::isfinite(v)) << trial;
    ASSERT_GE(v, 0.0) << trial;
    const Estimate e = brute_force(a, pa, b, pb, true, v, mc);
    if (v == 0.0) {
      EXPECT_EQ(e.hits, 0) << trial;
    } else {
      ++overlapping;
      EXPECT_LT(std::abs(e.z), 5.0) << trial << ": measured " << v << ", Monte Carlo " << e.value;
      sum_z += e.z;
      ++count;
    }
    EXPECT_NEAR(overlap_measure(b, pb, a, pa), v, 1e-12) << trial;
    const double th = rng.uniform(-4, 4);
    const Vec2 t = rng.vec2(-20, 20);
    const Pose motion = Pose::planar(t.x(), t.y(), th);
    EXPECT_NEAR(overlap_measure(a, moved(motion, pa), b, moved(motion, pb)), v, 1e-11) << trial;
  }
  EXPECT_GT(overlapping, 100);
  check_sum_of_z(sum_z, count);
}

TEST(Overlap, HalfSpacesAgainstRandomBodiesMatchMonteCarlo) {
  test::Sampler rng(31), mc(32);
  int count = 0;
  double sum_z = 0.0;
  for (int trial = 0; trial < 100; ++trial) {
    const Shape plane = HalfSpace{rng.direction(), rng.uniform(-0.3, 0.3)};
    Pose pp;
    pp.position = rng.vec3(-0.2, 0.2);
    pp.orientation = rng.rotation();
    const Shape body = random_body(rng);
    const Pose pb = random_pose(rng, Vec3::Zero(), 0.5);
    const double v = overlap_measure(plane, pp, body, pb);
    ASSERT_TRUE(std::isfinite(v));
    EXPECT_NEAR(overlap_measure(body, pb, plane, pp), v, 1e-12);
    const Estimate e = brute_force(plane, pp, body, pb, false, v, mc);
    if (v == 0.0) {
      EXPECT_EQ(e.hits, 0) << trial;
      continue;
    }
    EXPECT_LT(std::abs(e.z), 5.0) << trial << ": measured " << v << ", Monte Carlo " << e.value;
    sum_z += e.z;
    ++count;
  }
  check_sum_of_z(sum_z, count);
  // half-planes against polygons
  const std::vector<Polygon> pool = test::polygon_pool();
  count = 0;
  sum_z = 0.0;
  for (int trial = 0; trial < 100; ++trial) {
    const double angle = rng.uniform(-4, 4);
    const Shape plane = HalfSpace{Vec3(std::cos(angle), std::sin(angle), 0.0), rng.uniform(-0.3, 0.3)};
    const Pose pp = Pose::planar(rng.uniform(-0.2, 0.2), rng.uniform(-0.2, 0.2), rng.uniform(-4, 4));
    const Shape body = pool[static_cast<std::size_t>(trial) % pool.size()];
    const Pose pb = Pose::planar(rng.uniform(-0.5, 0.5), rng.uniform(-0.5, 0.5), rng.uniform(-4, 4));
    const double v = overlap_measure(plane, pp, body, pb);
    ASSERT_TRUE(std::isfinite(v));
    const Estimate e = brute_force(plane, pp, body, pb, true, v, mc);
    if (v == 0.0) {
      EXPECT_EQ(e.hits, 0) << trial;
      continue;
    }
    EXPECT_LT(std::abs(e.z), 5.0) << trial << ": measured " << v << ", Monte Carlo " << e.value;
    sum_z += e.z;
    ++count;
  }
  check_sum_of_z(sum_z, count);
}

// --- pairs of a model ------------------------------------------------------

TEST(Overlap, PairOverlapsListsOverlappingPairsOfTheModel) {
  Model model;
  model.options.dimension = Dimension::Planar;
  model.add_material("default");
  BodyModel floor;
  floor.name = "floor";
  floor.is_static = true;
  floor.shape = HalfSpace{Vec3::UnitY(), 0.0};
  BodyModel wall = floor;
  wall.name = "wall";
  wall.shape = HalfSpace{Vec3(-1, 0, 0), -3.4};  // the wall is x >= 3.4
  BodyModel box;
  box.name = "box";
  box.shape = make_rectangle(1, 1);
  box.mass = 1.0;
  model.add_body(floor);
  model.add_body(wall);
  model.add_body(box);
  model.add_body(box);
  State state;
  state.bodies.resize(4);
  state.bodies[0].pose = Pose::planar(0, 0, 0);
  state.bodies[1].pose = Pose::planar(0, 0, 0);  // floor and wall: a static pair, skipped
  state.bodies[2].pose = Pose::planar(3, 0.4, 0);    // 0.1 into the floor
  state.bodies[3].pose = Pose::planar(3.5, 1.2, 0);  // 0.2 x 0.5 into box 2
  const std::vector<PairOverlap> pairs = pair_overlaps(model, state);
  ASSERT_EQ(pairs.size(), 4u);  // floor-box2, wall-box2, wall-box3, box2-box3
  EXPECT_EQ(pairs[0].body_a, 0u);
  EXPECT_EQ(pairs[0].body_b, 2u);
  EXPECT_NEAR(pairs[0].measure, 0.1, 1e-12);
  EXPECT_EQ(pairs[3].body_a, 2u);
  EXPECT_EQ(pairs[3].body_b, 3u);
  EXPECT_NEAR(pairs[3].measure, 0.1, 1e-12);
  EXPECT_NEAR(total_overlap(model, state), pairs[0].measure + pairs[1].measure + pairs[2].measure + pairs[3].measure,
              1e-15);
  EXPECT_NEAR(pairs[1].measure, 0.1, 1e-12);  // box 2: x in [3.4, 3.5]
  EXPECT_NEAR(pairs[2].measure, 0.6, 1e-12);  // box 3: x in [3.4, 4]
}

}  // namespace
}  // namespace pegsim
