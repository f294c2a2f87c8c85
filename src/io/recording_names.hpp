// Names of the enumerations as they appear in scene files and recordings
// (shared by the recorder and the reader; docs/recording-format.md).
#pragma once

#include "collision/contact.hpp"
#include "contact/contact_model.hpp"
#include "dynamics/formulation.hpp"
#include "dynamics/mass.hpp"
#include "sim/model.hpp"
#include "sim/step_report.hpp"

#include <array>
#include <string>

namespace pegsim::recording_names {

// FeatureKind, in enum order: the values of /contacts/kind
inline constexpr std::array<const char*, 6> kFeatureKinds = {"vertex_face", "edge_edge", "vertex_edge",
                                                             "vertex_plane", "overlap", "curved"};
inline constexpr int kSolverStatusCount = 6;  // SolverStatus values: /steps/solver_status

// names from the registries (contact/contact_model.hpp, dynamics/formulation.hpp, dynamics/mass.hpp)
inline std::string contact_model(ContactModelKind k) { return std::string(to_string(k)); }
inline std::string formulation(FormulationKind k) { return std::string(to_string(k)); }
inline std::string gyroscopic(GyroscopicTerm t) { return std::string(to_string(t)); }

inline constexpr const char* kFormat = "pegsim-recording";
// 2: /steps/contacts_found, /steps/constraints, /steps/traps (a version-1 file
// reads with those zero)
// 3: /steps/islands, /steps/escalations, /steps/solved_by, /steps/certified_residual,
// /steps/cone_violation, /steps/penetration_exceeded and /model's solver_chain,
// max_cone_violation, max_penetration, islands (a version-1 or -2 file reads
// with those zero, its chain being its solver)
// 4: /steps/stage_seconds has the stages of kStageNames (sim/step_report.hpp:
// free_velocity, penetration and position_correction added); a version-1 to -3
// file's seven columns (kStageNamesV3) are read into their stages, the new
// ones zero; /model's stepper (a file before it was time-stepping)
inline constexpr int kFormatVersion = 4;
// root attribute, i32: 0 while the writer has the file open, 1 once it closed
// it (absent in files written before it was added: complete)
inline constexpr const char* kComplete = "complete";
inline constexpr std::array<Stage, 7> kStagesV3 = {Stage::Broadphase, Stage::Narrowphase, Stage::ContactModel,
                                                   Stage::Formulation, Stage::Solver, Stage::Integration,
                                                   Stage::Observers};

}  // namespace pegsim::recording_names
