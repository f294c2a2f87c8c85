#include "joints/joint_correction.hpp"

#include "dynamics/integration.hpp"
#include "dynamics/mass.hpp"
#include "joints/joint_rows.hpp"

#include <Eigen/Cholesky>

#include <algorithm>
#include <cmath>

namespace pegsim {
namespace {

// All joints' bilateral rows at the state, with each row's joint.
struct JointSystem {
  std::vector<JointRow> rows;
  std::vector<int> joint_of;  // per row
};

void build_system(const Model& model, const State& state, JointSystem& s) {
  s.rows.clear();
  s.joint_of.clear();
  for (std::size_t j = 0; j < model.joints.size(); ++j) {
    const JointFrames f = joint_frames(model.joints[j], model, state);
    bilateral_rows(model.joints[j], f, model.options.dimension, s.rows);
    s.joint_of.resize(s.rows.size(), static_cast<int>(j));
  }
}

double rate(const JacobianRow& r, const State& state) {
  double w = 0.0;
  if (r.body_a != kNoBody) w += r.ja.dot(velocity_of(state.bodies[r.body_a]));
  if (r.body_b != kNoBody) w += r.jb.dot(velocity_of(state.bodies[r.body_b]));
  return w;
}

// max over joints of the norm of a per-row vector
double largest_joint_norm(const JointSystem& s, const VecX& per_row, std::size_t joints) {
  std::vector<double> sq(joints, 0.0);
  for (std::size_t i = 0; i < s.rows.size(); ++i) sq[s.joint_of[i]] += per_row(i) * per_row(i);
  double worst = 0.0;
  for (double v : sq) worst = std::max(worst, std::sqrt(v));
  return worst;
}

VecX errors(const JointSystem& s) {
  VecX c(s.rows.size());
  for (std::size_t i = 0; i < s.rows.size(); ++i) c(i) = s.rows[i].error;
  return c;
}

VecX rates(const JointSystem& s, const State& state) {
  VecX c(s.rows.size());
  for (std::size_t i = 0; i < s.rows.size(); ++i) c(i) = rate(s.rows[i].row, state);
  return c;
}

// dnu = M^-1 G p with p = -(G' M^-1 G)^-1 rhs, per body
std::vector<Vec6> projection(const Model& model, const State& state, const JointSystem& s, const VecX& rhs) {
  const std::size_t nb = model.bodies.size();
  std::vector<InverseMass> minv(nb);
  for (std::size_t b = 0; b < nb; ++b) minv[b] = world_inverse_mass(model.bodies[b], state.bodies[b], model.options.dimension);
  const int m = static_cast<int>(s.rows.size());
  // M^-1 G, row by row (at most two bodies each)
  std::vector<Vec6> ma(m, Vec6::Zero()), mb(m, Vec6::Zero());
  for (int i = 0; i < m; ++i) {
    const JacobianRow& r = s.rows[i].row;
    if (r.body_a != kNoBody) ma[i] = minv[r.body_a].apply(r.ja);
    if (r.body_b != kNoBody) mb[i] = minv[r.body_b].apply(r.jb);
  }
  MatX K = MatX::Zero(m, m);
  for (int i = 0; i < m; ++i)
    for (int j = 0; j < m; ++j) {
      const JacobianRow& ri = s.rows[i].row;
      const JacobianRow& rj = s.rows[j].row;
      double v = 0.0;
      if (ri.body_a != kNoBody && ri.body_a == rj.body_a) v += ri.ja.dot(ma[j]);
      if (ri.body_a != kNoBody && ri.body_a == rj.body_b) v += ri.ja.dot(mb[j]);
      if (ri.body_b != kNoBody && ri.body_b == rj.body_a) v += ri.jb.dot(ma[j]);
      if (ri.body_b != kNoBody && ri.body_b == rj.body_b) v += ri.jb.dot(mb[j]);
      K(i, j) = v;
    }
  // a closed loop makes K singular (redundant rows): a tiny ridge keeps the
  // solve defined; the dependent rows' errors are consistent, so it changes
  // the projection by a relative 1e-12 only
  const double ridge = 1e-12 * (1.0 + K.diagonal().cwiseAbs().maxCoeff());
  K.diagonal().array() += ridge;
  const VecX p = -K.ldlt().solve(rhs);
  std::vector<Vec6> dnu(nb, Vec6::Zero());
  for (int i = 0; i < m; ++i) {
    const JacobianRow& r = s.rows[i].row;
    if (r.body_a != kNoBody) dnu[r.body_a] += ma[i] * p(i);
    if (r.body_b != kNoBody) dnu[r.body_b] += mb[i] * p(i);
  }
  return dnu;
}

void add_velocity(const Model& model, const std::vector<Vec6>& dnu, State& state) {
  for (std::size_t b = 0; b < model.bodies.size(); ++b) {
    if (model.bodies[b].is_static) continue;
    state.bodies[b].linear_velocity += dnu[b].head<3>();
    state.bodies[b].angular_velocity += dnu[b].tail<3>();
  }
}

}  // namespace

JointErrors measure_joint_errors(const Model& model, const State& state) {
  JointSystem s;
  build_system(model, state, s);
  JointErrors e;
  if (s.rows.empty()) return e;
  e.position = largest_joint_norm(s, errors(s), model.joints.size());
  e.velocity = largest_joint_norm(s, rates(s, state), model.joints.size());
  return e;
}

JointCorrection correct_joints(const Model& model, State& state) {
  const JointOptions& o = model.options.joints;
  const double h = model.options.h;
  const std::size_t nj = model.joints.size();
  JointCorrection out;
  JointSystem s;
  build_system(model, state, s);
  out.before.position = s.rows.empty() ? 0.0 : largest_joint_norm(s, errors(s), nj);
  out.before.velocity = s.rows.empty() ? 0.0 : largest_joint_norm(s, rates(s, state), nj);
  if (s.rows.empty()) return out;

  // position: q += V dnu h and nu += dnu with dnu = -M^-1 G K^-1 C / h
  VecX c = errors(s);
  while (largest_joint_norm(s, c, nj) > o.eps_p && out.position_iterations < o.correction_iterations) {
    std::vector<Vec6> dnu = projection(model, state, s, c / h);
    add_velocity(model, dnu, state);
    for (Vec6& d : dnu) d *= h;
    displace(model, dnu, state);
    ++out.position_iterations;
    build_system(model, state, s);
    c = errors(s);
  }
  // velocity: nu += -M^-1 G K^-1 G' nu at the corrected pose
  VecX cdot = rates(s, state);
  while (largest_joint_norm(s, cdot, nj) > o.eps_v && out.velocity_iterations < o.correction_iterations) {
    add_velocity(model, projection(model, state, s, cdot), state);
    ++out.velocity_iterations;
    cdot = rates(s, state);
  }
  out.after.position = largest_joint_norm(s, c, nj);
  out.after.velocity = largest_joint_norm(s, cdot, nj);
  return out;
}

}  // namespace pegsim
