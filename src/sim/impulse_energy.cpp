#include "sim/impulse_energy.hpp"

#include "dynamics/formulation_detail.hpp"

#include <algorithm>
#include <cmath>

namespace pegsim {

// E's room above 1/2 (sum d_i sqrt(mu_i))^2, which one contact reaches
// exactly: 4 (the rows' speeds doubled). Over 1000 random pours
// (bench/pour_soak.cpp) six certified islands around a few contacts on
// spinning hulls reached 1.1-3.1x of it, the launches 5.8x to 450,000x
// (docs/reliability.md, "The energy bound").
constexpr double kGapEnergyFactor = 4.0;

// G and E's sum sum_i d_i sqrt(mu_i) over the rows with an impulse, row by
// row (both forms of the bound, see the header).
struct GapTerms {
  double work = 0.0;          // G
  double momentum_sum = 0.0;  // sum d_i sqrt(mu_i)
  void add(double impulse, double gap, double reduced_mass) {
    work += std::max(0.0, -impulse * gap);
    if (gap < 0.0) momentum_sum += -gap * std::sqrt(reduced_mass);
  }
  void into(ImpulseWork& w) const {
    w.gap_work = work;
    w.gap_energy = kGapEnergyFactor * 0.5 * momentum_sum * momentum_sum;
  }
};

ImpulseWork impulse_work(const StepProblem& problem, const VecX& z, const std::vector<InverseMass>& inverse_mass,
                         const std::vector<Vec6>& free_velocity) {
  const LcpStructure& st = problem.lcp.structure;
  // reused: a step allocates nothing
  thread_local std::vector<Vec6> impulse;   // p = G z per body the rows name
  thread_local std::vector<Vec6> velocity;  // nu* of those bodies, in their numbering
  body_impulses(st, z, free_velocity.size(), impulse);
  velocity.resize(impulse.size());
  for (std::size_t b = 0; b < impulse.size(); ++b) velocity[b] = free_velocity[st.scene_index(static_cast<std::uint32_t>(b))];
  auto reduced_mass = [&](const JacobianRow& r) {  // 1 / (1/m_a + 1/m_b) of the row's bodies
    double inverse = 0.0;
    if (r.body_a != kNoBody) inverse += inverse_mass[st.scene_index(r.body_a)].inv_mass;
    if (r.body_b != kNoBody) inverse += inverse_mass[st.scene_index(r.body_b)].inv_mass;
    return inverse > 0.0 ? 1.0 / inverse : 0.0;
  };
  ImpulseWork work;
  GapTerms gaps;
  for (std::size_t v = 0; v < st.rows.size(); ++v) {
    const JacobianRow& r = st.rows[v];
    if (z(v) == 0.0 || (r.body_a == kNoBody && r.body_b == kNoBody)) continue;  // slip and PEG slack rows: no impulse
    // what the row measures of nu*: R_i' nu* (R = G + extra for PEG's rows)
    double measured = formulation_detail::row_velocity(r, velocity);
    double target = r.prescribed;
    if (const JacobianRow* x = st.measure(static_cast<int>(v))) {  // PEG's rows; joint rows appended after them have none
      measured += formulation_detail::row_velocity(*x, velocity);
      target += x->prescribed;
    }
    const double e = problem.lcp.b(static_cast<Eigen::Index>(v)) - measured;
    const bool joint = v < problem.var_joint.size() && problem.var_joint[v] >= 0;
    if (joint) target = e;  // a joint's stabilization (and motor) terms: targets, not gaps
    const double gap = e - target;
    work.target_work += std::max(0.0, -z(v) * target);
    gaps.add(z(v), gap, reduced_mass(r));
  }
  gaps.into(work);
  for (std::size_t b = 0; b < impulse.size(); ++b) {
    work.free_work += impulse[b].dot(velocity[b]);
    work.quadratic += impulse[b].dot(inverse_mass[st.scene_index(static_cast<std::uint32_t>(b))].apply(impulse[b]));
  }
  return work;
}

ImpulseWork normal_impulse_gap_work(const VecX& gap_term, const VecX& f, const VecX& reduced_mass) {
  GapTerms gaps;
  for (Eigen::Index i = 0; i < f.size(); ++i)
    if (f(i) != 0.0) gaps.add(f(i), gap_term(i), reduced_mass(i));
  ImpulseWork work;
  gaps.into(work);
  return work;
}

double energy_bounded_scale(const ImpulseWork& w) {
  const double slack = 1e-9 * (std::abs(w.free_work) + w.quadratic + w.target_work + w.gap_work) + w.rounding;
  const double bound = std::min(w.gap_work, w.gap_energy);
  if (w.energy_change() <= w.target_work + bound + slack) return 1.0;
  // s a + 1/2 s^2 c <= s T + B: the positive root of 1/2 c s^2 + (a - T) s - B
  const double linear = w.free_work - w.target_work;
  if (!(w.quadratic > 0.0)) return linear > 0.0 ? std::clamp(bound / linear, 0.0, 1.0) : 1.0;
  const double s = (-linear + std::sqrt(linear * linear + 2.0 * w.quadratic * bound)) / w.quadratic;
  return std::isfinite(s) ? std::clamp(s, 0.0, 1.0) : 0.0;  // overflowed impulses: none applied
}

}  // namespace pegsim
