// The per-row data of a recording: /steps (one row per recorded step) and
// /contacts (every row's contacts, concatenated), docs/recording-format.md.
//
// A complete file must have the same number of rows N in every /steps column,
// N + 1 entries in /contacts/step_offset and step_offset[N] rows in every
// /contacts column. An incomplete one (its writer never closed it) is read up
// to the last row that all of them hold: the Recorder writes them together at
// each checkpoint, so that is its last checkpoint.
#include "io/recording_names.hpp"
#include "io/recording_reader_parts.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>

namespace pegsim::recording_reader {

namespace {

// Every /steps column the reader knows (those absent from a file are skipped).
constexpr std::array<const char*, 32> kStepColumns = {
    "step", "time", "position", "orientation", "linear_velocity", "angular_velocity", "pose2d", "contacts",
    "contacts_found", "constraints", "traps", "solver_status", "solver_iterations", "solver_calls",
    "solver_failures", "solver_recoveries", "problem_size", "complementarity", "feasibility", "max_penetration",
    "islands", "escalations", "solved_by", "certified_residual", "cone_violation", "penetration_exceeded",
    "stage_seconds", "impulse_events", "joint_errors", "joint_positions", "joint_velocities", "joint_wrenches"};
constexpr std::array<const char*, 13> kContactColumns = {
    "body_a", "body_b", "kind", "primary", "feature_a", "feature_b", "point_a", "point_b", "normal", "gap",
    "applicability", "normal_impulse", "friction_impulse"};

// Reads N rows of /steps or M rows of /contacts columns; in a complete file a
// column with another row count is an error.
struct Rows {
  const h5::Reader& r;
  hsize_t n;
  bool exact;
  template <class T>
  std::vector<T> get(const std::string& path, const std::vector<hsize_t>& row_shape = {}) const {
    if (!exact) return r.rows<T>(path, n, row_shape);
    std::vector<hsize_t> dims{n};
    dims.insert(dims.end(), row_shape.begin(), row_shape.end());
    return r.dataset<T>(path, dims);
  }
};

hsize_t rows_of(const h5::Reader& r, const std::string& path) {
  const std::vector<hsize_t> d = r.dims(path);
  if (d.empty()) h5::fail(r.file(), path, "is a scalar, expected rows");
  return d[0];
}

// The rows an incomplete file holds in every column, and the contacts they need.
hsize_t common_rows(const h5::Reader& r) {
  hsize_t n = rows_of(r, "/contacts/step_offset");
  n = n > 0 ? n - 1 : 0;
  for (const char* c : kStepColumns) {
    const std::string path = std::string("/steps/") + c;
    if (r.exists(path)) n = std::min(n, rows_of(r, path));
  }
  hsize_t contacts = std::numeric_limits<hsize_t>::max();
  for (const char* c : kContactColumns) contacts = std::min(contacts, rows_of(r, std::string("/contacts/") + c));
  const auto offset = r.rows<std::int64_t>("/contacts/step_offset", n + 1, {});
  while (n > 0 && (offset[n] < 0 || static_cast<hsize_t>(offset[n]) > contacts)) --n;
  return n;
}

// counts: /steps/contacts (empty when absent), each row's contacts to check against the offsets
void read_contacts(const h5::Reader& r, hsize_t n, bool exact, const std::vector<std::int32_t>& counts, Recording& out) {
  const std::size_t nb = out.body_names.size();
  const auto offset = Rows{r, n + 1, exact}.get<std::int64_t>("/contacts/step_offset");
  if (offset[0] != 0) h5::fail(r.file(), "/contacts/step_offset", "must start at 0");
  for (hsize_t k = 0; k < n; ++k)
    if (offset[k + 1] < offset[k])
      h5::fail(r.file(), "/contacts/step_offset", "decreases at row " + std::to_string(k + 1));
  const Rows rows{r, static_cast<hsize_t>(offset[n]), exact};
  if (exact && rows.n != rows_of(r, "/contacts/body_a"))
    h5::fail(r.file(), "/contacts/step_offset", "ends at " + std::to_string(rows.n) + ", /contacts/body_a has " +
                                                    std::to_string(rows_of(r, "/contacts/body_a")) + " rows");
  const auto body_a = rows.get<std::uint32_t>("/contacts/body_a");
  const auto body_b = rows.get<std::uint32_t>("/contacts/body_b");
  const auto kind = rows.get<std::uint8_t>("/contacts/kind");
  const auto primary = rows.get<std::uint8_t>("/contacts/primary");
  const auto feature_a = rows.get<std::int32_t>("/contacts/feature_a");
  const auto feature_b = rows.get<std::int32_t>("/contacts/feature_b");
  const auto point_a = rows.get<double>("/contacts/point_a", {3});
  const auto point_b = rows.get<double>("/contacts/point_b", {3});
  const auto normal = rows.get<double>("/contacts/normal", {3});
  const auto gap = rows.get<double>("/contacts/gap");
  const auto applicability = rows.get<double>("/contacts/applicability");
  const auto normal_impulse = rows.get<double>("/contacts/normal_impulse");
  const auto friction_impulse = rows.get<double>("/contacts/friction_impulse", {3});
  const auto row = [](hsize_t i) { return " in row " + std::to_string(i); };
  for (hsize_t i = 0; i < rows.n; ++i) {
    if (body_a[i] >= nb || body_b[i] >= nb)
      h5::fail(r.file(), body_a[i] >= nb ? "/contacts/body_a" : "/contacts/body_b",
               "body index " + std::to_string(std::max(body_a[i], body_b[i])) + " out of range (" +
                   std::to_string(nb) + " bodies)" + row(i));
    if (kind[i] >= recording_names::kFeatureKinds.size())
      h5::fail(r.file(), "/contacts/kind", "unknown feature kind " + std::to_string(kind[i]) + row(i));
    const auto check_feature = [&](std::int32_t f, std::uint32_t b, const char* path) {
      if (f < -1 || static_cast<std::int64_t>(f) >= static_cast<std::int64_t>(feature_bound(out.shapes[b])))
        h5::fail(r.file(), path, "feature index " + std::to_string(f) + " out of range for body " + std::to_string(b) + row(i));
    };
    check_feature(feature_a[i], body_a[i], "/contacts/feature_a");
    check_feature(feature_b[i], body_b[i], "/contacts/feature_b");
  }
  for (hsize_t k = 0; k < n; ++k) {
    RecordedStep& step = out.steps[k];
    if (!counts.empty() && counts[k] != offset[k + 1] - offset[k])
      h5::fail(r.file(), "/steps/contacts",
               "row " + std::to_string(k) + " counts " + std::to_string(counts[k]) +
                   " contacts, /contacts/step_offset " + std::to_string(offset[k + 1] - offset[k]));
    for (auto i = static_cast<std::size_t>(offset[k]); i < static_cast<std::size_t>(offset[k + 1]); ++i) {
      Contact c;
      c.body_a = body_a[i];
      c.body_b = body_b[i];
      c.kind = static_cast<FeatureKind>(kind[i]);
      c.features.primary = primary[i] != 0;
      c.features.feature_a = feature_a[i];
      c.features.feature_b = feature_b[i];
      c.point_a = vec3_at(point_a, i);
      c.point_b = vec3_at(point_b, i);
      c.normal = vec3_at(normal, i);
      c.gap = gap[i];
      c.features.applicability = applicability[i];
      step.contacts.push_back(c);
      step.normal_impulse.push_back(normal_impulse[i]);
      step.friction_impulse.push_back(vec3_at(friction_impulse, i));
    }
  }
}

}  // namespace

void read_steps(const h5::Reader& r, Recording& out) {
  const std::size_t nb = out.body_names.size();
  const bool exact = out.complete;
  const hsize_t n = exact ? rows_of(r, "/steps/time") : common_rows(r);
  if (n == 0) h5::fail(r.file(), "/steps/time", exact ? "no recorded rows" : "incomplete recording with no complete rows");
  const Rows rows{r, n, exact};
  const auto time = rows.get<double>("/steps/time");
  const auto step = rows.get<std::int64_t>("/steps/step");
  for (hsize_t k = 0; k < n; ++k) {
    if (step[k] < 0 || (k > 0 && step[k] <= step[k - 1]))
      h5::fail(r.file(), "/steps/step", "step " + std::to_string(step[k]) + " in row " + std::to_string(k) +
                                            " is negative or not after the previous row's");
    if (!std::isfinite(time[k]))
      h5::fail(r.file(), "/steps/time", "not a finite time in row " + std::to_string(k));
  }
  const auto position = rows.get<double>("/steps/position", {nb, 3});
  const auto orientation = rows.get<double>("/steps/orientation", {nb, 4});
  const auto linear = rows.get<double>("/steps/linear_velocity", {nb, 3});
  const auto angular = rows.get<double>("/steps/angular_velocity", {nb, 3});
  std::vector<double> pose2d;
  if (out.dimension == 2) pose2d = rows.get<double>("/steps/pose2d", {nb, 3});
  std::vector<std::int32_t> contact_counts;
  if (r.exists("/steps/contacts")) contact_counts = rows.get<std::int32_t>("/steps/contacts");
  const auto status = rows.get<std::uint8_t>("/steps/solver_status");
  const auto iterations = rows.get<std::int32_t>("/steps/solver_iterations");
  const auto calls = rows.get<std::int32_t>("/steps/solver_calls");
  const auto failures = rows.get<std::int32_t>("/steps/solver_failures");
  const auto recoveries = rows.get<std::int32_t>("/steps/solver_recoveries");
  const auto size = rows.get<std::int32_t>("/steps/problem_size");
  const auto complementarity = rows.get<double>("/steps/complementarity");
  const auto feasibility = rows.get<double>("/steps/feasibility");
  const auto penetration = rows.get<double>("/steps/max_penetration");
  std::vector<std::int32_t> found, constraints, traps;
  if (out.format_version >= 2) {
    found = rows.get<std::int32_t>("/steps/contacts_found");
    constraints = rows.get<std::int32_t>("/steps/constraints", {3});
    traps = rows.get<std::int32_t>("/steps/traps");
  }
  std::vector<std::int32_t> islands, escalations, solved_by;
  std::vector<double> certified, cone;
  std::vector<std::uint8_t> exceeded;
  const hsize_t chain = out.solver_chain.size();
  if (out.format_version >= 3) {
    islands = rows.get<std::int32_t>("/steps/islands");
    escalations = rows.get<std::int32_t>("/steps/escalations");
    solved_by = rows.get<std::int32_t>("/steps/solved_by", {chain});
    certified = rows.get<double>("/steps/certified_residual");
    cone = rows.get<double>("/steps/cone_violation");
    exceeded = rows.get<std::uint8_t>("/steps/penetration_exceeded");
  }
  std::vector<double> stages;
  const hsize_t stage_count = static_cast<hsize_t>(Stage::Count);
  if (r.exists("/steps/stage_seconds")) {
    if (out.format_version >= 4) {
      stages = rows.get<double>("/steps/stage_seconds", {stage_count});
    } else {  // the seven stages of versions 1-3, into their places
      const std::size_t old_count = recording_names::kStagesV3.size();
      const std::vector<double> old = rows.get<double>("/steps/stage_seconds", {old_count});
      stages.assign(n * stage_count, 0.0);
      for (hsize_t k = 0; k < n; ++k)
        for (std::size_t s = 0; s < old_count; ++s)
          stages[k * stage_count + static_cast<std::size_t>(recording_names::kStagesV3[s])] = old[k * old_count + s];
    }
  }
  std::vector<double> joint_errors, joint_positions, joint_velocities, joint_wrenches;
  if (r.exists("/steps/joint_errors")) joint_errors = rows.get<double>("/steps/joint_errors", {4});
  std::vector<std::int32_t> impulse_events;
  if (r.exists("/steps/impulse_events")) impulse_events = rows.get<std::int32_t>("/steps/impulse_events", {4});
  const hsize_t nj = out.joints.size();
  if (r.exists("/steps/joint_positions")) {
    joint_positions = rows.get<double>("/steps/joint_positions", {nj});
    joint_velocities = rows.get<double>("/steps/joint_velocities", {nj});
    joint_wrenches = rows.get<double>("/steps/joint_wrenches", {nj, 6});
  }
  out.steps.resize(n);
  for (hsize_t k = 0; k < n; ++k) {
    RecordedStep& s = out.steps[k];
    s.step = static_cast<long>(step[k]);
    s.time = time[k];
    for (std::size_t b = 0; b < nb; ++b) {
      const std::size_t row = k * nb + b;
      s.position.push_back(vec3_at(position, row));
      const double* q = &orientation[4 * row];
      s.orientation.emplace_back(q[0], q[1], q[2], q[3]);
      s.linear_velocity.push_back(vec3_at(linear, row));
      s.angular_velocity.push_back(vec3_at(angular, row));
      if (!pose2d.empty()) s.theta.push_back(pose2d[3 * row + 2]);
    }
    if (status[k] >= recording_names::kSolverStatusCount)
      h5::fail(r.file(), "/steps/solver_status", "unknown status " + std::to_string(status[k]) + " in row " + std::to_string(k));
    s.solver_status = static_cast<SolverStatus>(status[k]);
    s.solver_iterations = iterations[k];
    s.solver_calls = calls[k];
    s.solver_failures = failures[k];
    s.solver_recoveries = recoveries[k];
    s.problem_size = size[k];
    s.complementarity = complementarity[k];
    s.feasibility = feasibility[k];
    s.max_penetration = penetration[k];
    if (!found.empty()) {
      s.contacts_found = found[k];
      s.constraints = ConstraintCounts{constraints[3 * k], constraints[3 * k + 1], constraints[3 * k + 2]};
      s.traps = traps[k];
    }
    if (!islands.empty()) {
      s.islands = islands[k];
      s.escalations = escalations[k];
      s.solved_by.assign(&solved_by[k * chain], &solved_by[(k + 1) * chain]);
      s.certified_residual = certified[k];
      s.cone_violation = cone[k];
      s.penetration_exceeded = exceeded[k] != 0;
    }
    if (!joint_errors.empty()) s.joint_errors.assign(&joint_errors[4 * k], &joint_errors[4 * k + 4]);
    if (!impulse_events.empty()) s.impulse_events.assign(&impulse_events[4 * k], &impulse_events[4 * k + 4]);
    if (!joint_positions.empty() && nj > 0) {
      s.joint_positions.assign(&joint_positions[nj * k], &joint_positions[nj * (k + 1)]);
      s.joint_velocities.assign(&joint_velocities[nj * k], &joint_velocities[nj * (k + 1)]);
      for (hsize_t j = 0; j < nj; ++j) s.joint_wrenches.push_back(Eigen::Map<const Vec6>(&joint_wrenches[6 * (nj * k + j)]));
    }
    if (!stages.empty()) s.stage_seconds.assign(&stages[k * stage_count], &stages[(k + 1) * stage_count]);
  }
  read_contacts(r, n, exact, contact_counts, out);
}

}  // namespace pegsim::recording_reader
