// The PEG contact model in 2D (thesis 4.3, Algorithms 8-11); see peg_2d.cpp.
#pragma once

#include "contact/contact_model.hpp"

#include <memory>

namespace pegsim {

inline constexpr const char* kPeg3dMessage =
    "PEG in 3D is not implemented yet (contact model 'peg' needs a 2D scene; use 'standard' in 3D)";

// Builds U-, I- and X-constraints from the 2D contacts of every body pair.
// Its build() throws std::invalid_argument(kPeg3dMessage) on a 3D model.
std::unique_ptr<ContactModel> make_peg_2d_model();

}  // namespace pegsim
