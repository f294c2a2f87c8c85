// Reading captured problems (docs/capture-format.md, written by capture.hpp)
// back into LcpProblems. Errors name the file and the object (RecordingError).
#pragma once

#include "io/capture.hpp"
#include "io/fclib_local.hpp"

#include <string>
#include <vector>

namespace pegsim {

struct CapturedProblem {
  std::string file, group;  // "/problems/000012"
  CaptureInfo info;
  LcpProblem lcp;
  std::string label() const { return file + ":" + group; }
};

// Every problem of a capture file, in order.
std::vector<CapturedProblem> read_captured_problems(const std::string& file);

// The fclib_local group of one problem (e.g. "/problems/000012/fclib_local"),
// read through the fclib layout alone.
FclibLocal read_fclib_local(const std::string& file, const std::string& group);

}  // namespace pegsim
