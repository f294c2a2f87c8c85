// A guard against a hang inside HDF5 1.10 (Debian's libhdf5-103): reading a
// variable-length string (every string attribute and name list of a
// recording or capture) parses the file's global heap collection, and
// H5HG__cache_heap_deserialize walks its objects by each header's size; a
// free-space object (index 0) of size 0 never advances the walk, so a file
// whose heap was zeroed or damaged hangs the reader for ever (found by
// fuzz/fuzz_capture.cpp; tests/data/fuzz/). check_global_heaps walks every
// collection of the file the same way before HDF5 does and fails with the
// file and the byte offset on a walk that would not advance or would leave
// the collection.
//
// Layout (HDF5 file format specification 3.0, III.E "Global Heap"): a
// collection is "GCOL", version 1, 3 reserved bytes, its size (8 bytes, the
// header included); then objects of a 2-byte index, 2-byte reference count,
// 4 reserved bytes, an 8-byte size and the data padded to 8 bytes; object 0
// is the free space, its size counting its own header.
#pragma once

#include <cstdint>
#include <fstream>
#include <map>
#include <hdf5.h>

#include <string>

namespace pegsim::h5 {

// Throws RecordingError (via h5::fail) naming `file` on a damaged collection.
void check_global_heaps(const std::string& file);

// The objects (index -> size in bytes) of the collection at byte `at` of the
// open file; empty when no version-1 collection starts there. Fails as
// check_global_heaps on a damaged one.
std::map<std::uint64_t, std::uint64_t> global_heap_objects(std::ifstream& in, const std::string& file,
                                                           std::uint64_t at, std::uint64_t file_size);

// Before HDF5 reads the `n` variable-length strings of dataset `set` (at
// `path` in `file`, of `file_bytes` bytes): each descriptor's length must fit
// the file and name an object of its collection of exactly that length (see
// the comment at the definition). Fails naming the file, path and string.
void check_string_descriptors(const std::string& file, std::uint64_t file_bytes, hid_t set, const std::string& path,
                              std::size_t n);

}  // namespace pegsim::h5
