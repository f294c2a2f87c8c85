#include "dynamics/random_problem.hpp"

#include "dynamics/formulation_detail.hpp"

#include <algorithm>
#include <cmath>

namespace pegsim {

Vec3 ProblemRng::unit_vector() {
  for (;;) {
    const Vec3 v(uniform(-1, 1), uniform(-1, 1), uniform(-1, 1));
    const double r2 = v.squaredNorm();
    if (r2 > 1e-4 && r2 <= 1.0) return v / std::sqrt(r2);
  }
}

namespace {

// a rotation uniform over SO(3): a unit quaternion by rejection in the 4-ball
Mat3 random_rotation(ProblemRng& rng) {
  for (;;) {
    const Eigen::Vector4d v(rng.uniform(-1, 1), rng.uniform(-1, 1), rng.uniform(-1, 1), rng.uniform(-1, 1));
    const double r2 = v.squaredNorm();
    if (r2 > 1e-4 && r2 <= 1.0) return Eigen::Quaterniond(v / std::sqrt(r2)).toRotationMatrix();
  }
}

// a box of random size and mass: M^-1 with the world-frame R J^-1 R'
InverseMass random_body(ProblemRng& rng) {
  const double mass = rng.uniform(0.5, 5.0);
  const Vec3 size(rng.uniform(0.1, 2.0), rng.uniform(0.1, 2.0), rng.uniform(0.1, 2.0));
  const Vec3 s2 = size.cwiseProduct(size);
  const Vec3 inertia = mass / 12.0 * Vec3(s2.y() + s2.z(), s2.x() + s2.z(), s2.x() + s2.y());
  const Mat3 R = random_rotation(rng);
  InverseMass m;
  m.inv_mass = 1.0 / mass;
  m.linear_mask = Vec3::Ones();
  m.inv_inertia = R * inertia.cwiseInverse().asDiagonal() * R.transpose();
  return m;
}

// G column for direction d (eqs. 2.22, 2.26): -d at r_a on body A, +d at r_b on
// body B; kNoBody for the static world
JacobianRow row_for(std::uint32_t a, const Vec3& ra, std::uint32_t b, const Vec3& rb, const Vec3& d) {
  JacobianRow row;
  if (a != kNoBody) {
    row.body_a = a;
    row.ja << -d, -ra.cross(d);
  }
  if (b != kNoBody) {
    row.body_b = b;
    row.jb << d, rb.cross(d);
  }
  return row;
}

}  // namespace

LcpProblem random_contact_problem(const RandomProblemOptions& o, ProblemRng& rng) {
  const int k = std::max(o.contacts, 1);
  const int nb = o.bodies > 0 ? o.bodies : k / 2 + 1;
  const int nd = std::max(o.friction_directions, 2);
  std::vector<InverseMass> minv(nb);
  std::vector<Vec6> nu(nb);
  for (int i = 0; i < nb; ++i) {
    minv[i] = random_body(rng);
    for (int j = 0; j < 6; ++j) nu[i](j) = rng.uniform(-1.0, 1.0);
  }

  const int n_friction = k * nd;
  const int n = k + n_friction + k;
  LcpProblem p;
  p.A.setZero(n, n);
  p.b.setZero(n);
  p.bound.assign(n, RowBound::NonNegative);
  p.role.assign(n, RowRole::Normal);
  p.contact_of.assign(n, -1);
  LcpStructure& s = p.structure;
  s.rows.assign(n, JacobianRow{});
  std::vector<Vec3> dirs;
  for (int c = 0; c < k; ++c) {
    // the contact: a body and another one (or the static world), lever arms, a normal, mu
    const auto a = static_cast<std::uint32_t>(rng.index(nb));
    std::uint32_t b = kNoBody;
    if (nb > 1 && rng.uniform(0.0, 1.0) >= o.static_share)
      b = static_cast<std::uint32_t>((a + 1 + static_cast<std::uint32_t>(rng.index(nb - 1))) % static_cast<std::uint32_t>(nb));
    const Vec3 ra(rng.uniform(-1, 1), rng.uniform(-1, 1), rng.uniform(-1, 1));
    const Vec3 rb(rng.uniform(-1, 1), rng.uniform(-1, 1), rng.uniform(-1, 1));
    const Vec3 normal = rng.unit_vector();
    const double mu = rng.uniform(o.mu_min, o.mu_max);

    // rows in build_problem's order: normals, friction directions, slips (eq. 6.1)
    s.rows[c] = row_for(a, ra, b, rb, normal);
    friction_basis(normal, nd, Dimension::Spatial, dirs);
    const int first = k + c * nd, slip = k + n_friction + c;
    for (int d = 0; d < nd; ++d) {
      s.rows[first + d] = row_for(a, ra, b, rb, dirs[d]);
      p.role[first + d] = RowRole::Friction;
      p.contact_of[first + d] = c;
      p.A(first + d, slip) = 1.0;   // E
      p.A(slip, first + d) = -1.0;  // -E'
      s.coupling.push_back({first + d, slip, 1.0});
    }
    p.role[slip] = RowRole::Slip;
    p.contact_of[slip] = c;
    p.A(slip, c) = mu;  // U
    s.coupling.push_back({slip, c, mu});
    for (int d = 0; d < nd; ++d) s.coupling.push_back({slip, first + d, -1.0});
  }
  formulation_detail::fill_inverse_mass(minv, s);
  solver_detail::add_delassus(s, k + n_friction, p.A);
  for (int v = 0; v < k + n_friction; ++v) p.b(v) = formulation_detail::row_velocity(s.rows[v], nu);
  return p;
}

}  // namespace pegsim
