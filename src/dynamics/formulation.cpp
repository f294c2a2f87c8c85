#include "dynamics/formulation.hpp"

#include "dynamics/formulation_detail.hpp"

#include <algorithm>
#include <cmath>
#include <numbers>
#include <stdexcept>
#include <utility>
#include <vector>

namespace pegsim {
namespace formulation_detail {

// G column for direction d applied at the contact points (eq. 2.26 / 2.22):
// body A receives -d at point_a, body B receives +d at point_b.
// A kinematic body's side is not a column: its known velocity goes to
// row.prescribed, d . (v + w x r) with the sign its side has.
JacobianRow contact_row(const Contact& c, const Vec3& d, const Model& model, const State& state) {
  JacobianRow row;
  const BodyModel& a = model.bodies[c.body_a];
  const BodyModel& b = model.bodies[c.body_b];
  const BodyState& sa = state.bodies[c.body_a];
  const BodyState& sb = state.bodies[c.body_b];
  const Vec3 ra = c.point_a - sa.pose.position;
  const Vec3 rb = c.point_b - sb.pose.position;
  if (!a.is_static) {
    row.body_a = c.body_a;
    row.ja << -d, -ra.cross(d);
  } else if (a.is_kinematic) {
    row.prescribed -= d.dot(sa.linear_velocity + sa.angular_velocity.cross(ra));
  }
  if (!b.is_static) {
    row.body_b = c.body_b;
    row.jb << d, rb.cross(d);
  } else if (b.is_kinematic) {
    row.prescribed += d.dot(sb.linear_velocity + sb.angular_velocity.cross(rb));
  }
  return row;
}

double row_rate(const JacobianRow& row, const FormulationInput& in) {
  return row_velocity(row, *in.free_velocity) + (in.prescribed_motion ? row.prescribed : 0.0);
}

double row_velocity(const JacobianRow& row, const std::vector<Vec6>& nu) {
  double w = 0.0;
  if (row.body_a != kNoBody) w += row.ja.dot(nu[row.body_a]);
  if (row.body_b != kNoBody) w += row.jb.dot(nu[row.body_b]);
  return w;
}

void add_friction_rows(const Contact& contact, const Vec3& drift_rate, int contact_index, int normal_row, int first_friction, int slip,
                       int nd, const FormulationInput& in, std::vector<Vec3>& dirs, StepProblem& out) {
  friction_basis(contact.normal, nd, in.model->options.dimension, dirs);
  LcpProblem& lcp = out.lcp;
  for (int k = 0; k < nd; ++k) {
    const int v = first_friction + k;
    lcp.structure.rows[v] = contact_row(contact, dirs[k], *in.model, *in.state);
    lcp.structure.rows[v].prescribed += dirs[k].dot(drift_rate);
    out.friction_direction[v] = dirs[k];
    lcp.role[v] = RowRole::Friction;
    lcp.contact_of[v] = normal_row;
    out.var_contact[v] = contact_index;
  }
  lcp.role[slip] = RowRole::Slip;
  lcp.contact_of[slip] = normal_row;
  out.var_contact[slip] = contact_index;
  lcp.layout.add(normal_row, first_friction, nd, slip);
}

Mat6 inverse_mass_block(const InverseMass& m) {
  Mat6 block = Mat6::Zero();
  block.topLeftCorner<3, 3>() = (m.inv_mass * m.linear_mask).asDiagonal();
  block.bottomRightCorner<3, 3>() = m.inv_inertia;
  return block;
}

void fill_inverse_mass(const std::vector<InverseMass>& minv, LcpStructure& structure) {
  structure.inverse_mass.resize(minv.size());
  for (std::size_t b = 0; b < minv.size(); ++b) structure.inverse_mass[b] = inverse_mass_block(minv[b]);
}

}  // namespace formulation_detail

using formulation_detail::contact_row;
using formulation_detail::row_velocity;

void friction_basis(const Vec3& n, int nd, Dimension dim, std::vector<Vec3>& out) {
  out.clear();
  if (dim == Dimension::Planar) {
    const Vec3 t(-n.y(), n.x(), 0.0);
    out.push_back(t);
    out.push_back(-t);
    return;
  }
  // tangent from the world axis least aligned with n, the earlier axis where
  // two are within kAxisTie of each other: a resting contact's normal carries
  // rounding noise (a floor normal (1e-17, -2e-17, 1)), and a choice that
  // followed the noise would turn the directions by 90 degrees from one step
  // to the next, so that last step's friction impulses (the warm start) no
  // longer fit them
  constexpr double kAxisTie = 1e-9;
  const Vec3 a = n.cwiseAbs();
  Vec3 axis = Vec3::UnitX();
  if (a.y() < a.x() - kAxisTie && a.y() <= a.z() + kAxisTie) axis = Vec3::UnitY();
  else if (a.z() < a.x() - kAxisTie && a.z() < a.y() - kAxisTie) axis = Vec3::UnitZ();
  const Vec3 t = n.cross(axis).normalized();
  const Vec3 o = n.cross(t);
  // cos and sin of the directions' angles 2 pi k / nd, computed once per nd
  // (every contact of a step asks for the same)
  thread_local int table_nd = 0;
  thread_local std::vector<std::pair<double, double>> table;
  if (table_nd != nd) {
    table.resize(static_cast<std::size_t>(std::max(nd, 0)));
    for (int k = 0; k < nd; ++k) {
      const double angle = 2.0 * std::numbers::pi * k / nd;
      table[static_cast<std::size_t>(k)] = {std::cos(angle), std::sin(angle)};
    }
    table_nd = nd;
  }
  for (int k = 0; k < nd; ++k) {
    const auto& [cosine, sine] = table[static_cast<std::size_t>(k)];
    out.push_back(cosine * t + sine * o);
  }
}

std::string_view to_string(FormulationKind kind) {
  return kind == FormulationKind::AnitescuPotra ? "anitescu-potra" : "stewart-trinkle";
}

bool parse_formulation(std::string_view text, FormulationKind& kind) {
  for (FormulationKind k : {FormulationKind::StewartTrinkle, FormulationKind::AnitescuPotra})
    if (text == to_string(k)) {
      kind = k;
      return true;
    }
  return false;
}

std::vector<std::string> formulation_names() {
  return {std::string(to_string(FormulationKind::StewartTrinkle)), std::string(to_string(FormulationKind::AnitescuPotra))};
}

void build_problem(FormulationKind kind, const FormulationInput& in, const ConstraintSet& set,
                   StepProblem& out) {
  // I- and X-constraints (PEG): the c and d slack rows of eqs. 4.41-4.51, peg_rows.cpp
  if (set.has_peg_constraints()) return formulation_detail::build_peg_problem(kind, in, set, out);
  const Model& model = *in.model;
  const State& state = *in.state;
  const Dimension dim = model.options.dimension;
  const int nd = dim == Dimension::Planar ? 2 : model.options.friction_directions;
  const int nc = static_cast<int>(set.contacts.size());

  // which sub-contacts carry friction (the constraints say, eq. 4.41-4.51 for PEG)
  thread_local std::vector<char> has_friction;  // kept from step to step (issue 11 item 5)
  has_friction.assign(static_cast<std::size_t>(nc), 0);
  for (const ContactConstraint& k : set.constraints)
    for (int c : k.friction)
      if (set.contacts[c].mu > 0.0) has_friction[c] = 1;
  int n_frictional = 0;
  for (char f : has_friction) n_frictional += f;

  const int n_normal = nc;
  const int n_friction = n_frictional * nd;
  const int n = n_normal + n_friction + n_frictional;
  out.friction_directions = nd;
  out.normal_var.assign(nc, -1);
  out.first_friction_var.assign(nc, -1);
  out.slip_var.assign(nc, -1);
  out.next_normal_var.assign(n, -1);
  out.var_contact.assign(n, -1);
  LcpStructure& structure = out.lcp.structure;
  structure.rows.assign(n, JacobianRow{});
  structure.coupling.clear();
  structure.dense_only = false;
  structure.measures.clear();
  out.friction_direction.assign(n, Vec3::Zero());
  LcpProblem& lcp = out.lcp;
  if (in.matrix) lcp.A.setZero(n, n);
  else lcp.A.resize(0, 0);
  lcp.b.setZero(n);
  lcp.bound.assign(n, RowBound::NonNegative);
  lcp.role.assign(n, RowRole::Normal);
  lcp.contact_of.assign(n, -1);
  lcp.layout.clear(n);

  // rows: normals first, then friction directions, then slips (eq. 6.1 order)
  thread_local std::vector<Vec3> dirs;  // kept from step to step (issue 11 item 5)
  int next_friction = n_normal;
  int next_slip = n_normal + n_friction;
  for (int c = 0; c < nc; ++c) {
    const Contact& contact = set.contacts[c].contact;
    out.normal_var[c] = c;
    out.var_contact[c] = c;
    structure.rows[c] = contact_row(contact, contact.normal, model, state);
    if (!has_friction[c]) continue;
    out.first_friction_var[c] = next_friction;
    out.slip_var[c] = next_slip;
    formulation_detail::add_friction_rows(contact, set.contacts[c].drift_rate, c, c, next_friction, next_slip, nd, in, dirs, out);
    for (int k = 0; k < nd; ++k) {
      const int v = next_friction + k;
      if (in.matrix) {
        lcp.A(v, next_slip) = 1.0;   // E
        lcp.A(next_slip, v) = -1.0;  // -E'
      }
      structure.coupling.push_back({v, next_slip, 1.0});
    }
    if (in.matrix) lcp.A(next_slip, c) = set.contacts[c].mu;  // U
    structure.coupling.push_back({next_slip, c, set.contacts[c].mu});
    for (int k = 0; k < nd; ++k) structure.coupling.push_back({next_slip, next_friction + k, -1.0});
    next_friction += nd;
    ++next_slip;
  }

  // b: G' nu* plus kinematic bodies' surface velocities (+ psi/h for Stewart-Trinkle's normal rows)
  for (int v = 0; v < n_normal + n_friction; ++v) lcp.b(v) = formulation_detail::row_rate(structure.rows[v], in);
  if (kind == FormulationKind::StewartTrinkle)
    for (int c = 0; c < nc; ++c) lcp.b(c) += set.contacts[c].contact.gap / in.h;

  // the island's own body numbers, then G' M^-1 G blocks
  number_island_bodies(structure, *in.inverse_mass);
  if (in.matrix) solver_detail::add_delassus(structure, n_normal + n_friction, lcp.A);
}

double normal_impulse(const StepProblem& problem, const VecX& z, int contact) {
  double p = 0.0;
  for (int v = problem.normal_var[contact]; v >= 0; v = problem.next_normal_var[v]) p += z(v);
  return p;
}

void body_impulses(const LcpStructure& st, const VecX& z, std::size_t scene_bodies, std::vector<Vec6>& impulse) {
  impulse.assign(st.scene_body.empty() ? scene_bodies : st.scene_body.size(), Vec6::Zero());
  for (std::size_t v = 0; v < st.rows.size(); ++v) {
    const JacobianRow& r = st.rows[v];
    if (z(v) == 0.0) continue;
    if (r.body_a != kNoBody) impulse[r.body_a] += r.ja * z(v);
    if (r.body_b != kNoBody) impulse[r.body_b] += r.jb * z(v);
  }
}

void apply_impulses(const StepProblem& problem, const VecX& z, const std::vector<InverseMass>& minv,
                    std::vector<Vec6>& velocity) {
  const LcpStructure& st = problem.lcp.structure;
  thread_local std::vector<Vec6> impulse;  // G z per body the rows name
  body_impulses(st, z, velocity.size(), impulse);
  for (std::size_t b = 0; b < impulse.size(); ++b) {
    const std::uint32_t scene = st.scene_index(static_cast<std::uint32_t>(b));
    velocity[scene] += minv[scene].apply(impulse[b]);
  }
}

// See the header. The slot table is the thread's, sized to the scene once and
// cleared entry by entry, so numbering costs the island's rows and bodies.
void number_island_bodies(LcpStructure& structure, const std::vector<InverseMass>& inverse_mass, std::size_t first_row) {
  thread_local std::vector<std::uint32_t> slot;  // scene body -> its number, kNoBody when it has none
  if (slot.size() < inverse_mass.size()) slot.resize(inverse_mass.size(), kNoBody);
  std::vector<std::uint32_t>& scene = structure.scene_body;
  if (first_row == 0) {
    scene.clear();
    structure.inverse_mass.clear();
  }
  for (std::size_t k = 0; k < scene.size(); ++k) slot[scene[k]] = static_cast<std::uint32_t>(k);
  auto number = [&](std::uint32_t& body) {
    if (body == kNoBody) return;
    if (body >= inverse_mass.size()) throw std::logic_error("number_island_bodies: a row names no scene body");
    if (slot[body] == kNoBody) {
      slot[body] = static_cast<std::uint32_t>(scene.size());
      scene.push_back(body);
      structure.inverse_mass.push_back(formulation_detail::inverse_mass_block(inverse_mass[body]));
    }
    body = slot[body];
  };
  for (std::size_t v = first_row; v < structure.rows.size(); ++v) {
    number(structure.rows[v].body_a);
    number(structure.rows[v].body_b);
  }
  for (std::size_t v = first_row; v < structure.measures.size(); ++v) {
    number(structure.measures[v].body_a);
    number(structure.measures[v].body_b);
  }
  for (std::uint32_t b : scene) slot[b] = kNoBody;
}

}  // namespace pegsim
