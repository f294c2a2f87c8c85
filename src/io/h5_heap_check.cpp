#include "io/h5_heap_check.hpp"

#include "io/h5.hpp"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <fstream>
#include <map>
#include <vector>

namespace pegsim::h5 {
namespace {

constexpr std::uint64_t kHeaderBytes = 16;  // collection header and object header alike

std::uint64_t little_endian(const unsigned char* p, int bytes) {
  std::uint64_t v = 0;
  for (int k = bytes - 1; k >= 0; --k) v = (v << 8) | p[k];
  return v;
}

}  // namespace

// Walks the collection whose signature starts at `at` as HDF5 does; fails on
// an object that would not advance the walk or would end past the collection.
std::map<std::uint64_t, std::uint64_t> global_heap_objects(std::ifstream& in, const std::string& file,
                                                           std::uint64_t at, std::uint64_t file_size) {
  std::map<std::uint64_t, std::uint64_t> objects;
  unsigned char header[kHeaderBytes];
  in.clear();
  in.seekg(static_cast<std::streamoff>(at));
  if (!in.read(reinterpret_cast<char*>(header), kHeaderBytes) || std::memcmp(header, "GCOL", 4) != 0 || header[4] != 1)
    return objects;  // no version-1 collection here
  const std::uint64_t size = little_endian(header + 8, 8);
  if (at > file_size || size < kHeaderBytes || size > file_size - at) return objects;  // HDF5 refuses it itself
  const std::uint64_t end = at + size;
  for (std::uint64_t p = at + kHeaderBytes; p + kHeaderBytes <= end;) {
    unsigned char object[kHeaderBytes];
    in.seekg(static_cast<std::streamoff>(p));
    if (!in.read(reinterpret_cast<char*>(object), kHeaderBytes)) return objects;
    const std::uint64_t index = little_endian(object, 2), bytes = little_endian(object + 8, 8);
    const std::uint64_t left = end - p;
    // object 0 (free space) counts its own header; the others add it and pad to 8 bytes
    const std::uint64_t padded = (std::min(bytes, left) + 7) & ~std::uint64_t{7};
    const bool fits = index == 0 ? bytes != 0 && bytes <= left : bytes <= left - kHeaderBytes && padded <= left - kHeaderBytes;
    if (!fits)
      fail(file, "", "damaged global heap at byte " + std::to_string(p) + " (object " + std::to_string(index) +
                         " of size " + std::to_string(bytes) + " in a collection of " + std::to_string(size) + ")");
    if (index != 0) objects[index] = bytes;
    p += index == 0 ? bytes : kHeaderBytes + padded;
  }
  return objects;
}

void check_global_heaps(const std::string& file) {
  std::ifstream scan(file, std::ios::binary), heap(file, std::ios::binary);
  if (!scan || !heap) fail(file, "", "cannot open the file");
  scan.seekg(0, std::ios::end);
  const auto file_size = static_cast<std::uint64_t>(scan.tellg());
  scan.seekg(0);
  constexpr char kSignature[] = "GCOL";
  constexpr std::size_t kBlock = 1 << 20, kCarry = 3;  // a signature may straddle two blocks
  std::vector<char> buffer(kBlock + kCarry);
  std::size_t carried = 0;
  std::uint64_t base = 0;  // file offset of buffer[0]
  while (scan.read(buffer.data() + carried, kBlock) || scan.gcount() > 0) {
    const std::size_t n = carried + static_cast<std::size_t>(scan.gcount());
    for (auto it = buffer.begin();;) {
      it = std::search(it, buffer.begin() + static_cast<std::ptrdiff_t>(n), kSignature, kSignature + 4);
      if (it == buffer.begin() + static_cast<std::ptrdiff_t>(n)) break;
      (void)global_heap_objects(heap, file, base + static_cast<std::uint64_t>(it - buffer.begin()), file_size);
      ++it;
    }
    carried = std::min(kCarry, n);
    std::memmove(buffer.data(), buffer.data() + n - carried, carried);
    base += n - carried;
  }
}

// HDF5 allocates a variable-length string at the length its descriptor in the
// file claims before it reads the string; a damaged length asked for 4 GB
// (found by fuzz_recording). The descriptors of a contiguous dataset (4-byte
// length, 8-byte heap collection address, 4-byte index each) are read here
// first: no string can be longer than the file holding it, and each must name
// an object of its length in its heap collection. Chunked string datasets and
// string attributes are not checked this way.
void check_string_descriptors(const std::string& file, std::uint64_t file_bytes, hid_t set, const std::string& path,
                              std::size_t n) {
  constexpr std::size_t kDescriptor = 16;
  const haddr_t offset = H5Dget_offset(set);
  if (n == 0 || offset == HADDR_UNDEF || H5Dget_storage_size(set) != n * kDescriptor) return;
  std::ifstream in(file, std::ios::binary);
  std::vector<unsigned char> raw(n * kDescriptor);
  in.seekg(static_cast<std::streamoff>(offset));
  if (!in.read(reinterpret_cast<char*>(raw.data()), static_cast<std::streamsize>(raw.size())))
    fail(file, path, "cannot read dataset (truncated or damaged file?)");
  std::map<std::uint64_t, std::map<std::uint64_t, std::uint64_t>> heaps;  // collection address -> its objects
  for (std::size_t k = 0; k < n; ++k) {
    const unsigned char* d = raw.data() + k * kDescriptor;
    const std::uint64_t length = little_endian(d, 4), heap = little_endian(d + 4, 8), index = little_endian(d + 12, 4);
    const std::string which = "string " + std::to_string(k);
    if (length > file_bytes)
      fail(file, path, which + " claims " + std::to_string(length) + " bytes, more than the file holds (damaged file?)");
    if (length == 0) continue;
    // HDF5 reads the object without checking that the index names one (a
    // segfault in H5HG_read, found by fuzz_recording) and copies all of it
    if (!heaps.count(heap)) heaps[heap] = global_heap_objects(in, file, heap, file_bytes);
    const auto& objects = heaps[heap];
    if (objects.empty()) continue;  // no collection there: HDF5 refuses it itself
    const auto object = objects.find(index);
    if (object == objects.end() || object->second != length)
      fail(file, path, which + " names heap object " + std::to_string(index) + " at byte " + std::to_string(heap) +
                            ", which is missing or not " + std::to_string(length) + " bytes long (damaged file?)");
  }
}

}  // namespace pegsim::h5
