// The Recorder: writes a recording (docs/recording-format.md).
//
// Once per file: /model (options as attributes, materials, friction, scene
// text) and /bodies (names, flags, mass properties, shapes in body frames).
// Per recorded step: one row of every /steps column and the step's contacts
// appended to the /contacts columns, /contacts/step_offset marking where each
// row's contacts end. Columns buffer a chunk of rows before writing it.
#include "io/h5.hpp"
#include "io/recording.hpp"
#include "io/recording_names.hpp"
#include "joints/joint_frames.hpp"

#include <algorithm>
#include <array>
#include <optional>

namespace pegsim {

namespace {

using h5::Column;
using h5::Handle;
using h5::Writer;

constexpr int kStages = static_cast<int>(Stage::Count);
// At most this many rows a chunk, and a checkpoint (H5Fflush) every this many
// recorded rows: a killed run loses at most about this many rows (plus the
// contacts' partly filled chunk), docs/recording-format.md.
constexpr hsize_t kChunkRows = 256;

// A curved kind's exact dimensions (geometry/curved.hpp) as attributes next
// to its drawing mesh: radius, centre (body frame), and length or height.
void write_curved_dimensions(const Writer& w, hid_t g, const Shape& shape) {
  std::visit([&](const auto& k) {
    if constexpr (requires { k.radius; k.centre; }) {
      w.attribute(g, "radius", k.radius);
      w.attribute(g, "centre", std::vector<double>{k.centre.x(), k.centre.y(), k.centre.z()});
      if constexpr (requires { k.length; }) w.attribute(g, "length", k.length);
      if constexpr (requires { k.height; }) w.attribute(g, "height", k.height);
    }
  }, shape);
}

// The kind's name from the registry (geometry/shape.hpp); a half-space as its
// plane, every bounded kind as its mesh (append_mesh, geometry/shape_kind.hpp):
// vertices, triangles and facet loops (a polygon is one facet), a compound's
// parts one after another, part_offsets marking where each part's vertices start.
void write_shape(const Writer& w, hid_t bodies, std::size_t index, const Shape& shape) {
  Handle group = w.create_group(bodies, "shape_" + std::to_string(index));
  const hid_t g = group.get();
  w.attribute(g, "kind", std::string(shape_kind_name(shape)));
  if (const auto* hs = std::get_if<HalfSpace>(&shape)) {
    w.attribute(g, "normal", std::vector<double>{hs->normal.x(), hs->normal.y(), hs->normal.z()});
    w.attribute(g, "offset", hs->offset);
    return;
  }
  write_curved_dimensions(w, g, shape);
  ShapeMesh mesh;
  std::vector<std::int32_t> part_offsets;
  for (int part = 0; part < part_count(shape); ++part) {
    part_offsets.push_back(static_cast<std::int32_t>(mesh.vertices.size()));
    append_mesh(part_of(shape, part), mesh);
  }
  std::vector<double> vertices, normals;
  std::vector<std::int32_t> triangles, loop_vertices, loop_offsets{0};
  for (const Vec3& v : mesh.vertices) vertices.insert(vertices.end(), {v.x(), v.y(), v.z()});
  for (const auto& t : mesh.triangles) triangles.insert(triangles.end(), {t[0], t[1], t[2]});
  for (const std::vector<int>& loop : mesh.facets) {
    loop_vertices.insert(loop_vertices.end(), loop.begin(), loop.end());
    loop_offsets.push_back(static_cast<std::int32_t>(loop_vertices.size()));
  }
  for (const Vec3& n : mesh.facet_normals) normals.insert(normals.end(), {n.x(), n.y(), n.z()});
  if (is_compound(shape)) w.dataset(g, "part_offsets", {part_offsets.size()}, part_offsets);
  const hsize_t nv = vertices.size() / 3, nt = triangles.size() / 3, nf = loop_offsets.size() - 1;
  w.dataset(g, "vertices", {nv, 3}, vertices);
  w.dataset(g, "triangles", {nt, 3}, triangles);
  w.dataset(g, "facet_offsets", {nf + 1}, loop_offsets);
  w.dataset(g, "facet_vertices", {loop_vertices.size()}, loop_vertices);
  w.dataset(g, "facet_normals", {nf, 3}, normals);
}

void write_model(const Writer& w, hid_t file, const Model& model, int every, const std::string& scene) {
  namespace names = recording_names;
  w.attribute(file, "format", std::string(names::kFormat));
  w.attribute(file, "format_version", std::int32_t{names::kFormatVersion});

  Handle group = w.create_group(file, "model");
  const hid_t g = group.get();
  const SimOptions& o = model.options;
  w.attribute(g, "dimension", std::int32_t{static_cast<int>(o.dimension)});
  w.attribute(g, "h", o.h);
  w.attribute(g, "duration", o.duration);
  w.attribute(g, "eps", o.eps);
  w.attribute(g, "eps_auto", std::int32_t{o.eps_auto});
  w.attribute(g, "eps_theta", o.eps_theta);
  w.attribute(g, "eps_theta_auto", std::int32_t{o.eps_theta_auto});
  w.attribute(g, "friction_directions", std::int32_t{o.friction_directions});
  w.attribute(g, "stepper", o.stepper);
  w.attribute(g, "model", names::contact_model(o.model));
  w.attribute(g, "formulation", names::formulation(o.formulation));
  w.attribute(g, "solver", o.solver);
  w.attribute(g, "gravity", std::vector<double>{o.gravity.x(), o.gravity.y(), o.gravity.z()});
  w.attribute(g, "solver_tolerance", o.solver_tolerance);
  w.attribute(g, "solver_max_iterations", std::int32_t{o.solver_max_iterations});
  w.attribute(g, "solver_relaxation", o.solver_relaxation);
  w.attribute(g, "max_cone_violation", o.max_cone_violation);
  w.attribute(g, "max_penetration", o.max_penetration);
  w.attribute(g, "islands", std::int32_t{o.islands});
  w.attribute(g, "gyroscopic", names::gyroscopic(o.gyroscopic));
  w.attribute(g, "position_correction", std::int32_t{o.position_correction});
  w.attribute(g, "correction_tolerance", o.correction_tolerance);
  w.attribute(g, "correction_iterations", std::int32_t{o.correction_iterations});
  w.attribute(g, "contact_drift_correction", std::int32_t{o.contact_drift_correction});
  w.attribute(g, "record_every", std::int32_t{every});

  std::vector<std::string> materials;
  for (const Material& m : model.materials) materials.push_back(m.name);
  w.strings(g, "materials", materials);
  w.strings(g, "solver_chain", o.solver_chain.empty() ? std::vector<std::string>{o.solver} : o.solver_chain);
  const hsize_t nm = materials.size();
  w.dataset(g, "friction", {nm, nm}, model.friction);
  // joints by name and kind (their frames are in the scene text)
  std::vector<std::string> joint_names, joint_kinds;
  for (const JointModel& j : model.joints) {
    joint_names.push_back(j.name);
    joint_kinds.emplace_back(to_string(j.kind));
  }
  if (!model.joints.empty()) {
    w.strings(g, "joint_names", joint_names);
    w.strings(g, "joint_kinds", joint_kinds);
    // the ends (-1: the world) and each end's frame in its body frame: what a viewer needs to draw them
    const hsize_t nj = model.joints.size();
    std::vector<std::int32_t> ends;
    std::vector<double> anchors, frames;
    for (const JointModel& j : model.joints) {
      for (std::uint32_t b : {j.body_a, j.body_b}) ends.push_back(b == kWorldBody ? -1 : static_cast<std::int32_t>(b));
      for (const Vec3* a : {&j.anchor_a, &j.anchor_b}) anchors.insert(anchors.end(), a->data(), a->data() + 3);
      for (const Mat3* f : {&j.frame_a, &j.frame_b})
        for (int r = 0; r < 3; ++r)
          for (int c = 0; c < 3; ++c) frames.push_back((*f)(r, c));
    }
    w.dataset(g, "joint_bodies", {nj, 2}, ends);
    w.dataset(g, "joint_anchors", {nj, 2, 3}, anchors);
    w.dataset(g, "joint_frames", {nj, 2, 3, 3}, frames);
  }
  if (!scene.empty()) w.string_scalar(g, "scene", scene);
}

void write_bodies(const Writer& w, hid_t file, const Model& model) {
  Handle group = w.create_group(file, "bodies");
  const hid_t g = group.get();
  const hsize_t nb = model.bodies.size();
  std::vector<std::string> names;
  std::vector<std::uint8_t> is_static, is_kinematic;
  std::vector<double> mass, inertia;
  std::vector<std::uint32_t> material;
  for (const BodyModel& b : model.bodies) {
    names.push_back(b.name);
    is_static.push_back(b.is_static ? 1 : 0);
    is_kinematic.push_back(b.is_kinematic ? 1 : 0);
    mass.push_back(b.mass);
    for (int i = 0; i < 3; ++i)
      for (int j = 0; j < 3; ++j) inertia.push_back(b.inertia(i, j));
    material.push_back(b.material.index);
  }
  w.strings(g, "name", names);
  w.dataset(g, "static", {nb}, is_static);
  w.dataset(g, "kinematic", {nb}, is_kinematic);
  w.dataset(g, "mass", {nb}, mass);
  w.dataset(g, "inertia", {nb, 3, 3}, inertia);
  w.dataset(g, "material", {nb}, material);
  for (std::size_t i = 0; i < model.bodies.size(); ++i) write_shape(w, g, i, model.bodies[i].shape);
}

}  // namespace

struct Recorder::Impl {
  Impl(const std::string& path, const Model& model, int every, bool timings)
      : writer(path), file(writer.create_file()), every(every),
        planar(model.options.dimension == Dimension::Planar), nb(model.bodies.size()),
        chain(std::max<std::size_t>(model.options.solver_chain.size(), 1)) {
    const hid_t f = file.get();
    steps_group = writer.create_group(f, "steps");
    contacts_group = writer.create_group(f, "contacts");
    const hid_t s = steps_group.get(), c = contacts_group.get();
    auto col = [&](hid_t g, const char* name, std::vector<hsize_t> row, auto type) {
      return Column::of<decltype(type)>(writer, g, name, row, kChunkRows);
    };
    step = col(s, "step", {}, std::int64_t{});
    time = col(s, "time", {}, double{});
    position = col(s, "position", {nb, 3}, double{});
    orientation = col(s, "orientation", {nb, 4}, double{});
    linear_velocity = col(s, "linear_velocity", {nb, 3}, double{});
    angular_velocity = col(s, "angular_velocity", {nb, 3}, double{});
    if (planar) pose2d = col(s, "pose2d", {nb, 3}, double{});
    contact_count = col(s, "contacts", {}, std::int32_t{});
    contacts_found = col(s, "contacts_found", {}, std::int32_t{});
    constraints = col(s, "constraints", {3}, std::int32_t{});
    traps = col(s, "traps", {}, std::int32_t{});
    solver_status = col(s, "solver_status", {}, std::uint8_t{});
    solver_iterations = col(s, "solver_iterations", {}, std::int32_t{});
    solver_calls = col(s, "solver_calls", {}, std::int32_t{});
    solver_failures = col(s, "solver_failures", {}, std::int32_t{});
    solver_recoveries = col(s, "solver_recoveries", {}, std::int32_t{});
    problem_size = col(s, "problem_size", {}, std::int32_t{});
    complementarity = col(s, "complementarity", {}, double{});
    feasibility = col(s, "feasibility", {}, double{});
    max_penetration = col(s, "max_penetration", {}, double{});
    islands = col(s, "islands", {}, std::int32_t{});
    escalations = col(s, "escalations", {}, std::int32_t{});
    solved_by = col(s, "solved_by", {hsize_t{chain}}, std::int32_t{});
    certified_residual = col(s, "certified_residual", {}, double{});
    cone_violation = col(s, "cone_violation", {}, double{});
    penetration_exceeded = col(s, "penetration_exceeded", {}, std::uint8_t{});
    if (timings) stage_seconds = col(s, "stage_seconds", {hsize_t{kStages}}, double{});
    // the impulse stepper: its events between this row and the last (sim/impulse_stepping.hpp)
    if (model.options.stepper == "impulse") impulse_events = col(s, "impulse_events", {4}, std::int32_t{});
    // joints: the largest position and velocity error, before and after the joint correction
    if (!model.joints.empty()) {
      joint_errors = col(s, "joint_errors", {4}, double{});
      // per joint: its coordinate and rate (0 for kinds without one), and the wrench its rows applied to end B
      const hsize_t nj = model.joints.size();
      joint_positions = col(s, "joint_positions", {nj}, double{});
      joint_velocities = col(s, "joint_velocities", {nj}, double{});
      joint_wrenches = col(s, "joint_wrenches", {nj, 6}, double{});
      joint_model = model;
    }

    step_offset = col(c, "step_offset", {}, std::int64_t{});
    body_a = col(c, "body_a", {}, std::uint32_t{});
    body_b = col(c, "body_b", {}, std::uint32_t{});
    kind = col(c, "kind", {}, std::uint8_t{});
    primary = col(c, "primary", {}, std::uint8_t{});
    feature_a = col(c, "feature_a", {}, std::int32_t{});
    feature_b = col(c, "feature_b", {}, std::int32_t{});
    point_a = col(c, "point_a", {3}, double{});
    point_b = col(c, "point_b", {3}, double{});
    normal = col(c, "normal", {3}, double{});
    gap = col(c, "gap", {}, double{});
    applicability = col(c, "applicability", {}, double{});
    normal_impulse = col(c, "normal_impulse", {}, double{});
    friction_impulse = col(c, "friction_impulse", {3}, double{});

    // the meaning of the coded columns, next to them
    std::vector<std::string> statuses, stages, kinds;
    for (int i = 0; i < recording_names::kSolverStatusCount; ++i)
      statuses.emplace_back(to_string(static_cast<SolverStatus>(i)));
    for (const char* n : kStageNames) stages.emplace_back(n);
    for (const char* n : recording_names::kFeatureKinds) kinds.emplace_back(n);
    writer.attribute(solver_status->id(), "names", statuses);
    writer.attribute(constraints->id(), "names", std::vector<std::string>{"U", "I", "X"});
    if (stage_seconds) writer.attribute(stage_seconds->id(), "stage_names", stages);
    writer.attribute(kind->id(), "names", kinds);
    step_offset->append_value(std::int64_t{0});

  }

  void record(const State& state, const StepReport* report);
  void checkpoint();
  void close();
  std::vector<std::optional<Column>*> columns();

  Writer writer;
  Handle file;  // declared before the groups and columns: closed after them
  Handle steps_group, contacts_group;
  int every;
  bool planar;
  std::size_t nb;
  std::size_t chain;  // solvers in the chain: /steps/solved_by's width
  std::int64_t contact_total = 0;
  bool closed = false;
  hsize_t rows_pending = 0;  // rows recorded since the last checkpoint
  std::optional<Column> step, time, position, orientation, linear_velocity, angular_velocity, pose2d,
      contact_count, contacts_found, constraints, traps, solver_status, solver_iterations, solver_calls, solver_failures, solver_recoveries,
      problem_size, complementarity, feasibility, max_penetration, islands, escalations, solved_by,
      certified_residual, cone_violation, penetration_exceeded, stage_seconds, joint_errors,
      joint_positions, joint_velocities, joint_wrenches, impulse_events;
  // events, collisions, micro-collisions, sticking collisions since the last recorded row
  std::array<std::int32_t, 4> impulse_since_row{};
  std::optional<Model> joint_model;  // a copy, for the joint coordinates of each row (models with joints only)
  std::optional<Column> step_offset, body_a, body_b, kind, primary, feature_a, feature_b, point_a,
      point_b, normal, gap, applicability, normal_impulse, friction_impulse;
  std::vector<double> scratch;
};

std::vector<std::optional<Column>*> Recorder::Impl::columns() {
  return {&step, &time, &position, &orientation, &linear_velocity, &angular_velocity, &pose2d,
          &contact_count, &contacts_found, &constraints, &traps, &solver_status, &solver_iterations, &solver_calls, &solver_failures, &solver_recoveries,
          &problem_size, &complementarity, &feasibility, &max_penetration, &islands, &escalations, &solved_by,
          &certified_residual, &cone_violation, &penetration_exceeded, &stage_seconds, &joint_errors,
          &joint_positions, &joint_velocities, &joint_wrenches, &impulse_events, &step_offset, &body_a, &body_b, &kind, &primary, &feature_a, &feature_b, &point_a,
          &point_b, &normal, &gap, &applicability, &normal_impulse, &friction_impulse};
}

void Recorder::Impl::record(const State& state, const StepReport* report) {
  if (state.bodies.size() != nb)
    h5::fail(writer.file(), "/steps", "the state has " + std::to_string(state.bodies.size()) +
                                          " bodies, the recording " + std::to_string(nb));
  // body rows: one [nb, k] block per column
  auto body_row = [&](Column& column, int k, auto&& fill) {
    scratch.assign(nb * k, 0.0);
    for (std::size_t b = 0; b < nb; ++b) fill(state.bodies[b], &scratch[b * k]);
    column.append(scratch.data());
  };
  auto put3 = [](const Vec3& v, double* out) { out[0] = v.x(), out[1] = v.y(), out[2] = v.z(); };
  step->append_value(std::int64_t{state.step});
  time->append_value(state.time);
  body_row(*position, 3, [&](const BodyState& s, double* o) { put3(s.pose.position, o); });
  body_row(*orientation, 4, [](const BodyState& s, double* o) {
    const Quat& q = s.pose.orientation;
    o[0] = q.w(), o[1] = q.x(), o[2] = q.y(), o[3] = q.z();
  });
  body_row(*linear_velocity, 3, [&](const BodyState& s, double* o) { put3(s.linear_velocity, o); });
  body_row(*angular_velocity, 3, [&](const BodyState& s, double* o) { put3(s.angular_velocity, o); });
  if (pose2d)
    body_row(*pose2d, 3, [](const BodyState& s, double* o) {
      o[0] = s.pose.position.x(), o[1] = s.pose.position.y(), o[2] = planar_angle(s.pose);
    });

  // contacts with their impulses (zero where the report has none)
  const std::size_t n = report ? report->contacts.size() : 0;
  for (std::size_t i = 0; i < n; ++i) {
    const Contact& c = report->contacts[i];
    const ContactImpulse impulse = i < report->impulses.size() ? report->impulses[i] : ContactImpulse{};
    body_a->append_value(c.body_a);
    body_b->append_value(c.body_b);
    kind->append_value(static_cast<std::uint8_t>(c.kind));
    primary->append_value(std::uint8_t{c.features.primary});
    feature_a->append_value(std::int32_t{c.features.feature_a});
    feature_b->append_value(std::int32_t{c.features.feature_b});
    point_a->append(c.point_a.data());
    point_b->append(c.point_b.data());
    normal->append(c.normal.data());
    gap->append_value(c.gap);
    applicability->append_value(c.features.applicability);
    normal_impulse->append_value(impulse.normal);
    friction_impulse->append(impulse.friction.data());
  }
  contact_total += static_cast<std::int64_t>(n);
  step_offset->append_value(contact_total);

  // solver statistics (the initial row: zeros, status Solved)
  const StepReport empty{};
  const StepReport& r = report ? *report : empty;
  contact_count->append_value(static_cast<std::int32_t>(n));
  contacts_found->append_value(std::int32_t{r.contacts_found});
  const std::int32_t kinds[3] = {r.constraints.u, r.constraints.i, r.constraints.x};
  constraints->append(kinds);
  traps->append_value(std::int32_t{r.traps});
  solver_status->append_value(static_cast<std::uint8_t>(report ? r.solver.status : SolverStatus::Solved));
  solver_iterations->append_value(std::int32_t{r.solver.iterations});
  solver_calls->append_value(std::int32_t{r.solver_calls});
  solver_failures->append_value(std::int32_t{r.solver_failures});
  solver_recoveries->append_value(std::int32_t{r.solver_recoveries});
  problem_size->append_value(std::int32_t{r.problem_size});
  complementarity->append_value(r.solver.complementarity);
  feasibility->append_value(r.solver.feasibility);
  max_penetration->append_value(r.max_penetration);
  islands->append_value(static_cast<std::int32_t>(r.islands.size()));
  escalations->append_value(std::int32_t{r.escalations});
  std::vector<std::int32_t> by(chain, 0);
  for (std::size_t k = 0; k < r.solved_by.size() && k < chain; ++k) by[k] = r.solved_by[k];
  solved_by->append(by.data());
  certified_residual->append_value(r.complementarity);
  cone_violation->append_value(r.cone_violation);
  penetration_exceeded->append_value(std::uint8_t{r.penetration_exceeded});
  if (stage_seconds) stage_seconds->append(r.profile.seconds.data());
  if (impulse_events) {
    impulse_events->append(impulse_since_row.data());
    impulse_since_row.fill(0);
  }
  if (joint_errors) {
    const double e[4] = {r.joint_position_error_before, r.joint_velocity_error_before, r.joint_position_error,
                         r.joint_velocity_error};
    joint_errors->append(e);
    const Model& m = *joint_model;
    const std::size_t nj = m.joints.size();
    scratch.assign(nj, 0.0);
    for (std::size_t j = 0; j < nj; ++j)
      scratch[j] = joint_position(m.joints[j], joint_frames(m.joints[j], m, state), m.options.dimension, state, j);
    joint_positions->append(scratch.data());
    for (std::size_t j = 0; j < nj; ++j)
      scratch[j] = joint_velocity(m.joints[j], joint_frames(m.joints[j], m, state), m.options.dimension);
    joint_velocities->append(scratch.data());
    scratch.assign(6 * nj, 0.0);  // the initial row, or a step without joint rows: zeros
    for (std::size_t j = 0; j < nj && j < r.joint_wrenches.size(); ++j)
      for (int k = 0; k < 6; ++k) scratch[6 * j + k] = r.joint_wrenches[j](k);
    joint_wrenches->append(scratch.data());
  }
}

// H5Fflush: the chunks written so far (columns write a chunk when it fills)
// and the datasets' extents reach the file. Under SWMR writing the file stays
// readable whenever the process dies; its columns then hold different row
// counts, and read_recording() reads the rows that all of them hold.
void Recorder::Impl::checkpoint() {
  writer.flush(file.get());
  rows_pending = 0;
}

// The columns' last rows, then the root attribute complete = 1 (written 0 at
// creation): the file says it was closed by its writer. SWMR writing creates
// and changes no attributes, so it is set after closing, in a plain reopen.
void Recorder::Impl::close() {
  if (closed) return;
  closed = true;
  for (std::optional<Column>* c : columns())
    if (*c) (*c)->close();
  steps_group.reset();
  contacts_group.reset();
  if (file.reset() < 0) h5::fail(writer.file(), "", "cannot close the recording file");
  Handle fapl(H5Pcreate(H5P_FILE_ACCESS), H5Pclose);
  H5Pset_libver_bounds(fapl.get(), H5F_LIBVER_V110, H5F_LIBVER_V110);
  Handle reopened(H5Fopen(writer.file().c_str(), H5F_ACC_RDWR, fapl.get()), H5Fclose);
  Handle attr(reopened ? H5Aopen(reopened.get(), recording_names::kComplete, H5P_DEFAULT) : -1, H5Aclose);
  const std::int32_t one = 1;
  if (!attr || H5Awrite(attr.get(), H5T_NATIVE_INT32, &one) < 0)
    h5::fail(writer.file(), "/", "cannot mark the recording complete");
  attr.reset();
  if (reopened.reset() < 0) h5::fail(writer.file(), "", "cannot close the recording file");
}

Recorder::Recorder(const std::string& path, const Model& model, const State& initial, int every,
                   const std::string& scene_text, bool timings) {
  if (every < 1) throw RecordingError(path + ": record every must be at least 1, got " + std::to_string(every));
  if (model.bodies.empty()) throw RecordingError(path + ": the model has no bodies");
  h5::QuietErrors quiet;
  impl_ = std::make_unique<Impl>(path, model, every, timings);
  Impl& m = *impl_;
  write_model(m.writer, m.file.get(), model, every, scene_text);
  write_bodies(m.writer, m.file.get(), model);
  m.writer.attribute(m.file.get(), recording_names::kComplete, std::int32_t{0});
  // SWMR writing from the first row on (h5.hpp: Writer::start_swmr); the
  // initial row's partial chunks are written at once, so even a run killed in
  // its first steps leaves a readable file with the initial state
  m.steps_group.reset();
  m.contacts_group.reset();
  m.writer.start_swmr(m.file.get());
  m.record(initial, nullptr);
  for (std::optional<Column>* c : m.columns())
    if (*c) (*c)->flush();
  m.checkpoint();
}

Recorder::~Recorder() {
  h5::QuietErrors quiet;  // also while the handles of a failed recording close
  try {
    close();
  } catch (...) {  // a destructor must not throw; call close() to see the error
  }
  impl_.reset();
}

void Recorder::on_step(const Model& model, const State& state, const StepReport& report) {
  if (impl_->closed) throw RecordingError(impl_->writer.file() + ": the recording is closed");
  auto& since = impl_->impulse_since_row;
  since[0] += report.impulse.events;
  since[1] += report.impulse.collisions;
  since[2] += report.impulse.micro_collisions;
  since[3] += report.impulse.sticking;
  if (state.step % impl_->every != 0) return;
  h5::QuietErrors quiet;
  impl_->record(state, &report);
  if (++impl_->rows_pending >= kChunkRows) impl_->checkpoint();
}

void Recorder::close() {
  if (!impl_) return;
  h5::QuietErrors quiet;
  impl_->close();
}

}  // namespace pegsim
