// read_recording(): a recording back into memory, every dataset's shape and
// every index checked against the layout of docs/recording-format.md. This
// file: the once-per-file groups (/model, /bodies, joints); the body shapes
// and the rows are in recording_shapes_reader.cpp and recording_steps_reader.cpp.
#include "io/recording_names.hpp"
#include "io/recording_reader_parts.hpp"

#include <cmath>

namespace pegsim {

namespace {

using recording_reader::vec3_at;

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
  if (!(out.h > 0.0) || !std::isfinite(out.h)) h5::fail(r.file(), "/model", "attribute 'h' must be a positive time step");
  out.every = r.int_attribute("/model", "record_every");
  if (out.every < 1) h5::fail(r.file(), "/model", "attribute 'record_every' must be at least 1, got " + std::to_string(out.every));
  const std::vector<double> g = r.double_attributes("/model", "gravity", 3);
  out.gravity = Vec3(g[0], g[1], g[2]);
  if (r.exists("/model/materials")) {
    out.materials = r.strings("/model/materials");
    const hsize_t nm = out.materials.size();
    if (nm == 0) h5::fail(r.file(), "/model/materials", "no materials (index 0 is 'default')");
    if (r.exists("/model/friction")) r.dataset<double>("/model/friction", {nm, nm});
  }
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
  if (r.exists("/bodies/material")) {
    out.body_material = r.dataset<std::uint32_t>("/bodies/material", {nb});
    for (hsize_t b = 0; b < nb; ++b)
      if (out.body_material[b] >= out.materials.size())
        h5::fail(r.file(), "/bodies/material", "material index " + std::to_string(out.body_material[b]) +
                                                   " of body " + std::to_string(b) + " out of range (" +
                                                   std::to_string(out.materials.size()) + " materials)");
  }
  for (hsize_t b = 0; b < nb; ++b) out.shapes.push_back(recording_reader::read_shape(r, b));
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

}  // namespace

Recording read_recording(const std::string& path) {
  h5::QuietErrors quiet;
  const h5::Reader reader(path);
  Recording out;
  read_model(reader, out);
  // complete = 0 while the writer had the file open: it was never closed
  out.complete = !reader.writer_left_open() &&
                 (!reader.has_attribute("/", recording_names::kComplete) ||
                  reader.int_attribute("/", recording_names::kComplete) == 1);
  try {
    read_bodies(reader, out);
    read_joints(reader, out);
    check_joint_ends(reader, out);
    recording_reader::read_steps(reader, out);
  } catch (const RecordingError& e) {
    if (out.complete) throw;
    throw RecordingError(std::string(e.what()) + " (an incomplete recording: its writer did not close it)");
  }
  return out;
}

std::string incomplete_note(const std::string& path, const Recording& rec) {
  std::string note = path + ": incomplete recording: " + std::to_string(rec.steps.size()) + " complete rows";
  if (!rec.steps.empty())
    note += " (steps " + std::to_string(rec.steps.front().step) + " to " + std::to_string(rec.steps.back().step) + ")";
  note += "; its writer did not close it (killed, or still running)";
  return note;
}

}  // namespace pegsim
