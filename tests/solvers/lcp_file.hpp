// Captured LCPs for the solver tests (tests/solvers/data/*.lcp).
//
// Symmetric-sparse text format, one keyword per line ('#' lines are comments):
//   n <size>
//   role <n ints>          RowRole as int (0 Normal, 1 Friction, 2 Slip, ...)
//   contact_of <n ints>
//   b <n doubles>
//   l <i> <j> <v> <j> <v> ...   row i's nonzeros with j <= i: A(i,j) = v, and
//                               A(j,i) = v unless a 'u' line says otherwise
//   u <i> <j> <v> ...           entries with j > i that differ from A(j,i)
// Doubles are written in their shortest round-trip form, so A and b come back
// bit for bit (the Delassus blocks of a contact problem are symmetric; only
// Stewart-Trinkle's E, -E' and U entries need 'u' lines).
#pragma once

#include "common/test_paths.hpp"

#include "solvers/lcp.hpp"

#include <fstream>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

namespace pegsim::test {

// tests/solvers/data/<name> (PEGSIM_TEST_DATA_DIR is tests/data).
inline std::string data_path(const std::string& name) {
  return std::string(PEGSIM_TEST_DATA_DIR) + "/../solvers/data/" + name;
}

// Throws std::runtime_error on a malformed file.
inline LcpProblem load_lcp_file(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw std::runtime_error("cannot open " + path);
  LcpProblem p;
  int n = -1;
  std::vector<std::vector<std::pair<int, double>>> upper;
  std::string line;
  auto fail = [&](const std::string& why) {
    throw std::runtime_error(path + ": " + why + ": " + line);
  };
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#') continue;
    std::istringstream s(line);
    std::string key;
    s >> key;
    if (key == "n") {
      s >> n;
      if (!s || n < 0) fail("bad size");
      p.A = MatX::Zero(n, n);
      p.b = VecX::Zero(n);
      p.role.assign(n, RowRole::Other);
      p.contact_of.assign(n, -1);
      upper.assign(n, {});
      continue;
    }
    if (n < 0) fail("entry before the size");
    if (key == "role" || key == "contact_of") {
      for (int i = 0; i < n; ++i) {
        int v = 0;
        if (!(s >> v)) fail("short list");
        if (key == "role") p.role[i] = static_cast<RowRole>(v);
        else p.contact_of[i] = v;
      }
    } else if (key == "b") {
      for (int i = 0; i < n; ++i)
        if (!(s >> p.b(i))) fail("short b");
    } else if (key == "l" || key == "u") {
      int i = -1, j = -1;
      double v = 0.0;
      if (!(s >> i) || i < 0 || i >= n) fail("bad row");
      while (s >> j >> v) {
        if (j < 0 || j >= n || (key == "l" ? j > i : j <= i)) fail("bad column");
        if (key == "l") {
          p.A(i, j) = v;
          p.A(j, i) = v;
        } else {
          upper[i].emplace_back(j, v);
        }
      }
      if (!s.eof()) fail("bad entry");
    } else {
      fail("unknown keyword");
    }
  }
  if (n < 0) throw std::runtime_error(path + ": no size");
  for (int i = 0; i < n; ++i)
    for (const auto& [j, v] : upper[i]) p.A(i, j) = v;
  return p;
}

}  // namespace pegsim::test
