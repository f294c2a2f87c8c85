#include "sim/tree_stepping.hpp"

#include "articulated/dynamics.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace pegsim {

using articulated::TreeKinematics;

int add_tree(Model& model, State& state, std::string name, articulated::ArticulatedTree tree,
             const std::vector<Shape>& shapes, const VecX& q0, const VecX& v0, MaterialId material,
             std::vector<char> collides) {
  const std::string who = "tree '" + name + "': ";
  if (static_cast<int>(shapes.size()) != tree.link_count())
    throw std::invalid_argument(who + "one shape per link needed, got " + std::to_string(shapes.size()) + " for " +
                                std::to_string(tree.link_count()) + " links");
  if (q0.size() != 0 && q0.size() != tree.nq())
    throw std::invalid_argument(who + "q has " + std::to_string(q0.size()) + " entries, the tree " + std::to_string(tree.nq()));
  if (v0.size() != 0 && v0.size() != tree.nv())
    throw std::invalid_argument(who + "v has " + std::to_string(v0.size()) + " entries, the tree " + std::to_string(tree.nv()));
  if (!collides.empty() && static_cast<int>(collides.size()) != tree.link_count())
    throw std::invalid_argument(who + "collides needs one entry per link");
  const VecX q_start = q0.size() ? q0 : tree.neutral_configuration();
  if (!q_start.allFinite() || (v0.size() && !v0.allFinite())) throw std::invalid_argument(who + "q and v must be finite");
  if (Eigen::LLT<MatX>(articulated::mass_matrix(tree, q_start)).info() != Eigen::Success)
    throw std::invalid_argument(who + "the joint-space inertia is not positive definite (a moving subtree without mass?)");
  TreeModel t;
  t.name = std::move(name);
  t.link_collides = std::move(collides);
  for (int i = 0; i < tree.link_count(); ++i) {
    const articulated::Link& l = tree.link(i);
    const bool collides_i = t.link_collides.empty() || t.link_collides[i];
    if (collides_i && !(l.mass > 0.0)) throw std::invalid_argument(who + "colliding link '" + l.name + "' needs a positive mass");
    BodyModel body;
    body.name = t.name + "/" + l.name;
    body.shape = shapes[i];
    body.mass = l.mass;
    body.inertia = l.inertia;
    body.material = material;
    t.link_body.push_back(model.add_body(std::move(body)).index);
    state.bodies.emplace_back();
  }
  TreeState s;
  s.q = q_start;
  articulated::normalize_configuration(tree, s.q);
  s.v = v0.size() ? v0 : VecX::Zero(tree.nv());
  s.tau = VecX::Zero(tree.nv());
  t.tree = std::move(tree);
  model.trees.push_back(std::move(t));
  state.trees.push_back(std::move(s));
  sync_tree_bodies(model, state);
  return static_cast<int>(model.trees.size()) - 1;
}

void sync_tree_bodies(const Model& model, State& state) {
  TreeKinematics kin;
  for (std::size_t t = 0; t < model.trees.size(); ++t) {
    const TreeModel& tm = model.trees[t];
    const TreeState& ts = state.trees.at(t);
    articulated::forward_kinematics(tm.tree, ts.q, ts.v, kin);
    for (int i = 0; i < tm.tree.link_count(); ++i) {
      BodyState& b = state.bodies[tm.link_body[i]];
      b.pose = articulated::link_body_pose(tm.tree, kin, i);
      const Vec6 vel = articulated::link_body_velocity(tm.tree, kin, i);
      b.linear_velocity = vel.head<3>();
      b.angular_velocity = vel.tail<3>();
    }
  }
}

void TreeStepping::find_limits(const Model& model, const State& state, const TreeKinematics& kin, int t) {
  const TreeModel& tm = model.trees[t];
  const TreeState& ts = state.trees[t];
  const double h = model.options.h, eps = model.options.eps;
  for (int i = 0; i < tm.tree.link_count(); ++i) {
    const articulated::Link& l = tm.tree.link(i);
    if (l.nv() != 1 || (std::isinf(l.lower) && std::isinf(l.upper) && l.friction == 0.0)) continue;
    const double q = ts.q(l.q_index), rate = trees_[t].free_velocity(l.v_index);
    const Mat3 R = kin.from_world[i].E.transpose();
    const Vec3 a = R * l.axis;
    const std::uint32_t child = tm.link_body[i];
    const std::uint32_t parent = l.parent >= 0 ? tm.link_body[l.parent] : kNoBody;
    const Vec3 o = kin.from_world[i].r;  // the joint origin (the child frame's origin)
    auto part = [&](std::uint32_t body) {
      Vec6 j;
      if (l.joint == articulated::JointKind::Revolute) j << Vec3::Zero(), a;
      else j << a, (o - state.bodies[body].pose.position).cross(a);
      return j;
    };
    auto row = [&](double s) {
      LimitRow lr;
      lr.link_body = child;
      lr.row.body_b = child;
      lr.row.jb = s * part(child);
      if (parent != kNoBody) {
        lr.row.body_a = parent;
        lr.row.ja = -s * part(parent);
      }
      return lr;
    };
    if (l.friction > 0.0) {
      LimitRow lr = row(1.0);
      lr.friction = l.friction;
      limits_.push_back(lr);
    }
    for (const double s : {1.0, -1.0}) {
      const double gap = s > 0 ? q - l.lower : l.upper - q;
      if (!(gap + h * s * rate < eps)) continue;
      LimitRow lr = row(s);
      lr.gap = gap;
      limits_.push_back(lr);
    }
  }
}

bool TreeStepping::has_limit_rows(const std::vector<std::uint32_t>& island_bodies) const {
  for (const LimitRow& l : limits_)
    if (std::binary_search(island_bodies.begin(), island_bodies.end(), l.link_body)) return true;
  return false;
}

void TreeStepping::append_limit_rows(const std::vector<std::uint32_t>& island_bodies,
                                     const std::vector<Vec6>& free_velocity, const std::vector<InverseMass>& inverse_mass,
                                     double h, StepProblem& problem) const {
  std::vector<const LimitRow*> rows;
  for (const LimitRow& l : limits_)
    if (std::binary_search(island_bodies.begin(), island_bodies.end(), l.link_body)) rows.push_back(&l);
  if (rows.empty()) return;
  LcpProblem& lcp = problem.lcp;
  int added = 0;
  for (const LimitRow* r : rows) added += r->friction > 0.0 ? 3 : 1;
  const int first = lcp.size(), n = first + added;
  if (lcp.bound.empty()) lcp.bound.assign(first, RowBound::NonNegative);
  if (lcp.role.empty()) lcp.role.assign(first, RowRole::Other);
  if (lcp.contact_of.empty()) lcp.contact_of.assign(first, -1);
  lcp.bound.resize(n, RowBound::NonNegative);
  lcp.role.resize(n, RowRole::Other);
  lcp.contact_of.resize(n, -1);
  if (lcp.layout.rows == first) {
    lcp.layout.contact_at.resize(static_cast<std::size_t>(n), -1);
    lcp.layout.rows = n;
  }
  problem.next_normal_var.resize(n, -1);
  problem.var_contact.resize(n, -1);
  problem.friction_direction.resize(n, Vec3::Zero());
  problem.var_joint.resize(n, -1);
  problem.var_joint_row.resize(n, -1);
  lcp.structure.rows.resize(n);
  lcp.b.conservativeResize(n);
  auto rate = [&](const JacobianRow& r) {
    double w = 0.0;
    if (r.body_a != kNoBody) w += r.ja.dot(free_velocity[r.body_a]);
    if (r.body_b != kNoBody) w += r.jb.dot(free_velocity[r.body_b]);
    return w;
  };
  int v = first;
  for (const LimitRow* r : rows) {
    if (r->friction == 0.0) {  // a limit
      lcp.structure.rows[v] = r->row;
      lcp.b(v++) = rate(r->row) + r->gap / h;
      continue;
    }
    // friction: p+ on the row, p- on its negative, sigma without a Jacobian
    JacobianRow minus = r->row;
    minus.ja = -minus.ja;
    minus.jb = -minus.jb;
    const int plus = v, neg = v + 1, sigma = v + 2;
    lcp.structure.rows[plus] = r->row;
    lcp.structure.rows[neg] = minus;
    lcp.structure.rows[sigma] = JacobianRow{};
    lcp.b(plus) = rate(r->row);
    lcp.b(neg) = -lcp.b(plus);
    lcp.b(sigma) = r->friction * h;
    auto& c = lcp.structure.coupling;
    c.push_back({plus, sigma, 1.0});
    c.push_back({neg, sigma, 1.0});
    c.push_back({sigma, plus, -1.0});
    c.push_back({sigma, neg, -1.0});
    v += 3;
  }
  number_island_bodies(lcp.structure, inverse_mass, static_cast<std::size_t>(first));
  lcp.A.resize(0, 0);  // assembled again from the structure with the tree terms
}

void TreeStepping::reset(const Model& model) {
  limits_.clear();
  trees_.resize(model.trees.size());
  tree_of_.assign(model.bodies.size(), -1);
  link_of_.assign(model.bodies.size(), -1);
}

MatX TreeStepping::link_terms(const Model& model, const State& state, std::size_t t, TreeKinematics& kin,
                              std::vector<InverseMass>& inverse_mass) {
  const TreeModel& tm = model.trees[t];
  const articulated::ArticulatedTree& tree = tm.tree;
  Tree& d = trees_[t];
  articulated::forward_kinematics(tree, state.trees[t].q, state.trees[t].v, kin);  // velocities for the bias forces
  d.jacobian.resize(tree.link_count());
  for (int i = 0; i < tree.link_count(); ++i) {
    const std::uint32_t b = tm.link_body[i];
    tree_of_[b] = static_cast<int>(t);
    link_of_[b] = i;
    d.jacobian[i] = articulated::point_jacobian(tree, kin, i, state.bodies[b].pose.position);
    inverse_mass[b] = InverseMass{};
  }
  return articulated::mass_matrix(tree, kin);
}

void TreeStepping::free_velocities(const Model& model, const State& state, std::vector<InverseMass>& inverse_mass,
                                   std::vector<Vec6>& free_velocity) {
  const double h = model.options.h;
  reset(model);
  TreeKinematics kin;
  for (std::size_t t = 0; t < model.trees.size(); ++t) {
    const TreeModel& tm = model.trees[t];
    const articulated::ArticulatedTree& tree = tm.tree;
    const TreeState& ts = state.trees[t];
    Tree& d = trees_[t];
    MatX M = link_terms(model, state, t, kin, inverse_mass);
    VecX force = applied_forces(model, state, t);
    VecX damping = VecX::Zero(tree.nv());
    for (const articulated::Link& l : tree.links())
      if (l.nv() == 1) damping(l.v_index) = l.damping;
    M.diagonal() += h * damping;
    d.inertia.compute(M);
    force -= articulated::bias_forces(tree, kin, ts.v, model.options.gravity);  // kin: link_terms' at (q, v)
    force -= damping.cwiseProduct(ts.v);
    d.free_velocity = ts.v + d.inertia.solve(h * force);
    d.impulse = VecX::Zero(tree.nv());
    for (int i = 0; i < tree.link_count(); ++i) free_velocity[tm.link_body[i]] = d.jacobian[i] * d.free_velocity;
    find_limits(model, state, kin, static_cast<int>(t));
  }
}

bool TreeStepping::add_row(const LcpStructure& st, const JacobianRow& row, int t, double scale, VecX& out) const {
  bool any = false;
  for (const auto& [number, j] : {std::pair{row.body_a, &row.ja}, std::pair{row.body_b, &row.jb}}) {
    const std::uint32_t body = st.scene_index(number);
    if (body == kNoBody || body >= tree_of_.size() || tree_of_[body] != t) continue;
    out += trees_[t].jacobian[link_of_[body]].transpose() * (*j * scale);
    any = true;
  }
  return any;
}

bool TreeStepping::touches(const StepProblem& problem) const {
  const LcpStructure& st = problem.lcp.structure;
  for (const JacobianRow& r : st.rows)
    for (std::uint32_t n : {r.body_a, r.body_b})
      if (const std::uint32_t b = st.scene_index(n); b != kNoBody && b < tree_of_.size() && tree_of_[b] >= 0) return true;
  return false;
}

void TreeStepping::add_delassus(StepProblem& problem) const {
  LcpProblem& lcp = problem.lcp;
  const int n = lcp.size();
  const std::vector<JacobianRow>& rows = lcp.structure.rows;
  for (std::size_t t = 0; t < trees_.size(); ++t) {
    const int nv = static_cast<int>(trees_[t].free_velocity.size());
    MatX G = MatX::Zero(nv, n), R = MatX::Zero(nv, n);
    bool any = false;
    for (int v = 0; v < n; ++v) {
      VecX g = VecX::Zero(nv);
      any = add_row(lcp.structure, rows[v], static_cast<int>(t), 1.0, g) || any;
      G.col(v) = g;
      if (const JacobianRow* x = lcp.structure.measure(v))
        any = add_row(lcp.structure, *x, static_cast<int>(t), 1.0, g) || any;
      R.col(v) = g;
    }
    if (!any) continue;
    lcp.A.noalias() += R.transpose() * trees_[t].inertia.solve(G);
    lcp.structure.dense_only = true;
  }
}

void TreeStepping::add_impulses(const StepProblem& problem, const VecX& z) {
  const std::vector<JacobianRow>& rows = problem.lcp.structure.rows;
  for (std::size_t v = 0; v < rows.size(); ++v) {
    if (z(v) == 0.0) continue;
    for (std::size_t t = 0; t < trees_.size(); ++t)
      add_row(problem.lcp.structure, rows[v], static_cast<int>(t), z(v), trees_[t].impulse);
  }
}

void TreeStepping::finish_step(const Model& model, State& state) {
  for (std::size_t t = 0; t < model.trees.size(); ++t) {
    const articulated::ArticulatedTree& tree = model.trees[t].tree;
    TreeState& ts = state.trees[t];
    ts.v = velocity_plus(t);
    ts.q = articulated::integrate_configuration(tree, ts.q, ts.v, model.options.h);
    articulated::normalize_configuration(tree, ts.q);
    ts.tau = VecX::Zero(tree.nv());
  }
  sync_tree_bodies(model, state);
  remember_sync(model, state);
}

VecX TreeStepping::velocity_plus(std::size_t t) const {
  const Tree& d = trees_[t];
  return d.free_velocity + d.inertia.solve(d.impulse);
}

void TreeStepping::start_link_velocities(const Model& model, const std::vector<VecX>& v_plus,
                                         std::vector<Vec6>& velocity) const {
  for (std::size_t t = 0; t < model.trees.size(); ++t) {
    const TreeModel& tm = model.trees[t];
    for (int i = 0; i < tm.tree.link_count(); ++i) velocity[tm.link_body[i]] = trees_[t].jacobian[i] * v_plus[t];
  }
}

VecX TreeStepping::applied_forces(const Model& model, const State& state, std::size_t t) const {
  const TreeModel& tm = model.trees[t];
  const TreeState& ts = state.trees[t];
  VecX force = ts.tau.size() == tm.tree.nv() ? ts.tau : VecX::Zero(tm.tree.nv());
  for (int i = 0; i < tm.tree.link_count(); ++i) {
    const std::uint32_t b = tm.link_body[i];
    Vec6 wrench;  // a force and torque set on the link body (BodyState::force, torque)
    wrench << state.bodies[b].force, state.bodies[b].torque;
    if (!wrench.isZero(0.0)) force += trees_[t].jacobian[i].transpose() * wrench;
  }
  return force;
}

void TreeStepping::remember_sync(const Model& model, const State& state) {
  synced_.q.resize(model.trees.size());
  synced_.v.resize(model.trees.size());
  synced_.links.clear();
  for (std::size_t t = 0; t < model.trees.size(); ++t) {
    synced_.q[t] = state.trees[t].q;
    synced_.v[t] = state.trees[t].v;
    for (std::uint32_t b : model.trees[t].link_body) synced_.links.push_back(state.bodies[b]);
  }
}

bool TreeStepping::synced(const Model& model, const State& state) const {
  if (synced_.q.size() != model.trees.size()) return false;
  std::size_t k = 0;
  for (std::size_t t = 0; t < model.trees.size(); ++t) {
    const TreeState& ts = state.trees[t];
    if (ts.q.size() != synced_.q[t].size() || ts.q != synced_.q[t] || ts.v.size() != synced_.v[t].size() ||
        ts.v != synced_.v[t])
      return false;
    for (std::uint32_t b : model.trees[t].link_body) {
      if (k >= synced_.links.size()) return false;
      const BodyState& now = state.bodies[b];
      const BodyState& then = synced_.links[k++];
      if (now.pose.position != then.pose.position || now.pose.orientation.coeffs() != then.pose.orientation.coeffs() ||
          now.linear_velocity != then.linear_velocity || now.angular_velocity != then.angular_velocity)
        return false;
    }
  }
  return k == synced_.links.size();
}

void TreeStepping::sync_if_moved(const Model& model, State& state) {
  if (!synced(model, state)) sync_tree_bodies(model, state);
}

void append_tree_link_pairs(const Model& model, std::vector<std::pair<std::uint32_t, std::uint32_t>>& out) {
  for (const TreeModel& t : model.trees)
    for (std::uint32_t link : t.link_body) out.emplace_back(t.link_body[0], link);
}

void TreeStepping::fill_terms(const Model& model, TreeTerms& out) const {
  out.tree_of = tree_of_;
  out.jacobian.assign(model.bodies.size(), nullptr);
  for (std::size_t b = 0; b < model.bodies.size(); ++b)
    if (tree_of_[b] >= 0) out.jacobian[b] = &trees_[tree_of_[b]].jacobian[link_of_[b]];
  out.inverse_inertia.resize(trees_.size());
  for (std::size_t t = 0; t < trees_.size(); ++t) {
    const int nv = static_cast<int>(trees_[t].free_velocity.size());
    out.inverse_inertia[t] = trees_[t].inertia.solve(MatX::Identity(nv, nv));
  }
  out.limits.clear();
  for (const LimitRow& l : limits_)
    if (l.friction == 0.0) out.limits.push_back({l.link_body, l.row, l.gap});
}

void TreeStepping::set_velocity(std::size_t t, const VecX& v) {
  Tree& d = trees_[t];
  const VecX dv = v - d.free_velocity;
  d.impulse = d.inertia.matrixL() * (d.inertia.matrixU() * dv);
}

VecX TreeStepping::inertia_times(std::size_t t, const VecX& x) const {
  return trees_[t].inertia.matrixL() * (trees_[t].inertia.matrixU() * x);
}

void TreeStepping::begin_projection(const Model& model, const State& state, std::vector<InverseMass>& inverse_mass) {
  reset(model);
  TreeKinematics kin;
  for (std::size_t t = 0; t < model.trees.size(); ++t) {
    Tree& d = trees_[t];
    d.inertia.compute(link_terms(model, state, t, kin, inverse_mass));  // M(q), no damping term
    d.free_velocity = VecX::Zero(model.trees[t].tree.nv());
    d.impulse = VecX::Zero(model.trees[t].tree.nv());
  }
}

void TreeStepping::finish_projection(const Model& model, State& state) {
  for (std::size_t t = 0; t < model.trees.size(); ++t) {
    const articulated::ArticulatedTree& tree = model.trees[t].tree;
    TreeState& ts = state.trees[t];
    const VecX dq = trees_[t].inertia.solve(trees_[t].impulse);
    ts.q = articulated::integrate_configuration(tree, ts.q, dq, 1.0);
    articulated::normalize_configuration(tree, ts.q);
  }
  sync_tree_bodies(model, state);
}

}  // namespace pegsim
