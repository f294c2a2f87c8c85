// The PEG contact model (thesis ch. 4) in 2D and 3D, and the LNC model that
// shares its machinery. peg.cpp groups the contacts by body pair; the
// configurations of one pair are read in peg_2d.cpp (Algorithms 8-11) and
// peg_3d.cpp (Algorithms 12-17).
#pragma once

#include "contact/contact_model.hpp"
#include "contact/peg_writer.hpp"

#include <memory>
#include <vector>

namespace pegsim {

std::unique_ptr<ContactModel> make_peg_model(PegVariant variant);

// The constraints of one body pair; `pair` lists its contacts (input indices, in order).
void peg_2d_body_pair(const Model& model, const State& state, const std::vector<Contact>& contacts,
                      const std::vector<int>& pair, PegWriter& writer);
void peg_3d_body_pair(const Model& model, const State& state, const std::vector<Contact>& contacts,
                      const std::vector<int>& pair, PegWriter& writer);

}  // namespace pegsim
