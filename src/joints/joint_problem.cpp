#include "joints/joint_problem.hpp"

#include "dynamics/formulation_detail.hpp"
#include "joints/joint_rows.hpp"

#include <algorithm>
#include <utility>

namespace pegsim {
namespace {

// One appended variable before it is placed.
struct NewRow {
  JacobianRow row;
  double b = 0.0;
  RowBound bound = RowBound::NonNegative;
  RowRole role = RowRole::Other;
  int joint = -1, joint_row = 0;
};

double free_rate(const JacobianRow& row, const std::vector<Vec6>& nu) {
  double w = 0.0;
  if (row.body_a != kNoBody) w += row.ja.dot(nu[row.body_a]);
  if (row.body_b != kNoBody) w += row.jb.dot(nu[row.body_b]);
  return w;
}

JacobianRow negated(JacobianRow row) {
  row.ja = -row.ja;
  row.jb = -row.jb;
  return row;
}

// The bounded row |p| <= bound (motor or friction): p+, p-, sigma (see the header).
void add_bounded(const JacobianRow& g, double rate, double target, double bound, int joint, int& ordinal,
                 std::vector<NewRow>& rows, std::vector<LcpStructure::Entry>& coupling, int first) {
  const int plus = first + static_cast<int>(rows.size());
  rows.push_back({g, rate - target, RowBound::NonNegative, RowRole::Other, joint, ordinal++});
  rows.push_back({negated(g), target - rate, RowBound::NonNegative, RowRole::Other, joint, ordinal++});
  rows.push_back({JacobianRow{}, bound, RowBound::NonNegative, RowRole::Other, joint, ordinal++});
  const int sigma = plus + 2;
  coupling.push_back({plus, sigma, 1.0});        // E
  coupling.push_back({plus + 1, sigma, 1.0});
  coupling.push_back({sigma, plus, -1.0});       // -E'
  coupling.push_back({sigma, plus + 1, -1.0});
}

// j_row(body): a row's Jacobian on one body (both sides when it names the body twice)
Vec6 side(const JacobianRow& r, std::uint32_t body) {
  Vec6 j = Vec6::Zero();
  if (r.body_a == body) j += r.ja;
  if (r.body_b == body) j += r.jb;
  return j;
}

// A_ij += G_i' M^-1 G_j for the joint rows i >= first against every row j
// sharing a body (and A_ji for the rows before first), each entry summed as
// add_delassus sums it (solvers/delassus.hpp: a pair of joint rows reads the
// lower row against M^-1 of the higher, which until 2026-11-29 was the other
// way round, and A differed from the assembled one in the last bit). The
// rows' bodies are the island's numbers (LcpStructure::scene_body), minv the
// scene's.
void fill_joint_delassus(const LcpStructure& structure, int first, const std::vector<InverseMass>& minv, MatX& A) {
  const std::vector<JacobianRow>& rows = structure.rows;
  const int n = static_cast<int>(rows.size());
  thread_local std::vector<std::vector<int>> by_body;  // rows per island body
  by_body.resize(std::max(by_body.size(), structure.scene_body.size()));
  for (std::size_t b = 0; b < structure.scene_body.size(); ++b) by_body[b].clear();
  for (int j = 0; j < n; ++j) {
    if (rows[j].body_a != kNoBody) by_body[rows[j].body_a].push_back(j);
    if (rows[j].body_b != kNoBody && rows[j].body_b != rows[j].body_a) by_body[rows[j].body_b].push_back(j);
  }
  for (int i = first; i < n; ++i) {
    for (std::uint32_t body : {rows[i].body_a, rows[i].body_b}) {
      if (body == kNoBody || (body == rows[i].body_b && rows[i].body_a == rows[i].body_b)) continue;
      const Vec6 mi = minv[structure.scene_index(body)].apply(side(rows[i], body));
      for (int j : by_body[body]) {
        // j_lower' (M^-1 j_higher), as add_delassus sums it (solvers/delassus.hpp)
        const double v = j <= i ? side(rows[j], body).dot(mi)
                                : side(rows[i], body).dot(minv[structure.scene_index(body)].apply(side(rows[j], body)));
        A(i, j) += v;
        if (j < first) A(j, i) += v;
      }
    }
  }
}

// PEG's rows that measure other sub-contacts (LcpStructure::measures, R - G)
// read M^-1 of every column on their bodies, the joint rows' too; until
// 2026-11-29 PEG's A left the joints' part out (its (R - G)' M^-1 G entries
// were formed over PEG's own columns before the joint rows were appended).
// The complete A changes one step of grasp-2d at h = 2.5e-4 (step 5944, the
// same state and b): path and Lemke then both return impulses that raise the
// kinetic energy by 7.5e-6 J, over the energy bound (4.2e-6 J, a launch by its
// calibration, sim/impulse_energy.hpp), where the old A's solution lost 1.9e-5
// J. Until that is understood, C takes those terms back out: -x_i(b)' M_b^-1
// g_j(b) for each measuring row i and joint column j on body b, appended to
// `coupling` in the order add_measures sums the terms (rows, then the measure's
// sides, then columns), so every reader (dense, structured) sees the previous A.
void cancel_measures_of_joints(const LcpStructure& structure, int first, std::vector<LcpStructure::Entry>& coupling) {
  const int measuring = std::min(first, static_cast<int>(structure.measures.size()));
  const int n = static_cast<int>(structure.rows.size());
  for (int i = 0; i < measuring; ++i) {
    const JacobianRow& x = structure.measures[static_cast<std::size_t>(i)];
    for (const auto& [body, xb] : {std::pair{x.body_a, &x.ja}, std::pair{x.body_b, &x.jb}}) {
      if (body == kNoBody) continue;
      for (int j = first; j < n; ++j) {
        const JacobianRow& g = structure.rows[static_cast<std::size_t>(j)];
        if (g.body_a == body || g.body_b == body)
          coupling.push_back(
              {i, j, -xb->dot(solver_detail::inverse_mass_times(structure.inverse_mass[body], side(g, body)))});
      }
    }
  }
}

}  // namespace

void append_joint_rows(const FormulationInput& in, const std::vector<int>& joints, StepProblem& out) {
  const Model& model = *in.model;
  const Dimension dim = model.options.dimension;
  const JointOptions& options = model.options.joints;
  const std::vector<Vec6>& nu = *in.free_velocity;
  LcpProblem& lcp = out.lcp;
  const int first = lcp.size();
  out.var_joint.assign(first, -1);
  out.var_joint_row.assign(first, -1);
  if (joints.empty()) return;

  // the rows, joint by joint: bilateral, limits, motor, friction, damping
  std::vector<NewRow> rows;
  std::vector<LcpStructure::Entry> coupling;
  std::vector<JointRow> bilateral;
  for (int j : joints) {
    const JointModel& joint = model.joints[j];
    const JointFrames frames = joint_frames(joint, model, *in.state);
    int ordinal = 0;
    bilateral.clear();
    bilateral_rows(joint, frames, dim, bilateral);
    for (const JointRow& r : bilateral) {
      const double stabilization = options.stabilization ? r.error / in.h : 0.0;  // psi_b / h, eq. 2.28
      rows.push_back({r.row, free_rate(r.row, nu) + stabilization, RowBound::Free, RowRole::Bilateral, j, ordinal++});
    }
    if (joint_coordinate(joint.kind) == JointCoordinate::None) continue;
    const JacobianRow g = coordinate_row(joint, frames, dim);
    const double rate = free_rate(g, nu);
    if (joint.limit.enabled) {
      const double q = joint_position(joint, frames, dim, *in.state, j);  // unwrapped: limits may lie beyond pi
      rows.push_back({g, rate + (q - joint.limit.lower) / in.h, RowBound::NonNegative, RowRole::Other, j, ordinal++});
      rows.push_back({negated(g), -rate + (joint.limit.upper - q) / in.h, RowBound::NonNegative, RowRole::Other, j,
                      ordinal++});
    }
    if (joint.motor.enabled)
      add_bounded(g, rate, joint.motor.velocity, joint.motor.max_force * in.h, j, ordinal, rows, coupling, first);
    if (joint.friction > 0.0)
      add_bounded(g, rate, 0.0, joint.friction * in.h, j, ordinal, rows, coupling, first);
    if (joint.damping > 0.0) {
      const int v = first + static_cast<int>(rows.size());
      rows.push_back({g, rate, RowBound::Free, RowRole::Bilateral, j, ordinal++});
      coupling.push_back({v, v, 1.0 / (joint.damping * in.h)});  // p / (c h)
    }
  }

  // place them after the contact rows
  const int m = static_cast<int>(rows.size());
  const int n = first + m;
  LcpStructure& structure = lcp.structure;
  structure.rows.resize(n);
  lcp.b.conservativeResize(n);
  if (lcp.bound.empty()) lcp.bound.assign(first, RowBound::NonNegative);
  if (lcp.role.empty()) lcp.role.assign(first, RowRole::Other);
  if (lcp.contact_of.empty()) lcp.contact_of.assign(first, -1);
  lcp.bound.resize(n);
  lcp.role.resize(n);
  lcp.contact_of.resize(n, -1);
  if (lcp.layout.rows == first) {  // the joint rows belong to no contact block (LcpProblem::layout)
    lcp.layout.contact_at.resize(static_cast<std::size_t>(n), -1);
    lcp.layout.rows = n;
  }
  out.next_normal_var.resize(n, -1);
  out.var_contact.resize(n, -1);
  out.friction_direction.resize(n, Vec3::Zero());
  out.var_joint.resize(n);
  out.var_joint_row.resize(n);
  for (int k = 0; k < m; ++k) {
    const int v = first + k;
    structure.rows[v] = rows[k].row;
    lcp.b(v) = rows[k].b;
    lcp.bound[v] = rows[k].bound;
    lcp.role[v] = rows[k].role;
    out.var_joint[v] = rows[k].joint;
    out.var_joint_row[v] = rows[k].joint_row;
  }
  number_island_bodies(structure, *in.inverse_mass, static_cast<std::size_t>(first));
  const std::size_t cancels = coupling.size();  // coupling[cancels ..]: the measures' joint terms taken out
  cancel_measures_of_joints(structure, first, coupling);
  structure.coupling.insert(structure.coupling.end(), coupling.begin(), coupling.end());
  if (!in.matrix) {
    lcp.A.resize(0, 0);
    return;
  }
  // the dense A: the old block kept, the new rows and columns filled
  MatX grown = MatX::Zero(n, n);
  if (first > 0 && lcp.A.rows() == first) grown.topLeftCorner(first, first) = lcp.A;
  lcp.A = std::move(grown);
  fill_joint_delassus(structure, first, *in.inverse_mass, lcp.A);
  // then the measures' terms of the joint columns, as assemble_matrix adds them
  // after the Delassus terms (add_measures): the cancellations, negated back
  for (std::size_t k = cancels; k < coupling.size(); ++k) lcp.A(coupling[k].row, coupling[k].col) -= coupling[k].value;
  for (const LcpStructure::Entry& e : coupling) lcp.A(e.row, e.col) += e.value;
}

}  // namespace pegsim

namespace pegsim {

void add_joint_reactions(const Model& model, const State& state, const StepProblem& problem, const VecX& z, double h,
                         std::vector<Vec6>& wrenches) {
  const std::vector<JacobianRow>& rows = problem.lcp.structure.rows;
  for (std::size_t v = 0; v < problem.var_joint.size() && v < rows.size(); ++v) {
    const int j = problem.var_joint[v];
    if (j < 0 || z(static_cast<Eigen::Index>(v)) == 0.0) continue;
    const JointModel& joint = model.joints[j];
    const JointFrames f = joint_frames(joint, model, state);
    const double p = z(static_cast<Eigen::Index>(v)) / h;
    const JacobianRow& r = rows[v];
    Vec3 force, torque;
    if (r.body_b != kNoBody) {  // on B: [f; tau about u_B], moved to P_b
      force = p * r.jb.head<3>();
      torque = p * r.jb.tail<3>() - (f.pb - f.ub).cross(force);
    } else {  // minus the wrench on A, moved to P_b
      const Vec3 fa = p * r.ja.head<3>();
      force = -fa;
      torque = -(p * r.ja.tail<3>() - (f.pb - f.ua).cross(fa));
    }
    wrenches[j].head<3>() += force;
    wrenches[j].tail<3>() += torque;
  }
}

}  // namespace pegsim
