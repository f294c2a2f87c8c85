// libFuzzer harness: bytes -> an HDF5 file -> read_recording and
// read_captured_problems (the two HDF5 readers of io/). Accepted: their
// std::runtime_error (RecordingError names the file and object); anything
// else is a finding. HDF5 reads from a path, so each input is written to a
// file under TMPDIR (one per process).
#include "io/capture_reader.hpp"
#include "io/recording.hpp"

#include <H5Epublic.h>

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <fstream>
#include <stdexcept>
#include <string>
#include <unistd.h>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const std::string path = [] {
    const char* tmp = std::getenv("TMPDIR");
    return std::string(tmp ? tmp : "/tmp") + "/pegsim-fuzz-" + std::to_string(getpid()) + ".h5";
  }();
  H5Eset_auto2(H5E_DEFAULT, nullptr, nullptr);  // HDF5's own error stack printing: noise here
  {
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out.write(reinterpret_cast<const char*>(data), static_cast<std::streamsize>(size));
  }
  try {
    (void)pegsim::read_recording(path);
  } catch (const std::runtime_error&) {
  }
  try {
    (void)pegsim::read_captured_problems(path);
  } catch (const std::runtime_error&) {
  }
  return 0;
}
