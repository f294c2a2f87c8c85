#include "io/h5_heaps.hpp"

#include "io/recording.hpp"

#include <cstring>
#include <fstream>
#include <vector>

namespace pegsim::h5 {

namespace {

// HDF5's layout (the file format specification, "Global Heap"), with the
// 8-byte offsets and lengths every pegsim file uses
constexpr std::uint64_t kHeaderBytes = 16;      // "GCOL", version 1, 3 reserved, collection size
constexpr std::uint64_t kObjectHeader = 16;     // index u16, references u16, 4 reserved, size u64
constexpr std::uint64_t kMinCollection = 4096;  // H5HG_MINSIZE

std::uint64_t le(const unsigned char* p, int bytes) {
  std::uint64_t v = 0;
  for (int i = bytes - 1; i >= 0; --i) v = (v << 8) | p[i];
  return v;
}

std::uint64_t file_size(std::ifstream& in) {
  in.seekg(0, std::ios::end);
  return static_cast<std::uint64_t>(in.tellg());
}

bool read_at(std::ifstream& in, std::uint64_t at, std::uint64_t n, std::vector<unsigned char>& out) {
  out.resize(n);
  in.clear();
  in.seekg(static_cast<std::streamoff>(at));
  in.read(reinterpret_cast<char*>(out.data()), static_cast<std::streamsize>(n));
  return static_cast<std::uint64_t>(in.gcount()) == n;
}

}  // namespace

GlobalHeaps::GlobalHeaps(const std::string& file) : file_(file) {
  std::ifstream in(file, std::ios::binary), scan(file, std::ios::binary);
  if (!in || !scan) throw RecordingError(file + ": cannot read the file");
  const std::uint64_t size = file_size(in);
  const auto damaged = [&](std::uint64_t at, const std::string& what) {
    throw RecordingError(file + ": global heap at byte " + std::to_string(at) + ": " + what +
                         " (a damaged file: HDF5 would read past the heap)");
  };
  // candidates: "GCOL", version 1, three zero bytes, a size of at least 4096
  constexpr std::size_t kBlock = 1 << 20;
  std::vector<char> block(kBlock + 3);
  std::vector<unsigned char> bytes;
  std::uint64_t base = 0;
  std::size_t carried = 0;
  while (true) {
    scan.read(block.data() + carried, static_cast<std::streamsize>(kBlock));
    const std::size_t got = carried + static_cast<std::size_t>(scan.gcount());
    if (got < 4) break;
    for (const char* p = block.data(); (p = static_cast<const char*>(std::memchr(p, 'G', got - (p - block.data()))));
         ++p) {
      if (static_cast<std::size_t>(p - block.data()) + 4 > got) break;
      if (std::memcmp(p, "GCOL", 4) != 0) continue;
      const std::uint64_t at = base + static_cast<std::uint64_t>(p - block.data());
      if (!read_at(in, at, kHeaderBytes, bytes) || bytes[4] != 1 || bytes[5] || bytes[6] || bytes[7]) continue;
      const std::uint64_t collection = le(&bytes[8], 8);
      if (collection < kMinCollection) continue;
      if (collection > size - at) damaged(at, "its size runs past the end of the file");
      read_at(in, at, collection, bytes);
      // the objects, as HDF5 walks them; index 0 is the free space
      for (std::uint64_t q = kHeaderBytes; q < collection;) {
        if (collection - q < kObjectHeader) break;  // too small for an object: free space
        const auto index = static_cast<std::uint32_t>(le(&bytes[q], 2));
        const std::uint64_t object = le(&bytes[q + 8], 8);
        const std::uint64_t need = index > 0 ? kObjectHeader + ((object + 7) & ~std::uint64_t{7}) : object;
        if (object > collection || need > collection - q || need == 0)
          damaged(at + q, "object " + std::to_string(index) + " of " + std::to_string(object) +
                              " bytes does not fit its collection");
        if (index > 0 && !objects_.emplace(std::make_pair(at, index), object).second)
          damaged(at + q, "object " + std::to_string(index) + " appears twice");
        q += need;
      }
    }
    if (static_cast<std::size_t>(scan.gcount()) < kBlock) break;
    // keep the last three bytes: a signature may straddle two blocks
    std::memmove(block.data(), block.data() + got - 3, 3);
    base += got - 3;
    carried = 3;
  }
}

bool GlobalHeaps::holds(std::uint64_t address, std::uint32_t index, std::uint64_t size) const {
  const auto it = objects_.find({address, index});
  return it != objects_.end() && it->second == size;
}

bool GlobalHeaps::strings_fit(std::uint64_t offset, std::uint64_t count) const {
  std::ifstream in(file_, std::ios::binary);
  std::vector<unsigned char> bytes;
  if (!in || count > file_size(in) / 16 || !read_at(in, offset, 16 * count, bytes)) return false;
  for (std::uint64_t k = 0; k < count; ++k) {
    const unsigned char* e = &bytes[16 * k];
    const std::uint64_t length = le(e, 4), collection = le(e + 4, 8);
    const auto index = static_cast<std::uint32_t>(le(e + 12, 4));
    if (length == 0 && collection == 0) continue;  // an empty string may have no object
    if (!holds(collection, index, length)) return false;
  }
  return true;
}

}  // namespace pegsim::h5
