// UTF-8 well-formedness, for text that reaches a parser or a terminal.
#pragma once

#include <cstddef>
#include <string_view>

namespace pegsim {

// The offset of the first byte that does not start a complete UTF-8 sequence
// (a stray continuation byte, a lead byte 0xF8..0xFF, or a lead byte whose
// continuation bytes are missing, as at the end of the text), or npos when
// the text is well formed. Structural only: overlong forms and surrogates
// pass (every lead byte is followed by as many continuation bytes as it
// announces, which is what a parser stepping by lead bytes relies on).
inline std::size_t first_invalid_utf8(std::string_view s) {
  for (std::size_t i = 0; i < s.size();) {
    const auto c = static_cast<unsigned char>(s[i]);
    const int more = c < 0x80 ? 0 : (c >> 5) == 0x6 ? 1 : (c >> 4) == 0xe ? 2 : (c >> 3) == 0x1e ? 3 : -1;
    bool valid = more >= 0 && i + static_cast<std::size_t>(more) < s.size();
    for (int k = 1; valid && k <= more; ++k) valid = (static_cast<unsigned char>(s[i + static_cast<std::size_t>(k)]) >> 6) == 0x2;
    if (!valid) return i;
    i += 1 + static_cast<std::size_t>(more);
  }
  return std::string_view::npos;
}

}  // namespace pegsim
