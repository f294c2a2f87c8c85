// split_list (commands.hpp): comma-separated CLI lists.
#include "commands.hpp"
#include <algorithm>

namespace pegsim::cli {

std::vector<std::string> split_list(const std::string& list) {
  std::vector<std::string> out;
  if (list.empty()) return out;
  std::size_t start = 0;
  while (start <= list.size()) {
    const std::size_t comma = std::min(list.find(',', start), list.size());
    out.push_back(list.substr(start, comma - start));
    start = comma + 1;
  }
  return out;
}

}  // namespace pegsim::cli
