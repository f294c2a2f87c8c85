// The HDF5 readers and the URDF importer's mesh paths work on files: each
// fuzz input is written to one file per process under TMPDIR (scripts/fuzz.sh
// points TMPDIR into build-fuzz/), overwritten by the next input.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <fstream>
#include <string>
#include <unistd.h>

namespace pegsim::fuzz {

inline const std::string& write_input(const std::uint8_t* data, std::size_t size, const char* suffix) {
  static const std::string path = [suffix] {
    const char* tmp = std::getenv("TMPDIR");
    return std::string(tmp ? tmp : "/tmp") + "/pegsim-fuzz-" + std::to_string(getpid()) + suffix;
  }();
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(reinterpret_cast<const char*>(data), static_cast<std::streamsize>(size));
  return path;
}

}  // namespace pegsim::fuzz
