// Inputs found by the libFuzzer harnesses (fuzz/, scripts/fuzz.sh,
// docs/reliability.md "Fuzzing"), kept in tests/data/fuzz/<harness>/: each is
// read the way its harness reads it and must end in the reader's own error,
// naming the file, with the expected words (never a crash, hang or another
// exception). Every file there has an entry here, so a new finding cannot be
// dropped in without its expectation.
#include "common/test_paths.hpp"

#include "io/capture_reader.hpp"
#include "io/recording.hpp"
#include "io/urdf.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <map>
#include <stdexcept>
#include <string>

namespace pegsim {
namespace {

const std::string kDir = std::string(PEGSIM_TEST_DATA_DIR) + "/fuzz";

// file (relative to tests/data/fuzz) -> words its error message must hold
const std::map<std::string, std::string> kExpected = {
    // HDF5 1.10 walked this file's zeroed global heap collection for ever while
    // reading the root's format attribute (io/h5_heap_check.hpp)
    {"capture/zeroed-global-heap.h5", "damaged global heap at byte"},
    // a CSR row of A ending past the data, a later row decreasing again: read past
    // the arrays before indptr was checked whole (io/capture_reader.cpp)
    {"capture/csr-row-past-the-data.h5", "indptr: decreases at row"},
    // a body name whose variable-length descriptor claims 4 GB: HDF5 allocated
    // it before reading (io/h5.cpp Reader::strings bounds it by the file's size).
    // Since the checked reader (recording_reader.cpp) reads /model first, the
    // file fails earlier, on a metadata checksum the fuzzing also broke: still
    // one clean line naming the file and dataset (the string bound itself is no
    // longer reached by this input)
    {"recording/string-length-4gb.h5", "/model/materials: cannot open dataset"},
    // a joint name whose descriptor names heap object 721420311 of a collection
    // holding a few: HDF5 1.10 read it without checking (a segfault in H5HG_read).
    // As above, the checked reader now stops earlier, at a broken checksum
    {"recording/string-names-missing-heap-object.h5", "/bodies/shape_0/facet_normals: cannot open dataset"},
    // a recording whose superblock checksum fails: the plain open refuses it,
    // and the SWMR open (for a run killed mid-write) then retried the read
    // with sleeps doubling to an hour, 100 times: a sleep without end in
    // HDF5's H5C_protect (io/h5.cpp Reader: 20 tries, about 1 ms)
    {"recording/swmr-superblock-retries.h5", "cannot open the file (truncated or damaged?)"},
    // arm7.urdf with forearm_roll's parent turned from link4 to link6: link5 and
    // link6 parent each other, away from the root; urdfdom accepted it, the
    // import silently dropped three links, and the cycle's links leaked
    {"urdf/joint-cycle-off-the-root.urdf", "link 'flange': not connected to the root link 'base'"},
    // a mutated arm ending in the UTF-8 lead byte 0xE9 inside an open element:
    // TinyXML (under urdfdom) stepped over the continuation bytes it announced,
    // past the terminating NUL, and parsed on through the heap (ASan: a
    // heap-buffer-overflow in TiXmlBase::ReadName, seen only when the bytes
    // beyond happened to read as a name). Malformed UTF-8 is refused before
    // the parser (io/urdf.cpp); this file's first bad byte comes earlier
    {"urdf/trailing-utf8-lead-byte.urdf", "the URDF text is not UTF-8 text (byte"},
};

std::string error_of(const std::string& harness, const std::string& path) {
  try {
    if (harness == "capture") (void)read_captured_problems(path);
    else if (harness == "recording") (void)read_recording(path);
    else if (harness == "urdf") (void)load_urdf_file(path);
    else return "no reader for " + harness;
  } catch (const std::runtime_error& e) {
    return e.what();
  }
  return "(read without error)";
}

TEST(FuzzRegression, EveryFoundInputFailsCleanlyNamingTheFile) {
  int files = 0;
  for (const auto& entry : std::filesystem::recursive_directory_iterator(kDir)) {
    if (!entry.is_regular_file()) continue;
    ++files;
    const std::string relative = std::filesystem::relative(entry.path(), kDir).generic_string();
    const auto expected = kExpected.find(relative);
    ASSERT_NE(expected, kExpected.end()) << relative << " has no expectation in kExpected";
    const std::string harness = relative.substr(0, relative.find('/'));
    const std::string message = error_of(harness, entry.path().string());
    EXPECT_NE(message.find(entry.path().string()), std::string::npos) << relative << ": " << message;
    EXPECT_NE(message.find(expected->second), std::string::npos) << relative << ": " << message;
  }
  EXPECT_EQ(files, static_cast<int>(kExpected.size()));
}

}  // namespace
}  // namespace pegsim
