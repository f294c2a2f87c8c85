// Contact models: feature pairs -> constraint set (thesis ch. 4).
//
// One interface, one implementation file per model. The standard model is
// in standard.cpp, PEG 2D in peg_2d.cpp, the corrective method in
// corrective.cpp; LNC is to register in make_contact_model.
#pragma once

#include "collision/contact.hpp"
#include "contact/constraint_set.hpp"
#include "sim/model.hpp"
#include "sim/state.hpp"

#include <memory>
#include <string_view>
#include <vector>

namespace pegsim {

class ContactModel {
 public:
  virtual ~ContactModel() = default;
  virtual std::string_view name() const = 0;
  // contacts: every feature pair found this step, grouped by body pair in
  // broadphase order; state: the poses they were found at (models that look
  // at the geometry themselves, e.g. the corrective method, read it).
  // Writes the constraint set (cleared first).
  virtual void build(const Model& model, const State& state, const std::vector<Contact>& contacts,
                     ConstraintSet& out) = 0;
};

// Throws std::invalid_argument naming the model if it is not available, or
// if it is not available in that dimension (PEG: 2D only for now).
std::unique_ptr<ContactModel> make_contact_model(ContactModelKind kind, Dimension dim);
// Without a dimension: a model that checks the scene's dimension when it
// builds (PEG throws std::invalid_argument on a 3D model then).
std::unique_ptr<ContactModel> make_contact_model(ContactModelKind kind);
std::string_view to_string(ContactModelKind kind);
// "standard", "peg", "lnc", "corrective"; false if unknown
bool parse_contact_model(std::string_view text, ContactModelKind& kind);

}  // namespace pegsim
