// libFuzzer harness: bytes -> an HDF5 file -> read_captured_problems and, for
// each problem that has one, read_fclib_local (io/capture_reader.hpp): the
// readers behind `pegsim solve-bench` and Python's capture loading.
// Accepted: their std::runtime_error (RecordingError names the file and
// object); anything else is a finding. Seeds: data/problems/*.h5.
#include "fuzz_input_file.hpp"
#include "io/capture_reader.hpp"

#include <H5Epublic.h>

#include <stdexcept>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  H5Eset_auto2(H5E_DEFAULT, nullptr, nullptr);  // HDF5's own error stack printing: noise here
  const std::string& path = pegsim::fuzz::write_input(data, size, ".h5");
  std::vector<pegsim::CapturedProblem> problems;
  try {
    problems = pegsim::read_captured_problems(path);
  } catch (const std::runtime_error&) {
  }
  for (const pegsim::CapturedProblem& p : problems) {
    try {  // a problem without an fclib_local group: a RecordingError naming it
      (void)pegsim::read_fclib_local(path, p.group + "/fclib_local");
    } catch (const std::runtime_error&) {
    }
  }
  return 0;
}
