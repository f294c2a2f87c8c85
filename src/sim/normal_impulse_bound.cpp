#include "sim/normal_impulse_bound.hpp"

#include "sim/impulse_energy.hpp"

#include <algorithm>
#include <cstdio>
#include <limits>

namespace pegsim {

void NormalImpulseBound::configure(const Model& model) {
  // the energy bound's E on trees: per link body, 1 / the mass of the links under its root when that root
  // is floating (a point of a free tree has an effective mass of at most the tree's: translating the whole
  // tree is one of its motions), 0 under a fixed root (no bound); 0 for loose bodies (their own masses)
  link_inverse_mass_.assign(model.bodies.size(), 0.0);
  for (const TreeModel& t : model.trees) {
    const std::vector<articulated::Link>& links = t.tree.links();
    std::vector<int> root(links.size());
    std::vector<double> mass(links.size(), 0.0);  // per root: its links' mass
    for (std::size_t i = 0; i < links.size(); ++i) {
      root[i] = links[i].parent < 0 ? static_cast<int>(i) : root[static_cast<std::size_t>(links[i].parent)];
      mass[static_cast<std::size_t>(root[i])] += links[i].mass;
    }
    for (std::size_t i = 0; i < links.size(); ++i) {
      const std::size_t r = static_cast<std::size_t>(root[i]);
      if (links[r].joint == articulated::JointKind::Floating && mass[r] > 0.0)
        link_inverse_mass_[t.link_body[i]] = 1.0 / mass[r];
    }
  }
}

namespace {

// a = d'M v* is measured with d = v+ - v*, a difference: where the impulses
// change v* by little (a rounding-level overlap correction on a fast body), d
// keeps only about eps |v*| of absolute accuracy per velocity, and a is off
// by up to about n eps v*'M v* (n: the island's velocities). Seen: a ball
// spinning at 10 rad/s under a 1e-9 N s impulse, a measured 5e-18 J where
// z'N v* is 1e-20 J, above that step's E of 2e-18 J, so the bound scaled a
// certified impulse. The slack is 1e-13 v*'M v* (450 eps: islands of up to a
// few hundred velocities); it is far below any launch the bound is there to
// catch (joules, against 1e-13 of the island's kinetic energy).
constexpr double kDifferenceRounding = 1e-13;

// (K^-1)_nn of contact c's block K = [N; S; T]_c M^-1 [N; S; T]_c' (the
// island's metric): its normal effective mass with its tangents held;
// infinity when K is singular to rounding (NormalImpulseBound::apply).
double tree_row_mass(const ContactSpace& space, int c) {
  Eigen::Matrix<double, 3, Eigen::Dynamic> rows(3, space.m);
  rows.row(0) = space.N.row(c);
  rows.row(1) = space.S.row(c);
  rows.row(2) = space.T.row(c);
  const Mat3 K = rows * space.inverse_mass * rows.transpose();
  const Eigen::LDLT<Mat3> ldlt(0.5 * (K + K.transpose()));
  if (ldlt.info() != Eigen::Success || !(ldlt.vectorD().minCoeff() > 1e-12 * K.trace()))
    return std::numeric_limits<double>::infinity();
  return ldlt.solve(Vec3::UnitX())(0);
}

}  // namespace

// dT = d'M v* + 1/2 d'M d of an island's loose bodies, from their masses.
void NormalImpulseBound::bound_loose_bodies(const Model& model, const State& state, const ContactSpace& space,
                                            const std::vector<InverseMass>& inverse_mass, const VecX& v_free,
                                            const VecX& d, ImpulseWork& work) const {
  for (std::uint32_t b : space.bodies) {
    if (space.block[b] < 0) continue;  // a tree's link: in the tree's coordinates
    const int o = 6 * space.block[b];
    const BodyModel& body = model.bodies[b];
    const Vec3 mass = body.mass * inverse_mass[b].linear_mask;  // planar: no out-of-plane translation
    const Mat3 J = world_inertia(body, state.bodies[b], model.options.dimension);
    const Vec3 dv = d.segment<3>(o), dw = d.segment<3>(o + 3);
    const Vec3 p = mass.cwiseProduct(dv), L = J * dw;  // M d, per body
    const Vec3 v = v_free.segment<3>(o), w = v_free.segment<3>(o + 3);
    work.free_work += p.dot(v) + L.dot(w);
    work.quadratic += p.dot(dv) + L.dot(dw);
    work.rounding += kDifferenceRounding * (mass.cwiseProduct(v).dot(v) + w.dot(J * w));
  }
}

void NormalImpulseBound::apply(const Model& model, const State& state, const ContactSpace& space,
                               const ConstraintSet& set, const std::vector<InverseMass>& inverse_mass,
                               const VecX& v_free, const TreeStepping& tree_stepping, NormalLcp& lcp, VecX& z,
                               VecX& v, SolverResult& result, IslandReport& ir, StepReport& report) const {
  if (!model.options.energy_bound) return;
  const bool trees =
      std::any_of(space.tree_offset.begin(), space.tree_offset.end(), [](int offset) { return offset >= 0; });
  const int n = lcp.lcp.size();
  VecX reduced_mass(n);
  for (int c = 0; c < n; ++c) {
    if (c >= n - space.limit_rows) {  // a joint limit (trees only)
      reduced_mass(c) = std::numeric_limits<double>::infinity();
      continue;
    }
    const Contact& k = set.contacts[static_cast<std::size_t>(c)].contact;
    const double inverse = inverse_mass[k.body_a].inv_mass + inverse_mass[k.body_b].inv_mass +
                           link_inverse_mass_[k.body_a] + link_inverse_mass_[k.body_b];
    reduced_mass(c) = inverse > 0.0 ? 1.0 / inverse : trees ? std::numeric_limits<double>::infinity() : 0.0;
    if (trees) reduced_mass(c) = std::min(reduced_mass(c), tree_row_mass(space, c));
  }
  ImpulseWork work = normal_impulse_gap_work(lcp.lcp.b - space.N * lcp.base_velocity, z, reduced_mass);
  const VecX d = v - v_free;
  bound_loose_bodies(model, state, space, inverse_mass, v_free, d, work);
  for (std::size_t t = 0; trees && t < space.tree_offset.size(); ++t) {
    const int o = space.tree_offset[t];
    if (o < 0) continue;
    const Eigen::Index nv = model.trees[t].tree.nv();
    const VecX md = tree_stepping.inertia_times(t, d.segment(o, nv));  // M^ d, the tree's part
    work.free_work += md.dot(v_free.segment(o, nv));
    work.quadratic += md.dot(d.segment(o, nv));
  }
  double s = energy_bounded_scale(work);
  // the trees' part of the rounding slack (v*'M^ v*, one more product per tree) only where the rest did not
  // meet the bound: more slack never turns a met bound into a missed one
  if (s < 1.0 && trees) {
    for (std::size_t t = 0; t < space.tree_offset.size(); ++t) {
      const int o = space.tree_offset[t];
      if (o < 0) continue;
      const Eigen::Index nv = model.trees[t].tree.nv();
      const VecX mv = tree_stepping.inertia_times(t, v_free.segment(o, nv));
      work.rounding += kDifferenceRounding * std::abs(mv.dot(v_free.segment(o, nv)));
    }
    s = energy_bounded_scale(work);
  }
  if (s >= 1.0) return;
  z *= s;
  lcp.tangent_impulse *= s;
  v = v_free + s * d;
  ir.impulse_scale = s;
  ir.certified = false;  // a solution that launches bodies is not one to trust
  ++report.impulses_scaled;
  char part[96];
  std::snprintf(part, sizeof part, "; impulses scaled by %.3g to the energy bound", s);
  result.message += part;
  if (result.ok()) result.status = SolverStatus::NumericalFailure;
  SolverResult measured;
  measure_residuals(lcp.lcp, z, measured);
  ir.complementarity = measured.complementarity;
  ir.feasibility = measured.feasibility;
}

}  // namespace pegsim
