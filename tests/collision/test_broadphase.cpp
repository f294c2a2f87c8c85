// Broadphase: sweep and prune against brute force, order invariance, swept boxes.
#include "collision/broadphase.hpp"

#include <gtest/gtest.h>

#include "common/sampler.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <numeric>
#include <random>
#include <vector>

namespace pegsim {
namespace {

using Rng = test::Sampler;

constexpr double kInf = std::numeric_limits<double>::infinity();

std::vector<BodyPair> brute_pairs(const std::vector<Aabb>& boxes, const std::vector<bool>& is_static) {
  std::vector<BodyPair> out;
  for (std::uint32_t i = 0; i < boxes.size(); ++i)
    for (std::uint32_t j = i + 1; j < boxes.size(); ++j) {
      if (is_static[i] && is_static[j]) continue;
      bool overlap = true;
      for (int k = 0; k < 3; ++k)
        overlap = overlap && boxes[i].lo[k] <= boxes[j].hi[k] && boxes[j].lo[k] <= boxes[i].hi[k];
      if (overlap) out.push_back(BodyPair{i, j});
    }
  return out;
}

Aabb random_box(Rng& rng) {
  const Vec3 c(rng.uniform(-5, 5), rng.uniform(-5, 5), rng.uniform(-2, 2));
  const Vec3 h(rng.uniform(0.05, 1.0), rng.uniform(0.05, 1.0), rng.uniform(0.05, 1.0));
  return Aabb{c - h, c + h};
}

TEST(Broadphase, MatchesBruteForceOverManySteps) {
  Rng rng(3);
  SweepAndPrune sap;
  std::vector<BodyPair> pairs;
  for (int scene = 0; scene < 20; ++scene) {
    const int n = rng.integer(1, 120);
    std::vector<Aabb> boxes;
    std::vector<bool> is_static;
    for (int i = 0; i < n; ++i) {
      boxes.push_back(random_box(rng));
      is_static.push_back(rng.unit() < 0.2);
    }
    if (n > 3) {  // a half-space (unbounded box, static) and a lattice of touching boxes
      boxes[0] = Aabb{Vec3::Constant(-kInf), Vec3::Constant(kInf)};
      is_static[0] = true;
      boxes[1] = Aabb{Vec3(0, 0, 0), Vec3(1, 1, 1)};
      boxes[2] = Aabb{Vec3(1, 0, 0), Vec3(2, 1, 1)};  // touching faces overlap (closed boxes)
    }
    int total = 0;
    for (int step = 0; step < 30; ++step) {
      sap.find_pairs(boxes, is_static, pairs);
      const std::vector<BodyPair> expected = brute_pairs(boxes, is_static);
      ASSERT_EQ(pairs, expected) << "scene " << scene << " step " << step;
      total += static_cast<int>(pairs.size());
      // small motions: the kept order is nearly sorted
      for (std::size_t i = 3; i < boxes.size(); ++i) {
        const Vec3 d(rng.uniform(-0.2, 0.2), rng.uniform(-0.2, 0.2), rng.uniform(-0.2, 0.2));
        boxes[i].lo += d;
        boxes[i].hi += d;
      }
    }
    if (n > 20) {
      EXPECT_GT(total, 30) << "scene " << scene;
    }
  }
}

TEST(Broadphase, IndependentOfBodyOrder) {
  Rng rng(5);
  for (int trial = 0; trial < 50; ++trial) {
    const int n = rng.integer(2, 80);
    std::vector<Aabb> boxes;
    std::vector<bool> is_static;
    for (int i = 0; i < n; ++i) {
      boxes.push_back(random_box(rng));
      is_static.push_back(rng.unit() < 0.3);
    }
    // equal lower x values on purpose (ties in the sort key)
    if (n > 4) boxes[3].lo.x() = boxes[4].lo.x();
    SweepAndPrune sap;
    std::vector<BodyPair> base;
    sap.find_pairs(boxes, is_static, base);

    // relabel the bodies: body i becomes perm[i]
    std::vector<std::uint32_t> perm(static_cast<std::size_t>(n));
    std::iota(perm.begin(), perm.end(), 0u);
    for (int i = n - 1; i > 0; --i) std::swap(perm[static_cast<std::size_t>(i)], perm[static_cast<std::size_t>(rng.integer(0, i))]);
    std::vector<Aabb> boxes2(static_cast<std::size_t>(n));
    std::vector<bool> static2(static_cast<std::size_t>(n));
    for (int i = 0; i < n; ++i) {
      boxes2[perm[static_cast<std::size_t>(i)]] = boxes[static_cast<std::size_t>(i)];
      static2[perm[static_cast<std::size_t>(i)]] = is_static[static_cast<std::size_t>(i)];
    }
    SweepAndPrune sap2;
    std::vector<BodyPair> permuted;
    sap2.find_pairs(boxes2, static2, permuted);
    // sorted by (a, b)
    EXPECT_TRUE(std::is_sorted(permuted.begin(), permuted.end(), [](const BodyPair& p, const BodyPair& q) {
      return p.a < q.a || (p.a == q.a && p.b < q.b);
    }));
    std::vector<BodyPair> mapped;
    for (const BodyPair& p : base) {
      const std::uint32_t a = perm[p.a], b = perm[p.b];
      mapped.push_back(BodyPair{std::min(a, b), std::max(a, b)});
    }
    std::sort(mapped.begin(), mapped.end(),
              [](const BodyPair& p, const BodyPair& q) { return p.a < q.a || (p.a == q.a && p.b < q.b); });
    EXPECT_EQ(mapped, permuted);
    // a reused sweep whose kept order came from other boxes gives the same answer
    std::vector<BodyPair> reused;
    sap.find_pairs(boxes2, static2, reused);
    EXPECT_EQ(reused, permuted);
  }
}

TEST(Broadphase, StaticStaticNeverReported) {
  std::vector<Aabb> boxes(4, Aabb{Vec3::Zero(), Vec3::Ones()});
  std::vector<bool> is_static{true, true, false, true};
  SweepAndPrune sap;
  std::vector<BodyPair> pairs;
  sap.find_pairs(boxes, is_static, pairs);
  EXPECT_EQ(pairs, (std::vector<BodyPair>{{0, 2}, {1, 2}, {2, 3}}));
  sap.find_pairs({}, {}, pairs);
  EXPECT_TRUE(pairs.empty());
}

TEST(SweptBox, CoversBothPosesGrownByEps) {
  const Polyhedron box = make_box(Vec3(1, 2, 3));
  Pose now, next;
  now.position = Vec3(1, 0, 0);
  next.position = Vec3(1.5, -0.2, 0.1);
  next.orientation = Quat(Eigen::AngleAxisd(0.3, Vec3(1, 1, 0).normalized()));
  const double eps = 0.01;
  const Aabb b = swept_box(box, now, next, eps);
  Vec3 lo = Vec3::Constant(kInf), hi = Vec3::Constant(-kInf);
  for (const Pose& p : {now, next})
    for (const Vec3& v : box.vertices) {
      const Vec3 w = p.to_world(v);
      lo = lo.cwiseMin(w);
      hi = hi.cwiseMax(w);
    }
  EXPECT_NEAR((b.lo - (lo - Vec3::Constant(eps))).norm(), 0.0, 1e-12);
  EXPECT_NEAR((b.hi - (hi + Vec3::Constant(eps))).norm(), 0.0, 1e-12);

  const Aabb h = swept_box(HalfSpace{}, now, next, eps);
  EXPECT_TRUE(h.overlaps(b));
  for (int k = 0; k < 3; ++k) {
    EXPECT_EQ(h.lo[k], -kInf);
    EXPECT_EQ(h.hi[k], kInf);
  }

  const Polygon square = make_rectangle(1.0, 1.0);
  const Aabb s = swept_box(square, Pose::planar(0, 0, 0), Pose::planar(1, 0, M_PI / 4), eps);
  EXPECT_NEAR(s.lo.z(), -eps, 0.0);
  EXPECT_NEAR(s.hi.z(), eps, 0.0);
  EXPECT_NEAR(s.lo.x(), -0.5 - eps, 1e-12);
  EXPECT_NEAR(s.hi.x(), 1.0 + std::sqrt(0.5) + eps, 1e-12);
  EXPECT_NEAR(s.lo.y(), -std::sqrt(0.5) - eps, 1e-12);
  EXPECT_NEAR(s.hi.y(), std::sqrt(0.5) + eps, 1e-12);
}

}  // namespace
}  // namespace pegsim
