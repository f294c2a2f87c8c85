#include "contact/active_piece.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>
#include <vector>

namespace pegsim {
namespace {

// Predicted gap rates (m/s) within this of the largest, relative to 1 +
// |largest|, tie (dynamics/peg_rows.cpp kCarrierTie: far above rounding, far
// below a rate that moves a gap visibly within a step).
constexpr double kPieceTie = 1e-10;

Vec3 point_velocity(const BodyState& b, const Vec3& p) {
  return b.linear_velocity + b.angular_velocity.cross(p - b.pose.position);
}

// psi / h + n . (u_B - u_A) at the contact's points
double predicted_rate(const Contact& c, const State& state, double h) {
  const Vec3 u = point_velocity(state.bodies[c.body_b], c.point_b) - point_velocity(state.bodies[c.body_a], c.point_a);
  return c.gap / h + c.normal.dot(u);
}

class ActivePieceModel final : public ContactModel {
 public:
  explicit ActivePieceModel(std::unique_ptr<ContactModel> peg) : peg_(std::move(peg)) {}
  std::string_view name() const override { return peg_->name(); }
  void build(const Model& model, const State& state, const std::vector<Contact>& contacts,
             ConstraintSet& out) override {
    peg_->build(model, state, contacts, full_);
    reduce(state, model.options.h, out);
  }

 private:
  // full_ reduced to U-constraints on active pieces (the header) into out
  void reduce(const State& state, double h, ConstraintSet& out);

  std::unique_ptr<ContactModel> peg_;
  // kept from step to step (their storage reused)
  ConstraintSet full_;       // PEG's set
  std::vector<double> rate_;  // per sub-contact: its predicted gap rate
  std::vector<int> row_of_;   // per sub-contact: its row in out, or -1
};

void ActivePieceModel::reduce(const State& state, double h, ConstraintSet& out) {
  const ConstraintSet& peg = full_;
  std::vector<double>& rate = rate_;
  std::vector<int>& row_of = row_of_;
  out.clear();
  const std::size_t n = peg.contacts.size();
  rate.resize(n);
  row_of.assign(n, -1);
  for (std::size_t c = 0; c < n; ++c) rate[c] = predicted_rate(peg.contacts[c].contact, state, h);
  // the largest predicted rate among sub-contacts [first, last) of k, ties to the least identity
  const auto largest = [&](const ContactConstraint& k, int first, int last) {
    double top = -std::numeric_limits<double>::infinity();
    for (int j = first; j < last; ++j) top = std::max(top, rate[static_cast<std::size_t>(k.contacts[j])]);
    const double tie = kPieceTie * (1.0 + std::abs(top));
    int best = -1;
    for (int j = first; j < last; ++j) {
      const int c = k.contacts[static_cast<std::size_t>(j)];
      if (rate[static_cast<std::size_t>(c)] < top - tie) continue;
      if (best < 0 || contact_key(peg.contacts[static_cast<std::size_t>(c)].contact) <
                          contact_key(peg.contacts[static_cast<std::size_t>(best)].contact))
        best = c;
    }
    return best;
  };
  for (const ContactConstraint& k : peg.constraints) {
    const int K = static_cast<int>(k.contacts.size());
    if (K == 0) continue;
    // X: its one force may sit on any of its sub-contacts (F2); I: on its primaries, C_iota
    const int pushing = k.kind == ConstraintKind::I ? std::clamp(k.primaries, 1, K) : K;
    const int chosen = largest(k, 0, pushing);
    if (pushing < K) {  // outside through a facet that cannot push, beyond the tie: no row
      const double top = rate[static_cast<std::size_t>(largest(k, pushing, K))];
      const double mine = rate[static_cast<std::size_t>(chosen)];
      if (top >= 0.0 && top > mine + kPieceTie * (1.0 + std::abs(mine))) continue;
    }
    int& row = row_of[static_cast<std::size_t>(chosen)];
    if (row >= 0) continue;  // chosen by an earlier constraint too
    const ConstrainedContact& c = peg.contacts[static_cast<std::size_t>(chosen)];
    row = out.add_unilateral(c.contact, c.mu);
    out.contacts[static_cast<std::size_t>(row)].drift_rate = c.drift_rate;
  }
}

}  // namespace

std::unique_ptr<ContactModel> make_one_row_contact_model(ContactModelKind kind, Dimension dim) {
  std::unique_ptr<ContactModel> m = make_contact_model(kind, dim);
  if (kind == ContactModelKind::Peg || kind == ContactModelKind::Lnc)
    return std::make_unique<ActivePieceModel>(std::move(m));
  return m;
}

}  // namespace pegsim
