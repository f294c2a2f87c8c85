// Checks of HDF5's global heaps before any variable-length string is read.
//
// HDF5 keeps variable-length strings in global heap collections ("GCOL"),
// which carry no checksum, and HDF5 1.10.8 trusts what they say: a damaged
// object size or index makes H5Dread / H5Aread copy past the heap and crash
// (found by tests/io/recording_faults_test.cpp flipping bytes of a recording).
// So a Reader first walks every collection of the file as HDF5 would
// (H5HGcache.c's deserialize: 16-byte header, then objects of a 16-byte header
// and their size rounded up to 8 bytes) and rejects one whose objects run past
// its end; and before reading a string dataset it checks each element's
// (length, collection, index) against the collections (strings_fit).
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <utility>

namespace pegsim::h5 {

class GlobalHeaps {
 public:
  // Scans `file` for collections; throws RecordingError "FILE: global heap at
  // byte N: ..." for a damaged one.
  explicit GlobalHeaps(const std::string& file);
  // Whether collection `address` holds object `index` of exactly `size` bytes.
  bool holds(std::uint64_t address, std::uint32_t index, std::uint64_t size) const;
  // Every element of a contiguous string dataset stored at byte `offset` of
  // the file, `count` elements of 16 bytes (length u32, collection u64, index
  // u32), names an object of its length; false otherwise.
  bool strings_fit(std::uint64_t offset, std::uint64_t count) const;

 private:
  std::string file_;
  std::map<std::pair<std::uint64_t, std::uint32_t>, std::uint64_t> objects_;  // (collection, index) -> size
};

}  // namespace pegsim::h5
