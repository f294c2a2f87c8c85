// Contact models: feature pairs -> constraint set (thesis ch. 4).
//
// One interface, one implementation file per model. The standard model is in
// standard.cpp (with the registry, make_contact_model), PEG and LNC in peg*.cpp,
// the corrective method in corrective.cpp.
#pragma once

#include "collision/contact.hpp"
#include "contact/constraint_set.hpp"
#include "sim/model.hpp"
#include "sim/state.hpp"

#include <memory>
#include <string>
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

// Throws std::invalid_argument naming the model if it is not available (in
// that dimension).
std::unique_ptr<ContactModel> make_contact_model(ContactModelKind kind, Dimension dim);
// Without a dimension: a model that reads the scene's dimension when it builds.
std::unique_ptr<ContactModel> make_contact_model(ContactModelKind kind);
std::string_view to_string(ContactModelKind kind);
// The registry's names, "standard", "peg", "lnc", "corrective": the scene
// loader, the CLI, the Python module, recordings and error messages read them
// here. parse_contact_model: false if unknown.
bool parse_contact_model(std::string_view text, ContactModelKind& kind);
std::vector<std::string> contact_model_names();

}  // namespace pegsim
