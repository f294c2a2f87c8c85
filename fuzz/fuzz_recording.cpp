// libFuzzer harness: bytes -> an HDF5 file -> read_recording (io/recording.hpp).
// Accepted: its std::runtime_error (RecordingError names the file and object);
// anything else (a crash, a sanitizer report, std::bad_alloc or another
// exception, a hang caught by -timeout) is a finding. Seeds: recordings of
// shipped scenes (scripts/fuzz.sh). The capture reader has its own harness
// (fuzz_capture.cpp), so each corpus grows along one reader's paths.
#include "fuzz_input_file.hpp"
#include "io/recording.hpp"

#include <H5Epublic.h>

#include <stdexcept>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  H5Eset_auto2(H5E_DEFAULT, nullptr, nullptr);  // HDF5's own error stack printing: noise here
  const std::string& path = pegsim::fuzz::write_input(data, size, ".h5");
  try {
    (void)pegsim::read_recording(path);
  } catch (const std::runtime_error&) {
  }
  return 0;
}
