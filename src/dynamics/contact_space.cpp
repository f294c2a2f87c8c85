#include "dynamics/contact_space.hpp"

#include "dynamics/formulation_detail.hpp"

#include <algorithm>
#include <utility>

namespace pegsim {

VecX ContactSpace::gather(const std::vector<Vec6>& per_body, const std::vector<VecX>& per_tree) const {
  VecX v(m);
  for (std::uint32_t b : bodies)
    if (block[b] >= 0) v.segment<6>(6 * block[b]) = per_body[b];
  for (std::size_t t = 0; t < tree_offset.size(); ++t)
    if (tree_offset[t] >= 0) v.segment(tree_offset[t], per_tree.at(t).size()) = per_tree[t];
  return v;
}

void ContactSpace::scatter(const VecX& v, std::vector<Vec6>& per_body, std::vector<VecX>* per_tree) const {
  for (std::uint32_t b : bodies)
    if (block[b] >= 0) per_body[b] = v.segment<6>(6 * block[b]);
  for (std::size_t t = 0; t < tree_offset.size(); ++t)
    if (tree_offset[t] >= 0 && per_tree) (*per_tree)[t] = v.segment(tree_offset[t], (*per_tree)[t].size());
}

namespace {

// Row i of a dense Jacobian from a JacobianRow: a loose body's 6-vector into
// its block, a link's through its Jacobian into its tree's columns.
void put_row(const JacobianRow& r, const ContactSpace& space, const TreeTerms* trees, int i, MatX& J) {
  for (const auto& [body, j] : {std::pair{r.body_a, &r.ja}, std::pair{r.body_b, &r.jb}}) {
    if (body == kNoBody) continue;
    if (space.block[body] >= 0) {
      J.block<1, 6>(i, 6 * space.block[body]) += j->transpose();
    } else if (trees && trees->tree_of[body] >= 0) {
      const MatX& jac = *trees->jacobian[body];
      J.block(i, space.tree_offset[trees->tree_of[body]], 1, jac.cols()) += j->transpose() * jac;
    }
  }
}

}  // namespace

void build_contact_space(const Model& model, const State& state, const std::vector<InverseMass>& inverse_mass,
                         const std::vector<std::uint32_t>& bodies, const ConstraintSet& set, ContactSpace& out,
                         const TreeTerms* trees) {
  out.bodies = bodies;
  out.block.assign(model.bodies.size(), -1);
  out.tree_offset.assign(model.trees.size(), -1);
  out.loose = 0;
  for (std::uint32_t b : bodies)
    if (!trees || trees->tree_of[b] < 0) out.block[b] = out.loose++;
  out.m = 6 * out.loose;
  for (std::uint32_t b : bodies)
    if (trees && trees->tree_of[b] >= 0 && out.tree_offset[trees->tree_of[b]] < 0) {
      out.tree_offset[trees->tree_of[b]] = out.m;
      out.m += static_cast<int>(trees->inverse_inertia[trees->tree_of[b]].rows());
    }
  out.inverse_mass.setZero(out.m, out.m);
  for (std::uint32_t b : bodies) {
    if (out.block[b] < 0) continue;
    const InverseMass& im = inverse_mass[b];
    const int o = 6 * out.block[b];
    for (int a = 0; a < 3; ++a) out.inverse_mass(o + a, o + a) = im.inv_mass * im.linear_mask(a);
    out.inverse_mass.block<3, 3>(o + 3, o + 3) = im.inv_inertia;
  }
  for (std::size_t t = 0; t < out.tree_offset.size(); ++t)
    if (const int o = out.tree_offset[t]; o >= 0) {
      const MatX& inv = trees->inverse_inertia[t];
      out.inverse_mass.block(o, o, inv.rows(), inv.cols()) = inv;
    }
  std::vector<const TreeTerms::Limit*> limits;  // the active limits of the island's trees
  if (trees)
    for (const TreeTerms::Limit& l : trees->limits)
      if (std::binary_search(bodies.begin(), bodies.end(), l.link_body)) limits.push_back(&l);
  const int nc = static_cast<int>(set.contacts.size());
  out.limit_rows = static_cast<int>(limits.size());
  const int n = nc + out.limit_rows;
  out.N.setZero(n, out.m);
  out.S.setZero(n, out.m);
  out.T.setZero(n, out.m);
  out.gap.resize(n);
  out.mu.setZero(n);
  out.drift_s.setZero(n);
  out.drift_t.setZero(n);
  out.normal.assign(n, Vec3::Zero());
  out.tangent_s.assign(n, Vec3::Zero());
  out.tangent_t.assign(n, Vec3::Zero());
  const bool planar = model.options.dimension == Dimension::Planar;
  std::vector<Vec3> dirs;
  for (int i = 0; i < nc; ++i) {
    const Contact& c = set.contacts[i].contact;
    out.gap(i) = c.gap;
    out.mu(i) = set.contacts[i].mu;
    // friction_basis with 4 directions: d_0 and d_1 are 90 degrees apart (an orthonormal pair)
    friction_basis(c.normal, planar ? 2 : 4, model.options.dimension, dirs);
    out.normal[i] = c.normal;
    out.tangent_s[i] = dirs[0];
    out.drift_s(i) = dirs[0].dot(set.contacts[i].drift_rate);
    put_row(formulation_detail::contact_row(c, c.normal, model, state), out, trees, i, out.N);
    put_row(formulation_detail::contact_row(c, dirs[0], model, state), out, trees, i, out.S);
    if (planar) continue;
    out.tangent_t[i] = dirs[1];
    out.drift_t(i) = dirs[1].dot(set.contacts[i].drift_rate);
    put_row(formulation_detail::contact_row(c, dirs[1], model, state), out, trees, i, out.T);
  }
  for (int k = 0; k < out.limit_rows; ++k) {
    out.gap(nc + k) = limits[k]->gap;
    put_row(limits[k]->row, out, trees, nc + k, out.N);
  }
}

}  // namespace pegsim
