// The standard contact model (thesis 4.1): a unilateral constraint on every
// contact found, primary or secondary. Where several facets meet at a corner
// this over-constrains the body (the standard-model trap the thesis's PEG
// model removes); it is kept as the baseline the other models are compared to.
#include "contact/contact_model.hpp"
#include "contact/corrective.hpp"
#include "contact/peg.hpp"

#include <stdexcept>
#include <string>

namespace pegsim {
namespace {

class StandardModel final : public ContactModel {
 public:
  std::string_view name() const override { return "standard"; }
  void build(const Model& model, const State& /*state*/, const std::vector<Contact>& contacts,
             ConstraintSet& out) override {
    out.clear();
    out.contacts.reserve(contacts.size());
    out.constraints.reserve(contacts.size());
    for (const Contact& c : contacts) {
      out.add_unilateral(c, model.mu(model.bodies[c.body_a].material, model.bodies[c.body_b].material));
    }
  }
};

}  // namespace

std::string_view to_string(ContactModelKind kind) {
  switch (kind) {
    case ContactModelKind::Standard: return "standard";
    case ContactModelKind::Peg: return "peg";
    case ContactModelKind::Lnc: return "lnc";
    case ContactModelKind::Corrective: return "corrective";
  }
  return "unknown";
}

namespace {
constexpr ContactModelKind kContactModelKinds[] = {ContactModelKind::Standard, ContactModelKind::Peg,
                                                   ContactModelKind::Lnc, ContactModelKind::Corrective};
}  // namespace

std::vector<std::string> contact_model_names() {
  std::vector<std::string> names;
  for (ContactModelKind k : kContactModelKinds) names.emplace_back(to_string(k));
  return names;
}

bool parse_contact_model(std::string_view text, ContactModelKind& kind) {
  for (ContactModelKind k : kContactModelKinds) {
    if (text == to_string(k)) {
      kind = k;
      return true;
    }
  }
  return false;
}

std::unique_ptr<ContactModel> make_contact_model(ContactModelKind kind) {
  switch (kind) {
    case ContactModelKind::Standard: return std::make_unique<StandardModel>();
    case ContactModelKind::Peg: return make_peg_model(PegVariant::Peg);
    case ContactModelKind::Lnc: return make_peg_model(PegVariant::Lnc);
    case ContactModelKind::Corrective: return make_corrective_model();
  }
  throw std::invalid_argument("unknown contact model");
}

std::unique_ptr<ContactModel> make_contact_model(ContactModelKind kind, Dimension /*dim*/) {
  return make_contact_model(kind);  // every model available works in both dimensions
}

}  // namespace pegsim
