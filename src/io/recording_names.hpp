// Names of the enumerations as they appear in scene files and recordings
// (shared by the recorder and the reader; docs/recording-format.md).
#pragma once

#include "collision/contact.hpp"
#include "sim/model.hpp"

#include <array>
#include <string>

namespace pegsim::recording_names {

inline constexpr std::array<const char*, 4> kContactModels = {"standard", "peg", "lnc", "corrective"};
inline constexpr std::array<const char*, 2> kFormulations = {"stewart-trinkle", "anitescu-potra"};
// FeatureKind, in enum order: the values of /contacts/kind
inline constexpr std::array<const char*, 5> kFeatureKinds = {"vertex_face", "edge_edge", "vertex_edge",
                                                             "vertex_plane", "overlap"};
inline constexpr int kSolverStatusCount = 6;  // SolverStatus values: /steps/solver_status

inline std::string contact_model(ContactModelKind k) { return kContactModels[static_cast<int>(k)]; }
inline std::string formulation(FormulationKind k) { return kFormulations[static_cast<int>(k)]; }

inline constexpr const char* kFormat = "pegsim-recording";
// 2: /steps/contacts_found, /steps/constraints, /steps/traps (a version-1 file
// reads with those zero)
// 3: /steps/islands, /steps/escalations, /steps/solved_by, /steps/certified_residual,
// /steps/cone_violation, /steps/penetration_exceeded and /model's solver_chain,
// max_cone_violation, max_penetration, islands (a version-1 or -2 file reads
// with those zero, its chain being its solver)
inline constexpr int kFormatVersion = 3;

}  // namespace pegsim::recording_names
