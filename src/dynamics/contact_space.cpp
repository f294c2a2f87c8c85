#include "dynamics/contact_space.hpp"

#include "dynamics/formulation_detail.hpp"

namespace pegsim {

VecX ContactSpace::gather(const std::vector<Vec6>& per_body) const {
  VecX v(m);
  for (std::size_t k = 0; k < bodies.size(); ++k) v.segment<6>(6 * static_cast<int>(k)) = per_body[bodies[k]];
  return v;
}

void ContactSpace::scatter(const VecX& v, std::vector<Vec6>& per_body) const {
  for (std::size_t k = 0; k < bodies.size(); ++k) per_body[bodies[k]] = v.segment<6>(6 * static_cast<int>(k));
}

namespace {

// Row i of a dense Jacobian from a JacobianRow.
void put_row(const JacobianRow& r, const std::vector<int>& block, int i, MatX& J) {
  if (r.body_a != kNoBody) J.block<1, 6>(i, 6 * block[r.body_a]) += r.ja.transpose();
  if (r.body_b != kNoBody) J.block<1, 6>(i, 6 * block[r.body_b]) += r.jb.transpose();
}

}  // namespace

void build_contact_space(const Model& model, const State& state, const std::vector<InverseMass>& inverse_mass,
                         const std::vector<std::uint32_t>& bodies, const ConstraintSet& set, ContactSpace& out) {
  out.bodies = bodies;
  out.block.assign(model.bodies.size(), -1);
  for (std::size_t k = 0; k < bodies.size(); ++k) out.block[bodies[k]] = static_cast<int>(k);
  out.m = 6 * static_cast<int>(bodies.size());
  out.inverse_mass.setZero(out.m, out.m);
  for (std::size_t k = 0; k < bodies.size(); ++k) {
    const InverseMass& im = inverse_mass[bodies[k]];
    const int o = 6 * static_cast<int>(k);
    for (int a = 0; a < 3; ++a) out.inverse_mass(o + a, o + a) = im.inv_mass * im.linear_mask(a);
    out.inverse_mass.block<3, 3>(o + 3, o + 3) = im.inv_inertia;
  }
  const int n = static_cast<int>(set.contacts.size());
  out.N.setZero(n, out.m);
  out.S.setZero(n, out.m);
  out.T.setZero(n, out.m);
  out.gap.resize(n);
  out.mu.resize(n);
  out.normal.assign(n, Vec3::Zero());
  out.tangent_s.assign(n, Vec3::Zero());
  out.tangent_t.assign(n, Vec3::Zero());
  const bool planar = model.options.dimension == Dimension::Planar;
  std::vector<Vec3> dirs;
  for (int i = 0; i < n; ++i) {
    const Contact& c = set.contacts[i].contact;
    out.gap(i) = c.gap;
    out.mu(i) = set.contacts[i].mu;
    // friction_basis with 4 directions: d_0 and d_1 are 90 degrees apart (an orthonormal pair)
    friction_basis(c.normal, planar ? 2 : 4, model.options.dimension, dirs);
    out.normal[i] = c.normal;
    out.tangent_s[i] = dirs[0];
    put_row(formulation_detail::contact_row(c, c.normal, model, state), out.block, i, out.N);
    put_row(formulation_detail::contact_row(c, dirs[0], model, state), out.block, i, out.S);
    if (planar) continue;
    out.tangent_t[i] = dirs[1];
    put_row(formulation_detail::contact_row(c, dirs[1], model, state), out.block, i, out.T);
  }
}

}  // namespace pegsim
