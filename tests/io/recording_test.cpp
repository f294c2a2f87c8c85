// Recordings: round trip through HDF5, byte-identical repeats, errors, h5py.
#include "common/test_paths.hpp"

#include "io/recording.hpp"
#include "io/recording_names.hpp"
#include "io/scene.hpp"
#include "sim/world.hpp"

#include <gtest/gtest.h>
#include <hdf5.h>

#include <array>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iterator>
#include <sstream>
#include <thread>

namespace pegsim::test {
namespace {

std::string temp_path(const std::string& name) {
  return (std::filesystem::path(::testing::TempDir()) / ("pegsim_io_" + name)).string();
}

// A regular tetrahedron-like solid built by hand (no geometry code needed).
Polyhedron tetrahedron() {
  Polyhedron p;
  p.vertices = {Vec3(1, 1, 1), Vec3(1, -1, -1), Vec3(-1, 1, -1), Vec3(-1, -1, 1)};
  const std::vector<std::array<int, 3>> loops = {{0, 1, 2}, {0, 3, 1}, {0, 2, 3}, {1, 3, 2}};
  for (std::size_t f = 0; f < loops.size(); ++f) {
    PolyFace face;
    face.loop = {loops[f][0], loops[f][1], loops[f][2]};
    const Vec3 a = p.vertices[loops[f][0]], b = p.vertices[loops[f][1]], c = p.vertices[loops[f][2]];
    face.normal = (b - a).cross(c - a).normalized();
    face.offset = face.normal.dot(a);
    p.faces.push_back(face);
    p.triangles.push_back(loops[f]);
    p.triangle_face.push_back(static_cast<int>(f));
  }
  return p;
}

Model make_model(Dimension dimension) {
  Model m;
  m.options.dimension = dimension;
  m.options.h = 0.01;
  m.options.model = ContactModelKind::Peg;
  m.options.solver = "lemke";
  m.options.solver_chain = {"pgs", "lemke"};
  m.add_material("default");
  m.add_material("steel");
  m.set_friction(MaterialId{0}, MaterialId{1}, 0.25);
  BodyModel ground;
  ground.name = "ground";
  ground.is_static = true;
  ground.shape = HalfSpace{dimension == Dimension::Planar ? Vec3(0, 1, 0) : Vec3(0, 0, 1), -0.5};
  m.add_body(ground);
  BodyModel body;
  body.name = "block";
  body.mass = 2.5;
  body.inertia = Vec3(0.5, 0.75, 1.25).asDiagonal();
  body.material = MaterialId{1};
  if (dimension == Dimension::Planar) {
    Polygon square;
    square.vertices = {Vec2(-0.5, -0.5), Vec2(0.5, -0.5), Vec2(0.5, 0.5), Vec2(-0.5, 0.5)};
    body.shape = square;
  } else {
    body.shape = tetrahedron();
  }
  m.add_body(body);
  return m;
}

State state_at(long k, Dimension dimension) {
  State s;
  s.step = k;
  s.time = 0.01 * static_cast<double>(k);
  for (int b = 0; b < 2; ++b) {
    BodyState bs;
    const double x = 0.25 * static_cast<double>(k) + b;
    bs.pose.position = Vec3(x, -x, dimension == Dimension::Planar ? 0.0 : 1.25 * b);
    bs.pose.orientation = Quat(Eigen::AngleAxisd(0.125 * static_cast<double>(k * b), Vec3::UnitZ()));
    bs.linear_velocity = Vec3(k, b, -k);
    bs.angular_velocity = Vec3(0, 0, 0.5 * k);
    s.bodies.push_back(bs);
  }
  return s;
}

StepReport report_at(long k) {
  StepReport r;
  r.step = k - 1;
  r.time = 0.01 * static_cast<double>(k);
  const int n = static_cast<int>((k * 7) % 4);  // 3, 2, 1, 0, ... contacts
  for (int i = 0; i < n; ++i) {
    Contact c;
    c.body_a = 0;
    c.body_b = 1;
    c.kind = static_cast<FeatureKind>((k + i) % 4);
    c.features.feature_a = i;
    c.features.feature_b = 10 + i;
    c.point_a = Vec3(i, k, 0.5);
    c.normal = Vec3(0, 0, 1);
    c.gap = -0.001 * i;
    c.point_b = c.point_a + c.gap * c.normal;
    c.features.applicability = 0.25 * i;
    c.features.primary = (i % 2) == 0;
    r.contacts.push_back(c);
    r.impulses.push_back(ContactImpulse{0.5 * (i + 1), Vec3(0.1 * i, -0.2, 0)});
  }
  r.solver.status = n == 2 ? SolverStatus::MaxIterations : SolverStatus::Solved;
  r.solver.iterations = 3 * n;
  r.solver.complementarity = 1e-12 * k;
  r.solver.feasibility = 1e-14 * k;
  r.solver_calls = n > 0 ? 1 : 0;
  r.solver_failures = n == 2 ? 1 : 0;
  r.problem_size = 5 * n;
  r.max_penetration = 0.001 * n;
  r.contacts_found = n + 1;
  r.constraints = ConstraintCounts{n, static_cast<int>(k % 3), static_cast<int>(k % 2)};
  r.traps = static_cast<int>(k % 5);
  if (n > 0) r.islands.resize(static_cast<std::size_t>(1 + k % 2));
  r.escalations = static_cast<int>(k % 3);
  r.solved_by = {static_cast<int>(k % 2), static_cast<int>(k % 3)};
  r.complementarity = 1e-11 * k;
  r.cone_violation = 1e-13 * k;
  r.penetration_exceeded = k % 4 == 1;
  for (int s = 0; s < static_cast<int>(Stage::Count); ++s) r.profile.seconds[s] = 1e-6 * (s + k);
  return r;
}

// Writes the initial state and steps 1..steps through Recorder::on_step.
void write_recording(const std::string& path, Dimension dimension, int steps, int every = 1,
                     bool timings = true) {
  const Model model = make_model(dimension);
  Recorder recorder(path, model, state_at(0, dimension), every, "options: {h: 0.01}\n", timings);
  for (long k = 1; k <= steps; ++k) recorder.on_step(model, state_at(k, dimension), report_at(k));
  recorder.close();
}

void expect_step_equals(const RecordedStep& row, long k, Dimension dimension) {
  const State s = state_at(k, dimension);
  EXPECT_EQ(row.step, k);
  EXPECT_EQ(row.time, s.time);
  ASSERT_EQ(row.position.size(), 2u);
  for (int b = 0; b < 2; ++b) {
    EXPECT_EQ(row.position[b], s.bodies[b].pose.position);
    EXPECT_EQ(row.orientation[b].coeffs(), s.bodies[b].pose.orientation.coeffs());
    EXPECT_EQ(row.linear_velocity[b], s.bodies[b].linear_velocity);
    EXPECT_EQ(row.angular_velocity[b], s.bodies[b].angular_velocity);
    if (dimension == Dimension::Planar) {
      EXPECT_EQ(row.theta.at(b), planar_angle(s.bodies[b].pose));
    }
  }
  if (k == 0) {  // the initial state: no contacts, no solver work
    EXPECT_TRUE(row.contacts.empty());
    EXPECT_EQ(row.solver_status, SolverStatus::Solved);
    EXPECT_EQ(row.problem_size, 0);
    return;
  }
  const StepReport r = report_at(k);
  ASSERT_EQ(row.contacts.size(), r.contacts.size()) << "row " << k;
  for (std::size_t i = 0; i < r.contacts.size(); ++i) {
    const Contact &a = row.contacts[i], &b = r.contacts[i];
    EXPECT_EQ(a.body_a, b.body_a);
    EXPECT_EQ(a.body_b, b.body_b);
    EXPECT_EQ(a.kind, b.kind);
    EXPECT_EQ(a.features.feature_a, b.features.feature_a);
    EXPECT_EQ(a.features.feature_b, b.features.feature_b);
    EXPECT_EQ(a.point_a, b.point_a);
    EXPECT_EQ(a.point_b, b.point_b);
    EXPECT_EQ(a.normal, b.normal);
    EXPECT_EQ(a.gap, b.gap);
    EXPECT_EQ(a.features.applicability, b.features.applicability);
    EXPECT_EQ(a.features.primary, b.features.primary);
    EXPECT_EQ(row.normal_impulse[i], r.impulses[i].normal);
    EXPECT_EQ(row.friction_impulse[i], r.impulses[i].friction);
  }
  EXPECT_EQ(row.solver_status, r.solver.status);
  EXPECT_EQ(row.solver_iterations, r.solver.iterations);
  EXPECT_EQ(row.solver_calls, r.solver_calls);
  EXPECT_EQ(row.solver_failures, r.solver_failures);
  EXPECT_EQ(row.problem_size, r.problem_size);
  EXPECT_EQ(row.complementarity, r.solver.complementarity);
  EXPECT_EQ(row.feasibility, r.solver.feasibility);
  EXPECT_EQ(row.max_penetration, r.max_penetration);
  EXPECT_EQ(row.contacts_found, r.contacts_found);
  EXPECT_EQ(row.constraints.u, r.constraints.u);
  EXPECT_EQ(row.constraints.i, r.constraints.i);
  EXPECT_EQ(row.constraints.x, r.constraints.x);
  EXPECT_EQ(row.traps, r.traps);
  EXPECT_EQ(row.islands, static_cast<int>(r.islands.size()));
  EXPECT_EQ(row.escalations, r.escalations);
  EXPECT_EQ(row.solved_by, r.solved_by);
  EXPECT_EQ(row.certified_residual, r.complementarity);
  EXPECT_EQ(row.cone_violation, r.cone_violation);
  EXPECT_EQ(row.penetration_exceeded, r.penetration_exceeded);
  ASSERT_EQ(row.stage_seconds.size(), static_cast<std::size_t>(Stage::Count));
  for (int s = 0; s < static_cast<int>(Stage::Count); ++s) EXPECT_EQ(row.stage_seconds[s], r.profile.seconds[s]);
}

TEST(Recording, RoundTrip3D) {
  const std::string path = temp_path("round_trip_3d.h5");
  write_recording(path, Dimension::Spatial, 9);
  const Recording rec = read_recording(path);
  EXPECT_EQ(rec.format_version, 4);
  EXPECT_EQ(rec.stepper, "time-stepping");
  EXPECT_EQ(rec.solver_chain, (std::vector<std::string>{"pgs", "lemke"}));
  EXPECT_EQ(rec.dimension, 3);
  EXPECT_EQ(rec.h, 0.01);
  EXPECT_EQ(rec.every, 1);
  EXPECT_EQ(rec.model, "peg");
  EXPECT_EQ(rec.formulation, "stewart-trinkle");
  EXPECT_EQ(rec.solver, "lemke");
  EXPECT_EQ(rec.scene_text, "options: {h: 0.01}\n");
  EXPECT_EQ(rec.body_names, (std::vector<std::string>{"ground", "block"}));
  EXPECT_EQ(rec.body_static, (std::vector<bool>{true, false}));
  EXPECT_EQ(rec.body_mass[1], 2.5);
  EXPECT_EQ(rec.body_inertia[1], Mat3(Vec3(0.5, 0.75, 1.25).asDiagonal()));
  ASSERT_EQ(rec.steps.size(), 10u);
  for (long k = 0; k < 10; ++k) expect_step_equals(rec.steps[k], k, Dimension::Spatial);
}

TEST(Recording, RoundTrip2DKeepsTheta) {
  const std::string path = temp_path("round_trip_2d.h5");
  write_recording(path, Dimension::Planar, 5);
  const Recording rec = read_recording(path);
  EXPECT_EQ(rec.dimension, 2);
  ASSERT_EQ(rec.steps.size(), 6u);
  for (long k = 0; k < 6; ++k) expect_step_equals(rec.steps[k], k, Dimension::Planar);
}

TEST(Recording, ManyStepsSpanSeveralChunks) {
  const std::string path = temp_path("long.h5");
  write_recording(path, Dimension::Spatial, 5000);
  const Recording rec = read_recording(path);
  ASSERT_EQ(rec.steps.size(), 5001u);
  for (long k : {0L, 1L, 4095L, 4096L, 4097L, 5000L}) expect_step_equals(rec.steps[k], k, Dimension::Spatial);
}

TEST(Recording, RecordsOneStepInEvery) {
  const std::string path = temp_path("every.h5");
  write_recording(path, Dimension::Spatial, 7, 3);
  const Recording rec = read_recording(path);
  EXPECT_EQ(rec.every, 3);
  ASSERT_EQ(rec.steps.size(), 3u);  // steps 0, 3, 6
  for (std::size_t i = 0; i < 3; ++i) expect_step_equals(rec.steps[i], 3 * static_cast<long>(i), Dimension::Spatial);
}

// A version-2 file (no certification columns, no /model/solver_chain, no
// /model stepper, seven stage columns) still reads: made here from a
// current file by deleting what versions 3 and 4 added and keeping the seven
// stages version 2 had, in their old order.
TEST(Recording, ReadsVersion2Files) {
  const std::string path = temp_path("version2.h5");
  write_recording(path, Dimension::Spatial, 4);
  const hsize_t n = 5, count = static_cast<hsize_t>(Stage::Count), old_count = recording_names::kStagesV3.size();
  std::vector<double> stages(n * count), old(n * old_count);
  {
    const hid_t file = H5Fopen(path.c_str(), H5F_ACC_RDWR, H5P_DEFAULT);
    ASSERT_GE(file, 0);
    const hid_t dataset = H5Dopen2(file, "/steps/stage_seconds", H5P_DEFAULT);
    ASSERT_GE(H5Dread(dataset, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, stages.data()), 0);
    H5Dclose(dataset);
    for (hsize_t k = 0; k < n; ++k)
      for (hsize_t s = 0; s < old_count; ++s)
        old[k * old_count + s] = stages[k * count + static_cast<hsize_t>(recording_names::kStagesV3[s])];
    EXPECT_GE(H5Adelete_by_name(file, "/model", "stepper", H5P_DEFAULT), 0);
    for (const char* name : {"/model/solver_chain", "/steps/islands", "/steps/escalations", "/steps/solved_by",
                             "/steps/certified_residual", "/steps/cone_violation", "/steps/penetration_exceeded",
                             "/steps/stage_seconds"})
      EXPECT_GE(H5Ldelete(file, name, H5P_DEFAULT), 0) << name;
    const hsize_t dims[2] = {n, old_count};
    const hid_t space = H5Screate_simple(2, dims, nullptr);
    const hid_t seven = H5Dcreate2(file, "/steps/stage_seconds", H5T_NATIVE_DOUBLE, space, H5P_DEFAULT, H5P_DEFAULT,
                                   H5P_DEFAULT);
    EXPECT_GE(H5Dwrite(seven, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, old.data()), 0);
    H5Dclose(seven);
    H5Sclose(space);
    const hid_t attr = H5Aopen(file, "format_version", H5P_DEFAULT);
    const std::int32_t two = 2;
    EXPECT_GE(H5Awrite(attr, H5T_NATIVE_INT32, &two), 0);
    H5Aclose(attr);
    H5Fclose(file);
  }
  const Recording rec = read_recording(path);
  EXPECT_EQ(rec.format_version, 2);
  EXPECT_EQ(rec.solver_chain, (std::vector<std::string>{"lemke"}));  // its solver
  ASSERT_EQ(rec.steps.size(), 5u);
  for (const RecordedStep& row : rec.steps) {
    EXPECT_EQ(row.escalations, 0);
    EXPECT_TRUE(row.solved_by.empty());
    EXPECT_FALSE(row.penetration_exceeded);
  }
  EXPECT_EQ(rec.steps[3].traps, report_at(3).traps);  // version-2 columns still read
  EXPECT_EQ(rec.stepper, "time-stepping");
  // the seven old stages in their places, the stages added in version 4 zero
  for (hsize_t k = 0; k < n; ++k) {
    ASSERT_EQ(rec.steps[k].stage_seconds.size(), count);
    for (hsize_t s = 0; s < count; ++s) {
      const bool old_stage = s != static_cast<hsize_t>(Stage::FreeVelocity) &&
                             s != static_cast<hsize_t>(Stage::Penetration) &&
                             s != static_cast<hsize_t>(Stage::PositionCorrection);
      EXPECT_EQ(rec.steps[k].stage_seconds[s], old_stage ? stages[k * count + s] : 0.0) << kStageNames[s];
    }
  }
}

TEST(Recording, WithoutTimingsHasNoStageTimes) {
  const std::string path = temp_path("no_timings.h5");
  write_recording(path, Dimension::Spatial, 2, 1, false);
  const Recording rec = read_recording(path);
  ASSERT_EQ(rec.steps.size(), 3u);
  EXPECT_TRUE(rec.steps[2].stage_seconds.empty());
}

std::string file_bytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

TEST(Recording, IdenticalRunsGiveByteIdenticalFiles) {
  const std::string a = temp_path("same_a.h5"), b = temp_path("same_b.h5");
  write_recording(a, Dimension::Spatial, 50);
  std::this_thread::sleep_for(std::chrono::milliseconds(1100));  // object times would differ
  write_recording(b, Dimension::Spatial, 50);
  const std::string bytes_a = file_bytes(a), bytes_b = file_bytes(b);
  EXPECT_GT(bytes_a.size(), 0u);
  EXPECT_TRUE(bytes_a == bytes_b) << "recordings differ";
}

std::string recording_error(const std::function<void()>& f) {
  try {
    f();
  } catch (const RecordingError& e) {
    return e.what();
  }
  return "(no error)";
}

TEST(Recording, ErrorsNameTheFileAndDataset) {
  const Model model = make_model(Dimension::Spatial);
  const std::string nowhere = temp_path("no_such_dir/x.h5");
  EXPECT_NE(recording_error([&] { Recorder r(nowhere, model, state_at(0, Dimension::Spatial)); })
                .find(nowhere + ": cannot create the recording file"),
            std::string::npos);
  const std::string missing = temp_path("missing.h5");
  std::filesystem::remove(missing);
  EXPECT_EQ(recording_error([&] { read_recording(missing); }), missing + ": no such recording file");

  const std::string text = temp_path("text.h5");
  std::ofstream(text) << "not hdf5\n";
  EXPECT_EQ(recording_error([&] { read_recording(text); }), text + ": not an HDF5 file");

  // a recording cut in half
  const std::string whole = temp_path("whole.h5"), cut = temp_path("cut.h5");
  write_recording(whole, Dimension::Spatial, 200);
  const std::string bytes = file_bytes(whole);
  std::ofstream(cut, std::ios::binary) << bytes.substr(0, bytes.size() / 2);
  const std::string truncated = recording_error([&] { read_recording(cut); });
  EXPECT_EQ(truncated.rfind(cut + ": ", 0), 0u) << truncated;

  // a dataset missing, another with the wrong shape
  const std::string edited = temp_path("edited.h5");
  write_recording(edited, Dimension::Spatial, 3);
  {
    const hid_t f = H5Fopen(edited.c_str(), H5F_ACC_RDWR, H5P_DEFAULT);
    ASSERT_GE(f, 0);
    H5Ldelete(f, "/steps/angular_velocity", H5P_DEFAULT);
    H5Ldelete(f, "/steps/linear_velocity", H5P_DEFAULT);
    const hsize_t dims[2] = {4, 3};
    const hid_t space = H5Screate_simple(2, dims, nullptr);
    const hid_t set = H5Dcreate2(f, "/steps/linear_velocity", H5T_IEEE_F64LE, space, H5P_DEFAULT,
                                 H5P_DEFAULT, H5P_DEFAULT);
    H5Dclose(set);
    H5Sclose(space);
    H5Fclose(f);
  }
  EXPECT_EQ(recording_error([&] { read_recording(edited); }),
            edited + ": /steps/linear_velocity: has shape [4, 3], expected [4, 2, 3]");
  {
    const hid_t f = H5Fopen(edited.c_str(), H5F_ACC_RDWR, H5P_DEFAULT);
    H5Ldelete(f, "/steps/linear_velocity", H5P_DEFAULT);
    H5Fclose(f);
  }
  EXPECT_EQ(recording_error([&] { read_recording(edited); }), edited + ": /steps/linear_velocity: missing dataset");
}

TEST(Recording, RejectsBadUse) {
  const Model model = make_model(Dimension::Spatial);
  const std::string path = temp_path("bad_use.h5");
  EXPECT_NE(recording_error([&] { Recorder r(path, model, state_at(0, Dimension::Spatial), 0); }).find("at least 1"),
            std::string::npos);
  Recorder r(path, model, state_at(0, Dimension::Spatial));
  State wrong = state_at(1, Dimension::Spatial);
  wrong.bodies.pop_back();
  EXPECT_NE(recording_error([&] { r.on_step(model, wrong, report_at(1)); }).find("/steps: the state has 1 bodies"),
            std::string::npos);
  r.close();
  EXPECT_NE(recording_error([&] { r.on_step(model, state_at(1, Dimension::Spatial), report_at(1)); })
                .find("the recording is closed"),
            std::string::npos);
}

// The recorder as a World's observer: one row per step, the last row the final state.
TEST(Recording, RecordsAWorldRun) {
  Scene scene = load_scene_file(std::string(PEGSIM_TEST_DATA_DIR) + "/two_boxes.yaml");
  scene.model.options.model = ContactModelKind::Standard;  // the scene names none (PEG by default); counted below
  const std::string path = temp_path("world.h5");
  World world(std::move(scene.model), std::move(scene.state));
  {
    Recorder recorder(path, world.model(), world.state(), 1, scene.text);
    world.add_observer(&recorder);
    for (int i = 0; i < 20; ++i) world.step();
    recorder.close();
  }
  const Recording rec = read_recording(path);
  ASSERT_EQ(rec.steps.size(), 21u);
  EXPECT_EQ(rec.scene_text, scene.text);
  EXPECT_EQ(rec.body_names, (std::vector<std::string>{"ground", "lower", "upper"}));
  const RecordedStep& last = rec.steps.back();
  EXPECT_EQ(last.step, 20);
  EXPECT_EQ(last.time, world.state().time);
  for (std::size_t b = 0; b < 3; ++b) {
    EXPECT_EQ(last.position[b], world.state().bodies[b].pose.position);
    EXPECT_EQ(last.linear_velocity[b], world.state().bodies[b].linear_velocity);
  }
  EXPECT_FALSE(last.contacts.empty());  // the lower box rests on the ground
  // the standard model: one U-constraint per contact found, no traps on a resting stack
  EXPECT_EQ(last.contacts_found, static_cast<int>(last.contacts.size()));
  EXPECT_EQ(last.constraints.u, last.contacts_found);
  EXPECT_EQ(last.constraints.i + last.constraints.x, 0);
  EXPECT_EQ(last.traps, 0);
}

// Runs a shell command, returning its standard output.
std::string run(const std::string& command) {
  std::string out;
  FILE* pipe = popen(command.c_str(), "r");
  if (!pipe) return out;
  char buffer[256];
  while (std::fgets(buffer, sizeof buffer, pipe)) out += buffer;
  pclose(pipe);
  return out;
}

TEST(Recording, ReadableWithH5py) {
  if (std::system("/usr/bin/python3 -c 'import h5py' >/dev/null 2>&1") != 0)
    GTEST_SKIP() << "/usr/bin/python3 lacks h5py";
  const std::string path = temp_path("h5py.h5");
  write_recording(path, Dimension::Spatial, 4);
  const std::string script = temp_path("read.py");
  std::ofstream(script) << "import sys, h5py\n"
                           "with h5py.File(sys.argv[1], 'r') as f:\n"
                           "    p = f['/steps/position']\n"
                           "    print(p.shape)\n"
                           "    print(repr(float(p[2, 1, 0])), repr(float(p[2, 1, 2])))\n"
                           "    print([int(o) for o in f['/contacts/step_offset'][:]])\n"
                           "    s = f['/bodies/shape_1']\n"
                           "    print(s.attrs['kind'], s['vertices'].shape, s['triangles'].shape)\n"
                           "    print(f['/model'].attrs['solver'], f['/bodies/name'][1].decode())\n"
                           "    print(list(f['/steps/stage_seconds'].attrs['stage_names'])[:2])\n"
                           "    c = f['/steps/constraints']\n"
                           "    print(list(c.attrs['names']), c.shape, [int(v) for v in c[3]], int(f['/steps/traps'][3]))\n";
  const std::string out = run("/usr/bin/python3 " + script + " " + path + " 2>&1");
  EXPECT_EQ(out,
            "(5, 2, 3)\n"
            "1.5 1.25\n"
            "[0, 0, 3, 5, 6, 6]\n"
            "polyhedron (4, 3) (4, 3)\n"
            "lemke block\n"
            "['free_velocity', 'broadphase']\n"
            "['U', 'I', 'X'] (5, 3) [1, 0, 1] 3\n");
}

}  // namespace
}  // namespace pegsim::test
