// Contact models: feature pairs -> constraint set (thesis ch. 4).
//
// One interface, one implementation file per model. The standard model is
// here; PEG, LNC and corrective models register in make_contact_model.
#pragma once

#include "collision/contact.hpp"
#include "contact/constraint_set.hpp"
#include "sim/model.hpp"

#include <memory>
#include <string_view>
#include <vector>

namespace pegsim {

class ContactModel {
 public:
  virtual ~ContactModel() = default;
  virtual std::string_view name() const = 0;
  // contacts: every feature pair found this step, grouped by body pair in
  // broadphase order. Writes the constraint set (cleared first).
  virtual void build(const Model& model, const std::vector<Contact>& contacts, ConstraintSet& out) = 0;
};

// Throws std::invalid_argument naming the model if it is not available.
std::unique_ptr<ContactModel> make_contact_model(ContactModelKind kind);
std::string_view to_string(ContactModelKind kind);
// "standard", "peg", "lnc", "corrective"; false if unknown
bool parse_contact_model(std::string_view text, ContactModelKind& kind);

}  // namespace pegsim
