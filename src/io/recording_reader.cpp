// read_recording(): a recording back into memory, every dataset's shape
// checked against the layout of docs/recording-format.md.
#include "io/h5.hpp"
#include "io/recording.hpp"
#include "io/recording_names.hpp"

namespace pegsim {

namespace {

Vec3 vec3_at(const std::vector<double>& v, std::size_t row) {
  return Vec3(v[3 * row], v[3 * row + 1], v[3 * row + 2]);
}

void read_model(const h5::Reader& r, Recording& out) {
  bool ours = false;
  try {
    ours = r.string_attribute("/", "format") == recording_names::kFormat;
  } catch (const RecordingError&) {
  }
  if (!ours) h5::fail(r.file(), "/", "not a pegsim recording (no format attribute)");
  const int version = r.int_attribute("/", "format_version");
  if (version < 1 || version > recording_names::kFormatVersion)
    h5::fail(r.file(), "/", "unsupported format_version " + std::to_string(version));
  out.format_version = version;
  out.dimension = r.int_attribute("/model", "dimension");
  if (out.dimension != 2 && out.dimension != 3)
    h5::fail(r.file(), "/model", "dimension must be 2 or 3, got " + std::to_string(out.dimension));
  out.h = r.double_attribute("/model", "h");
  out.every = r.int_attribute("/model", "record_every");
  out.stepper = version >= 4 ? r.string_attribute("/model", "stepper") : "time-stepping";
  out.model = r.string_attribute("/model", "model");
  out.formulation = r.string_attribute("/model", "formulation");
  out.solver = r.string_attribute("/model", "solver");
  if (version >= 3) out.solver_chain = r.strings("/model/solver_chain");
  else out.solver_chain = {out.solver};
  if (out.solver_chain.empty()) h5::fail(r.file(), "/model/solver_chain", "empty solver chain");
  if (r.exists("/model/scene")) out.scene_text = r.string_scalar("/model/scene");
}

void read_bodies(const h5::Reader& r, Recording& out) {
  out.body_names = r.strings("/bodies/name");
  const hsize_t nb = out.body_names.size();
  if (nb == 0) h5::fail(r.file(), "/bodies/name", "no bodies");
  for (std::uint8_t s : r.dataset<std::uint8_t>("/bodies/static", {nb})) out.body_static.push_back(s != 0);
  out.body_mass = r.dataset<double>("/bodies/mass", {nb});
  const auto inertia = r.dataset<double>("/bodies/inertia", {nb, 3, 3});
  for (hsize_t b = 0; b < nb; ++b) {
    Mat3 m;
    for (int i = 0; i < 3; ++i)
      for (int j = 0; j < 3; ++j) m(i, j) = inertia[9 * b + 3 * i + j];
    out.body_inertia.push_back(m);
  }
}

void read_contacts(const h5::Reader& r, std::size_t nb, Recording& out) {
  const hsize_t n = out.steps.size();
  const auto offset = r.dataset<std::int64_t>("/contacts/step_offset", {n + 1});
  for (hsize_t k = 0; k < n; ++k)
    if (offset[0] != 0 || offset[k + 1] < offset[k])
      h5::fail(r.file(), "/contacts/step_offset", "offsets must start at 0 and never decrease");
  const hsize_t m = static_cast<hsize_t>(offset[n]);
  const auto body_a = r.dataset<std::uint32_t>("/contacts/body_a", {m});
  const auto body_b = r.dataset<std::uint32_t>("/contacts/body_b", {m});
  const auto kind = r.dataset<std::uint8_t>("/contacts/kind", {m});
  const auto primary = r.dataset<std::uint8_t>("/contacts/primary", {m});
  const auto feature_a = r.dataset<std::int32_t>("/contacts/feature_a", {m});
  const auto feature_b = r.dataset<std::int32_t>("/contacts/feature_b", {m});
  const auto point_a = r.dataset<double>("/contacts/point_a", {m, 3});
  const auto point_b = r.dataset<double>("/contacts/point_b", {m, 3});
  const auto normal = r.dataset<double>("/contacts/normal", {m, 3});
  const auto gap = r.dataset<double>("/contacts/gap", {m});
  const auto applicability = r.dataset<double>("/contacts/applicability", {m});
  const auto normal_impulse = r.dataset<double>("/contacts/normal_impulse", {m});
  const auto friction_impulse = r.dataset<double>("/contacts/friction_impulse", {m, 3});
  for (hsize_t i = 0; i < m; ++i) {
    if (body_a[i] >= nb || body_b[i] >= nb)
      h5::fail(r.file(), body_a[i] >= nb ? "/contacts/body_a" : "/contacts/body_b",
               "body index out of range in row " + std::to_string(i));
    if (kind[i] >= recording_names::kFeatureKinds.size())
      h5::fail(r.file(), "/contacts/kind", "unknown feature kind in row " + std::to_string(i));
  }
  for (hsize_t k = 0; k < n; ++k) {
    RecordedStep& step = out.steps[k];
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

// /model/joint_*: names and kinds, and (when stored) ends, anchors and frames, checked against the bodies
void read_joints(const h5::Reader& r, Recording& out) {
  if (!r.exists("/model/joint_names")) return;
  const std::vector<std::string> names = r.strings("/model/joint_names");
  const std::vector<std::string> kinds = r.strings("/model/joint_kinds");
  if (kinds.size() != names.size()) h5::fail(r.file(), "/model/joint_kinds", "one kind per joint name expected");
  const hsize_t nj = names.size();
  out.joints.resize(nj);
  for (hsize_t j = 0; j < nj; ++j) out.joints[j].name = names[j], out.joints[j].kind = kinds[j];
  if (!r.exists("/model/joint_bodies")) return;
  const auto ends = r.dataset<std::int32_t>("/model/joint_bodies", {nj, 2});
  const auto anchors = r.dataset<double>("/model/joint_anchors", {nj, 2, 3});
  const auto frames = r.dataset<double>("/model/joint_frames", {nj, 2, 3, 3});
  for (hsize_t j = 0; j < nj; ++j) {
    RecordedJoint& joint = out.joints[j];
    joint.body_a = ends[2 * j], joint.body_b = ends[2 * j + 1];
    joint.anchor_a = vec3_at(anchors, 2 * j), joint.anchor_b = vec3_at(anchors, 2 * j + 1);
    for (int r3 = 0; r3 < 3; ++r3)
      for (int c = 0; c < 3; ++c) {
        joint.frame_a(r3, c) = frames[18 * j + 3 * r3 + c];
        joint.frame_b(r3, c) = frames[18 * j + 9 + 3 * r3 + c];
      }
  }
}

void check_joint_ends(const h5::Reader& r, const Recording& out) {
  const auto nb = static_cast<int>(out.body_names.size());
  for (std::size_t j = 0; j < out.joints.size(); ++j)
    for (int b : {out.joints[j].body_a, out.joints[j].body_b})
      if (b < -1 || b >= nb) h5::fail(r.file(), "/model/joint_bodies", "body index out of range in row " + std::to_string(j));
}

void read_steps(const h5::Reader& r, Recording& out) {
  const std::size_t nb = out.body_names.size();
  const auto time = r.dataset<double>("/steps/time", {0});
  const hsize_t n = time.size();
  const auto step = r.dataset<std::int64_t>("/steps/step", {n});
  const auto position = r.dataset<double>("/steps/position", {n, nb, 3});
  const auto orientation = r.dataset<double>("/steps/orientation", {n, nb, 4});
  const auto linear = r.dataset<double>("/steps/linear_velocity", {n, nb, 3});
  const auto angular = r.dataset<double>("/steps/angular_velocity", {n, nb, 3});
  std::vector<double> pose2d;
  if (out.dimension == 2) pose2d = r.dataset<double>("/steps/pose2d", {n, nb, 3});
  const auto status = r.dataset<std::uint8_t>("/steps/solver_status", {n});
  const auto iterations = r.dataset<std::int32_t>("/steps/solver_iterations", {n});
  const auto calls = r.dataset<std::int32_t>("/steps/solver_calls", {n});
  const auto failures = r.dataset<std::int32_t>("/steps/solver_failures", {n});
  const auto recoveries = r.dataset<std::int32_t>("/steps/solver_recoveries", {n});
  const auto size = r.dataset<std::int32_t>("/steps/problem_size", {n});
  const auto complementarity = r.dataset<double>("/steps/complementarity", {n});
  const auto feasibility = r.dataset<double>("/steps/feasibility", {n});
  const auto penetration = r.dataset<double>("/steps/max_penetration", {n});
  std::vector<std::int32_t> found, constraints, traps;
  if (out.format_version >= 2) {
    found = r.dataset<std::int32_t>("/steps/contacts_found", {n});
    constraints = r.dataset<std::int32_t>("/steps/constraints", {n, 3});
    traps = r.dataset<std::int32_t>("/steps/traps", {n});
  }
  std::vector<std::int32_t> islands, escalations, solved_by;
  std::vector<double> certified, cone;
  std::vector<std::uint8_t> exceeded;
  const hsize_t chain = out.solver_chain.size();
  if (out.format_version >= 3) {
    islands = r.dataset<std::int32_t>("/steps/islands", {n});
    escalations = r.dataset<std::int32_t>("/steps/escalations", {n});
    solved_by = r.dataset<std::int32_t>("/steps/solved_by", {n, chain});
    certified = r.dataset<double>("/steps/certified_residual", {n});
    cone = r.dataset<double>("/steps/cone_violation", {n});
    exceeded = r.dataset<std::uint8_t>("/steps/penetration_exceeded", {n});
  }
  std::vector<double> stages;
  const hsize_t stage_count = static_cast<hsize_t>(Stage::Count);
  if (r.exists("/steps/stage_seconds")) {
    if (out.format_version >= 4) {
      stages = r.dataset<double>("/steps/stage_seconds", {n, stage_count});
    } else {  // the seven stages of versions 1-3, into their places
      const std::size_t old_count = recording_names::kStagesV3.size();
      const std::vector<double> old = r.dataset<double>("/steps/stage_seconds", {n, old_count});
      stages.assign(n * stage_count, 0.0);
      for (hsize_t k = 0; k < n; ++k)
        for (std::size_t s = 0; s < old_count; ++s)
          stages[k * stage_count + static_cast<std::size_t>(recording_names::kStagesV3[s])] = old[k * old_count + s];
    }
  }

  std::vector<double> joint_errors, joint_positions, joint_velocities, joint_wrenches;
  if (r.exists("/steps/joint_errors")) joint_errors = r.dataset<double>("/steps/joint_errors", {n, 4});
  std::vector<std::int32_t> impulse_events;
  if (r.exists("/steps/impulse_events")) impulse_events = r.dataset<std::int32_t>("/steps/impulse_events", {n, 4});
  const hsize_t nj = out.joints.size();
  if (r.exists("/steps/joint_positions")) {
    joint_positions = r.dataset<double>("/steps/joint_positions", {n, nj});
    joint_velocities = r.dataset<double>("/steps/joint_velocities", {n, nj});
    joint_wrenches = r.dataset<double>("/steps/joint_wrenches", {n, nj, 6});
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
      h5::fail(r.file(), "/steps/solver_status", "unknown status in row " + std::to_string(k));
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
    if (!joint_positions.empty()) {
      s.joint_positions.assign(&joint_positions[nj * k], &joint_positions[nj * (k + 1)]);
      s.joint_velocities.assign(&joint_velocities[nj * k], &joint_velocities[nj * (k + 1)]);
      for (hsize_t j = 0; j < nj; ++j) s.joint_wrenches.push_back(Eigen::Map<const Vec6>(&joint_wrenches[6 * (nj * k + j)]));
    }
    if (!stages.empty()) s.stage_seconds.assign(&stages[k * stage_count], &stages[(k + 1) * stage_count]);
  }
  read_contacts(r, nb, out);
}

}  // namespace

Recording read_recording(const std::string& path) {
  h5::QuietErrors quiet;
  const h5::Reader reader(path);
  Recording out;
  read_model(reader, out);
  read_bodies(reader, out);
  read_joints(reader, out);
  check_joint_ends(reader, out);
  read_steps(reader, out);
  return out;
}

}  // namespace pegsim
