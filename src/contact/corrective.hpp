// The corrective method (thesis 5.2): one U-constraint per overlapping body
// pair, none before penetration; see corrective.cpp. 2D and 3D.
#pragma once

#include "contact/contact_model.hpp"

#include <memory>

namespace pegsim {

std::unique_ptr<ContactModel> make_corrective_model();

}  // namespace pegsim
