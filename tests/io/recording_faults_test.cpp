// Damaged and interrupted recordings (docs/reliability.md, "Faults"): a real
// recording truncated at many byte offsets, with bytes flipped, with indexes and
// counts out of range written through the HDF5 API, and written by a process
// killed mid-run. Each must give a RecordingError naming the file (and the
// dataset, where one is at fault), never a crash; the killed run's file reads
// back up to its last checkpoint, bit for bit equal to an uninterrupted run.
#include "common/test_paths.hpp"

#include "io/capture_reader.hpp"
#include "io/h5.hpp"
#include "io/recording.hpp"
#include "io/scene.hpp"
#include "sim/world.hpp"

#include <gtest/gtest.h>
#include <hdf5.h>

#include <csignal>
#include <cstdlib>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iterator>
#include <vector>
#include <sys/wait.h>
#include <unistd.h>

namespace pegsim::test {
namespace {

// as the CLI does (src/io/h5.hpp): HDF5 1.10.8 cannot shut down after it met a
// damaged object header, and would print its package list at this binary's exit
const bool kQuiet = (h5::quiet_process(), true);

// Per process (ctest runs these tests in parallel processes), removed when it ends.
struct TempFiles {
  std::vector<std::string> paths;
  ~TempFiles() {
    std::error_code ec;
    for (const std::string& p : paths) std::filesystem::remove(p, ec);
  }
};

std::string temp_path(const std::string& name) {
  static TempFiles files;
  const std::string path =
      (std::filesystem::path(::testing::TempDir()) / ("pegsim_faults_" + std::to_string(getpid()) + "_" + name)).string();
  files.paths.push_back(path);
  return path;
}

std::string scene_path(const std::string& name) { return std::string(PEGSIM_SCENES_DIR) + "/" + name; }

// Records `steps` steps of a shipped scene (through the library, as `pegsim run --record` does).
void record_scene(const std::string& scene_file, int steps, const std::string& path) {
  const Scene scene = load_scene_file(scene_path(scene_file));
  World world(scene.model, scene.state);
  Recorder recorder(path, world.model(), world.state(), 1, scene.text);
  world.add_observer(&recorder);
  for (int k = 0; k < steps; ++k) world.step();
  recorder.close();
}

std::string bytes_of(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

void write_bytes(const std::string& path, const std::string& bytes) {
  std::ofstream(path, std::ios::binary | std::ios::trunc) << bytes;
}

// The RecordingError's message ("" when read_recording succeeded).
std::string read_error(const std::string& path) {
  try {
    read_recording(path);
  } catch (const RecordingError& e) {
    return e.what();
  }
  return "";
}

// One shared recording of box-stack-3d (contacts in most rows), made once.
const std::string& good_recording() {
  static const std::string path = [] {
    const std::string p = temp_path("good.h5");
    record_scene("box-stack-3d.yaml", 300, p);
    return p;
  }();
  return path;
}

TEST(RecordingFaults, TruncatedAtAnyOffsetGivesAnErrorNamingTheFile) {
  const std::string whole = bytes_of(good_recording());
  ASSERT_GT(whole.size(), 100000u);
  const std::string cut = temp_path("cut.h5");
  // the superblock, the object headers near the start, the chunks in the middle, the last bytes
  for (const std::size_t length : {std::size_t{0}, std::size_t{7}, std::size_t{100}, std::size_t{2048}, std::size_t{20000},
                                   whole.size() / 3, whole.size() / 2, whole.size() - 4096, whole.size() - 1}) {
    write_bytes(cut, whole.substr(0, length));
    const std::string error = read_error(cut);
    EXPECT_EQ(error.rfind(cut + ": ", 0), 0u) << "length " << length << ": '" << error << "'";
  }
}

TEST(RecordingFaults, FlippedBytesGiveAnErrorOrTheSameRecording) {
  const std::string whole = bytes_of(good_recording());
  const Recording reference = read_recording(good_recording());
  const std::string flipped = temp_path("flipped.h5");
  // 64 places spread over the file (metadata, raw chunks, free space): every
  // read either fails naming the file or returns rows (a flip in unused bytes)
  int errors = 0;
  for (int k = 0; k < 64; ++k) {
    std::string bytes = whole;
    const std::size_t at = (bytes.size() - 8) * static_cast<std::size_t>(k) / 64;
    for (std::size_t i = at; i < at + 8; ++i) bytes[i] = static_cast<char>(~bytes[i]);
    write_bytes(flipped, bytes);
    const std::string error = read_error(flipped);
    if (error.empty()) continue;
    ++errors;
    EXPECT_EQ(error.rfind(flipped + ": ", 0), 0u) << "offset " << at << ": '" << error << "'";
    EXPECT_EQ(error.find('\n'), std::string::npos) << error;  // one line, no HDF5 stack
  }
  EXPECT_GT(errors, 32);  // most of the file is checksummed metadata or deflated chunks
  EXPECT_EQ(reference.steps.size(), 301u);
}

// Overwrites one element of a dataset of the copy `path` with `value`.
template <class T>
void poke(const std::string& path, const std::string& dataset, hsize_t index, T value, hid_t type) {
  const hid_t f = H5Fopen(path.c_str(), H5F_ACC_RDWR, H5P_DEFAULT);
  ASSERT_GE(f, 0);
  const hid_t set = H5Dopen2(f, dataset.c_str(), H5P_DEFAULT);
  ASSERT_GE(set, 0) << dataset;
  const hid_t space = H5Dget_space(set);
  const int rank = H5Sget_simple_extent_ndims(space);
  std::vector<hsize_t> start(static_cast<std::size_t>(rank), 0), count(static_cast<std::size_t>(rank), 1);
  start[0] = index;
  H5Sselect_hyperslab(space, H5S_SELECT_SET, start.data(), nullptr, count.data(), nullptr);
  const hid_t one = H5Screate_simple(rank, count.data(), nullptr);
  ASSERT_GE(H5Dwrite(set, type, one, space, H5P_DEFAULT, &value), 0);
  H5Sclose(one);
  H5Sclose(space);
  H5Dclose(set);
  H5Fclose(f);
}

struct Edit {
  std::string dataset;
  hsize_t index;
  std::function<void(const std::string&, const std::string&, hsize_t)> write;
  std::string expected;  // in the message, after "FILE: DATASET: "
};

template <class T>
std::function<void(const std::string&, const std::string&, hsize_t)> value(T v, hid_t type) {
  return [v, type](const std::string& p, const std::string& d, hsize_t i) { poke<T>(p, d, i, v, type); };
}

TEST(RecordingFaults, IndexesAndCountsOutOfRangeAreNamed) {
  const std::string copy = temp_path("edited.h5");
  const Recording good = read_recording(good_recording());
  // a row with contacts, and the first of its contacts
  std::size_t row = 0, first = 0;
  while (good.steps[row].contacts.empty()) first += good.steps[row++].contacts.size();
  const std::vector<Edit> edits = {
      {"/steps/contacts", row, value<std::int32_t>(1000000, H5T_NATIVE_INT32), "counts 1000000 contacts"},
      {"/bodies/material", 1, value<std::uint32_t>(4000000, H5T_NATIVE_UINT32), "material index 4000000"},
      {"/contacts/feature_a", first, value<std::int32_t>(2000000000, H5T_NATIVE_INT32), "feature index 2000000000"},
      {"/contacts/feature_b", first, value<std::int32_t>(-7, H5T_NATIVE_INT32), "feature index -7"},
      {"/contacts/body_b", first, value<std::uint32_t>(11, H5T_NATIVE_UINT32), "body index 11 out of range"},
      {"/contacts/kind", first, value<std::uint8_t>(200, H5T_NATIVE_UINT8), "unknown feature kind 200"},
      {"/contacts/step_offset", row + 1, value<std::int64_t>(-5, H5T_NATIVE_INT64), "decreases"},
      {"/contacts/step_offset", good.steps.size(), value<std::int64_t>(1000000000000, H5T_NATIVE_INT64),
       "ends at 1000000000000"},
      {"/steps/step", 5, value<std::int64_t>(2, H5T_NATIVE_INT64), "not after the previous row's"},
      {"/steps/solver_status", 3, value<std::uint8_t>(99, H5T_NATIVE_UINT8), "unknown status 99"},
      {"/bodies/shape_1/triangles", 0, value<std::int32_t>(1 << 30, H5T_NATIVE_INT32), "out of range in triangle 0"},
      {"/bodies/shape_1/facet_vertices", 2, value<std::int32_t>(-3, H5T_NATIVE_INT32), "vertex index -3"},
      {"/bodies/shape_1/facet_offsets", 1, value<std::int32_t>(1 << 30, H5T_NATIVE_INT32), "decreases"},
  };
  for (const Edit& e : edits) {
    write_bytes(copy, bytes_of(good_recording()));
    e.write(copy, e.dataset, e.index);
    const std::string error = read_error(copy);
    EXPECT_EQ(error.rfind(copy + ": " + e.dataset + ": ", 0), 0u) << e.dataset << ": '" << error << "'";
    EXPECT_NE(error.find(e.expected), std::string::npos) << e.dataset << ": '" << error << "'";
  }
}

TEST(RecordingFaults, JointEndsOutOfRangeAreNamed) {
  const std::string path = temp_path("joints.h5");
  record_scene("hinge-limit.yaml", 20, path);
  ASSERT_EQ(read_error(path), "");
  poke<std::int32_t>(path, "/model/joint_bodies", 0, 77, H5T_NATIVE_INT32);
  EXPECT_EQ(read_error(path), path + ": /model/joint_bodies: body index out of range in row 0");
}

// A process killed (SIGKILL, no chance to close the file) after `steps` steps.
void record_and_die(const std::string& scene_file, int steps, const std::string& path) {
  const pid_t child = fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    const Scene scene = load_scene_file(scene_path(scene_file));
    World world(scene.model, scene.state);
    Recorder recorder(path, world.model(), world.state(), 1, scene.text);
    world.add_observer(&recorder);
    for (int k = 0; k < steps; ++k) world.step();
    std::raise(SIGKILL);
  }
  int status = 0;
  waitpid(child, &status, 0);
  ASSERT_TRUE(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL);
}

TEST(RecordingFaults, KilledRunReadsUpToItsLastCheckpoint) {
  const std::string killed = temp_path("killed.h5"), whole = temp_path("uninterrupted.h5");
  record_and_die("box-stack-2d.yaml", 700, killed);
  const Recording partial = read_recording(killed);
  EXPECT_FALSE(partial.complete);
  // a checkpoint every 256 rows (src/io/recorder.cpp): the 701 rows leave at
  // least the first 257 behind (row 0 plus a checkpoint's rows)
  ASSERT_GE(partial.steps.size(), 257u);
  ASSERT_LE(partial.steps.size(), 701u);
  EXPECT_NE(incomplete_note(killed, partial).find("incomplete recording: " + std::to_string(partial.steps.size()) +
                                                  " complete rows"), std::string::npos);
  // every row it holds is the uninterrupted run's row, bit for bit
  record_scene("box-stack-2d.yaml", 700, whole);
  const Recording full = read_recording(whole);
  EXPECT_TRUE(full.complete);
  for (std::size_t k = 0; k < partial.steps.size(); ++k) {
    const RecordedStep &a = partial.steps[k], &b = full.steps[k];
    ASSERT_EQ(a.step, static_cast<long>(k));
    ASSERT_EQ(a.step, b.step);
    ASSERT_EQ(a.position, b.position) << "row " << k;
    ASSERT_EQ(a.contacts.size(), b.contacts.size()) << "row " << k;
    ASSERT_EQ(a.normal_impulse, b.normal_impulse) << "row " << k;
  }
}

TEST(RecordingFaults, KilledRightAfterTheStartHoldsTheInitialState) {
  const std::string killed = temp_path("killed_early.h5");
  record_and_die("box-stack-3d.yaml", 3, killed);
  const Recording partial = read_recording(killed);
  EXPECT_FALSE(partial.complete);
  ASSERT_GE(partial.steps.size(), 1u);
  EXPECT_EQ(partial.steps[0].step, 0);
}

// Captured problems (docs/capture-format.md), as `pegsim solve-bench` reads them.
std::string capture_error(const std::string& path) {
  try {
    read_captured_problems(path);
  } catch (const RecordingError& e) {
    return e.what();
  }
  return "";
}

TEST(CaptureFaults, TruncatedFlippedAndOversizedCapturesGiveErrorsNamingTheFile) {
  const std::string whole = temp_path("capture.h5"), damaged = temp_path("capture_damaged.h5");
  const std::string run = std::string(PEGSIM_CLI) + " run " + scene_path("box-stack-3d.yaml") +
                          " --steps 30 --quiet --capture " + whole + " > /dev/null 2>&1";
  ASSERT_EQ(std::system(run.c_str()), 0);
  ASSERT_EQ(capture_error(whole), "");
  const std::string bytes = bytes_of(whole);
  for (const std::size_t length : {std::size_t{100}, bytes.size() / 2, bytes.size() - 100}) {
    write_bytes(damaged, bytes.substr(0, length));
    const std::string error = capture_error(damaged);
    EXPECT_EQ(error.rfind(damaged + ": ", 0), 0u) << "length " << length << ": '" << error << "'";
  }
  for (int k = 0; k < 16; ++k) {
    std::string flipped = bytes;
    const std::size_t at = (flipped.size() - 8) * static_cast<std::size_t>(k) / 16;
    for (std::size_t i = at; i < at + 8; ++i) flipped[i] = static_cast<char>(~flipped[i]);
    write_bytes(damaged, flipped);
    const std::string error = capture_error(damaged);  // an error naming the file, or problems read
    if (!error.empty()) {
      EXPECT_EQ(error.rfind(damaged + ": ", 0), 0u) << "offset " << at << ": '" << error << "'";
    }
  }
  // a problem of a million rows (b is compressed zeros: a small file) would
  // ask for a dense A of 8 TB: refused by its size first
  write_bytes(damaged, bytes);
  {
    const hid_t f = H5Fopen(damaged.c_str(), H5F_ACC_RDWR, H5P_DEFAULT);
    ASSERT_GE(f, 0);
    H5Ldelete(f, "/problems/000000/b", H5P_DEFAULT);
    const hsize_t rows = 1000000, chunk = 65536;
    const hid_t space = H5Screate_simple(1, &rows, nullptr);
    const hid_t dcpl = H5Pcreate(H5P_DATASET_CREATE);
    H5Pset_chunk(dcpl, 1, &chunk);
    H5Pset_deflate(dcpl, 1);
    const hid_t set = H5Dcreate2(f, "/problems/000000/b", H5T_IEEE_F64LE, space, H5P_DEFAULT, dcpl, H5P_DEFAULT);
    ASSERT_GE(set, 0);
    H5Dclose(set);
    H5Pclose(dcpl);
    H5Sclose(space);
    H5Fclose(f);
  }
  EXPECT_EQ(capture_error(damaged), damaged + ": /problems/000000/b: a problem of 1000000 rows, over the reader's "
                                              "limit of 16384 (a dense A of 2 GiB)");
}

}  // namespace
}  // namespace pegsim::test
