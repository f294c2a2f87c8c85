// The collision table (collision/collision_table.hpp): every ordered pair of
// registered shape kinds has a rule, the pairs that cannot touch give nothing,
// and find_contacts through the table gives bit for bit the contacts of the
// kind pair's routine called directly (and, for a compound, of the routine
// over each pair of parts).
#include "collision/collision_table.hpp"

#include <gtest/gtest.h>

#include "common/sampler.hpp"

#include <cstring>
#include <vector>

namespace pegsim {
namespace {

using Rule = CollisionTable::Rule;

void expect_same(const std::vector<Contact>& x, const std::vector<Contact>& y) {
  ASSERT_EQ(x.size(), y.size());
  for (std::size_t i = 0; i < x.size(); ++i) {
    const Contact &a = x[i], &b = y[i];
    EXPECT_EQ(a.body_a, b.body_a);
    EXPECT_EQ(a.body_b, b.body_b);
    EXPECT_EQ(a.kind, b.kind);
    EXPECT_EQ(a.features.feature_a, b.features.feature_a);
    EXPECT_EQ(a.features.feature_b, b.features.feature_b);
    EXPECT_EQ(a.part_a, b.part_a);
    EXPECT_EQ(a.part_b, b.part_b);
    EXPECT_EQ(a.features.primary, b.features.primary);
    for (const auto& [u, v] : {std::pair{&a.point_a, &b.point_a}, {&a.point_b, &b.point_b}, {&a.normal, &b.normal}})
      EXPECT_EQ(std::memcmp(u->data(), v->data(), 3 * sizeof(double)), 0);
    EXPECT_EQ(std::memcmp(&a.gap, &b.gap, sizeof(double)), 0);
    EXPECT_EQ(std::memcmp(&a.features.applicability, &b.features.applicability, sizeof(double)), 0);
  }
}

TEST(CollisionTable, EveryPairHasARule) {
  const CollisionTable& t = collision_table();
  for (std::size_t a = 0; a < kShapeKindCount; ++a)
    for (std::size_t b = 0; b < kShapeKindCount; ++b) {
      const CollisionTable::Entry& e = t.at(a, b);
      EXPECT_NE(e.rule, Rule::Missing) << kShapeKinds[a].name << " x " << kShapeKinds[b].name;
      EXPECT_EQ(e.rule == Rule::Call, e.routine != nullptr);
    }
  EXPECT_EQ(t.at(kind_index<HalfSpace>, kind_index<HalfSpace>).rule, Rule::None);
  EXPECT_EQ(t.at(kind_index<Polyhedron>, kind_index<Polygon>).rule, Rule::None);
  EXPECT_EQ(t.at(kind_index<Polygon>, kind_index<Polyhedron>).rule, Rule::None);
  for (std::size_t k = 0; k < kShapeKindCount; ++k) {
    EXPECT_EQ(t.at(kind_index<Compound>, k).rule, Rule::Parts);
    EXPECT_EQ(t.at(k, kind_index<Compound>).rule, Rule::Parts);
  }
}

TEST(CollisionTable, PairsThatCannotTouchGiveNothing) {
  const Shape ground = HalfSpace{}, box = make_cube(1.0), square = make_rectangle(1.0, 1.0);
  std::vector<Contact> out;
  find_contacts({0, &ground, Pose()}, {1, &ground, Pose()}, NarrowphaseParams{}, out);
  find_contacts({0, &box, Pose()}, {1, &square, Pose()}, NarrowphaseParams{}, out);
  find_contacts({0, &square, Pose()}, {1, &box, Pose()}, NarrowphaseParams{}, out);
  EXPECT_TRUE(out.empty());
}

TEST(CollisionTable, DispatchIsTheRoutine) {
  test::Sampler rng(5);
  NarrowphaseParams params;
  params.eps = 0.05;
  for (int trial = 0; trial < 300; ++trial) {
    const Shape a = make_box(Vec3(rng.uniform(0.5, 1.5), rng.uniform(0.5, 1.5), rng.uniform(0.5, 1.5)));
    const Shape b = make_octahedron(rng.uniform(0.5, 1.5));
    const Shape ground = HalfSpace{rng.direction(), rng.uniform(-0.2, 0.2)};
    Pose pa, pb;
    pa.orientation = rng.rotation();
    pb.orientation = rng.rotation();
    pb.position = rng.in_ball(1.5);
    const BodyGeometry ga{1, &a, pa}, gb{2, &b, pb}, gh{0, &ground, Pose()};
    std::vector<Contact> via, direct;
    find_contacts(ga, gb, params, via);
    find_contacts_polyhedra(ga, std::get<Polyhedron>(a), gb, std::get<Polyhedron>(b), params, direct);
    expect_same(via, direct);
    for (const BodyGeometry* g : {&ga, &gb}) {
      const Polyhedron& p = std::get<Polyhedron>(*g->shape);
      via.clear(), direct.clear();
      find_contacts(gh, *g, params, via);
      find_contacts_half_space(gh, std::get<HalfSpace>(ground), *g, p, params, direct);
      expect_same(via, direct);
      via.clear();
      find_contacts(*g, gh, params, via);  // the half-space stays body A
      expect_same(via, direct);
    }
    // a compound of the two: the routine over every pair of parts, tagged with them
    Polyhedron left = std::get<Polyhedron>(a), right = std::get<Polyhedron>(b);
    right.translate(Vec3(0.4, 0.0, 0.0));
    const Shape c = make_compound({left, right});
    const BodyGeometry gc{3, &c, pb};
    via.clear(), direct.clear();
    find_contacts(ga, gc, params, via);
    for (int j = 0; j < 2; ++j) {
      const std::size_t first = direct.size();
      const Shape& part = part_of(c, j);
      find_contacts_polyhedra(ga, std::get<Polyhedron>(a), {3, &part, pb}, std::get<Polyhedron>(part), params,
                              direct);
      for (std::size_t k = first; k < direct.size(); ++k) {
        const bool same_order = direct[k].body_a == ga.index;
        direct[k].part_a = static_cast<std::uint16_t>(same_order ? 0 : j);
        direct[k].part_b = static_cast<std::uint16_t>(same_order ? j : 0);
      }
    }
    expect_same(via, direct);
  }
}

TEST(CollisionTable, DispatchIsTheRoutine2d) {
  test::Sampler rng(6);
  NarrowphaseParams params;
  params.eps = 0.05;
  for (int trial = 0; trial < 300; ++trial) {
    const Shape a = make_regular_polygon(rng.integer(3, 9), rng.uniform(0.5, 1.0));
    const Shape b = make_rectangle(rng.uniform(0.5, 1.5), rng.uniform(0.5, 1.5));
    const Vec2 n = rng.in_disc(1.0).normalized();
    const Shape ground = HalfSpace{lift(n), rng.uniform(-0.2, 0.2)};
    const Pose pa = Pose::planar(0.0, 0.0, rng.uniform(-3, 3));
    const Pose pb = Pose::planar(rng.uniform(-1.2, 1.2), rng.uniform(-1.2, 1.2), rng.uniform(-3, 3));
    const BodyGeometry ga{1, &a, pa}, gb{2, &b, pb}, gh{0, &ground, Pose()};
    std::vector<Contact> via, direct;
    find_contacts(ga, gb, params, via);
    find_contacts_polygons(ga, std::get<Polygon>(a), gb, std::get<Polygon>(b), params, direct);
    expect_same(via, direct);
    via.clear(), direct.clear();
    find_contacts(gb, gh, params, via);
    find_contacts_half_space(gh, std::get<HalfSpace>(ground), gb, std::get<Polygon>(b), params, direct);
    expect_same(via, direct);
  }
}

}  // namespace
}  // namespace pegsim
