// Captured complementarity problems: each step's LCP/MLCP written to HDF5 so
// solvers can be compared offline (pegsim solve-bench) and the problems shared
// with other libraries (the fclib layout). The layout is documented in
// docs/capture-format.md; capture_reader.hpp reads it back.
//
// Every problem gets a group /problems/NNNNNN with the general problem
// (A dense or CSR, b, bounds, roles, contact_of, the LcpStructure factors) and,
// where the problem is a Stewart-Trinkle frictional one (fclib_local.hpp), an
// fclib_local group: the Delassus operator W, q, mu and spacedim of fclib's
// local frictional contact problem.
//
// Determinism: no object times are stored (io/h5.hpp), so the same problems
// give the same bytes.
#pragma once

#include "io/h5.hpp"
#include "solvers/lcp.hpp"

#include <string>

namespace pegsim {

// Where a captured problem came from (stored as attributes of its group).
struct CaptureInfo {
  long step = 0;           // the step that posed it (gen-problems: the problem's index)
  int island = 0;          // which of the step's islands (World::last_problems()); 0 for gen-problems
  double time = 0.0;       // simulated time at the start of that step (s)
  double h = 0.0;          // time step (s); 0 when not a simulation
  int spacedim = 3;        // 2 (planar) or 3
  std::string model;       // contact model ("standard", "peg", ...; "random" for gen-problems)
  std::string solver;      // the solver the simulation used, and how it ended
  std::string solver_status;
};

class CaptureWriter {
 public:
  // Creates (truncates) `file`; `source` is stored as the root attribute
  // "source" (the scene or generator that produced the problems).
  CaptureWriter(std::string file, const std::string& source);
  ~CaptureWriter();
  CaptureWriter(const CaptureWriter&) = delete;
  CaptureWriter& operator=(const CaptureWriter&) = delete;

  // Writes one problem; returns its group name ("/problems/000012").
  std::string add(const LcpProblem& problem, const CaptureInfo& info);
  int count() const { return count_; }
  int fclib_count() const { return fclib_count_; }  // problems that got an fclib_local group
  void close();  // writes the counts; idempotent

 private:
  h5::Writer writer_;
  h5::Handle file_, problems_;
  int count_ = 0, fclib_count_ = 0;
};

}  // namespace pegsim
