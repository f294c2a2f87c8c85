// Block Gauss-Seidel sweeps for the last digits of a Lemke solution (internal
// to the solvers stage).
//
// At rest, contact problems are degenerate at the level of their data's
// rounding noise (b entries ~1e-13..1e-10: gap terms, tangential velocities of
// resting bodies), which is also the level of the simulator's tolerance.
// Pivoting on the noise follows it into nearly singular bases, so Lemke
// pivots on a cleaned q; the active set it finds is then exact up to
// noise-level violations: mostly friction rows with w_f ~ -1e-10 (tangential
// velocities left by the gap terms), and cones of nearly unloaded contacts.
// Those are local, and a few block Gauss-Seidel sweeps remove them:
//   - a Stewart-Trinkle contact (its normal row, friction rows and slip row:
//     a block of LcpProblem::layout, contact_layout()) is one block: with the rest of z
//     fixed, its small LCP (M = A_bb, q = w_b - A_bb z_b) is solved exactly
//     by Lemke's method (all of eq. 2.21 for the contact at once: row-wise
//     sweeps converge slowly on the n_d rank-2 friction rows);
//   - any other row with A_ii > 0 is a block of its own (eq. 2.46).
// w = A z + b is kept up to date (O(n) per changed z_i through the dense A,
// O(rows on the row's bodies) through the structure: structured_matrix.hpp).
#pragma once

#include "solvers/lcp.hpp"
#include "solvers/lemke_pivoting.hpp"
#include "solvers/structured_matrix.hpp"

#include <string>
#include <vector>

namespace pegsim::lemke_detail {

// The storage of solve_small_lcp, kept by a caller that solves many blocks:
// blocks of sizes seen before then allocate nothing (issue 11: no heap work
// in a steady step). It carries nothing from one solve to the next.
struct SmallLcpWorkspace {
  VecX D, row, col, qs;
  std::vector<int> rest;
  PivotWorkspace pivoting;
  PivotRun run;
};

// Matrix: solver_detail::DenseMatrix or solver_detail::StructuredMatrix (A's
// entries, diagonal and columns); instantiated for both in lemke_sweep.cpp.
template <class Matrix>
class BlockSweeper {
 public:
  BlockSweeper() = default;
  explicit BlockSweeper(const Matrix& A) { assign(A); }
  // Groups A's rows into blocks (A must outlive the sweeps); the storage is
  // kept from one assign to the next, so a sweeper kept by a solver allocates
  // nothing once it has seen the sizes of a steady step.
  void assign(const Matrix& A);
  // One sweep over every block, in row order; w = A z + b on entry and exit.
  // Blocks whose rows all satisfy their conditions within `skip_below` are
  // left alone (near convergence, most are).
  void sweep(VecX& z, VecX& w, double skip_below = 0.0) const;

 private:
  const Matrix* A_ = nullptr;
  std::vector<int> rows_;    // the blocks' rows, block after block
  std::vector<int> starts_;  // block k: rows_[starts_[k] .. starts_[k + 1])
  ContactLayout layout_;     // the contacts, when the problem carries no layout
  std::string why_;
  // a sweep's scratch (a block's M, q, z and its Lemke tableau): storage only
  mutable MatX Mb_;
  mutable VecX qb_, zb_;
  mutable std::vector<double> dz_;
  // each block's A_bb (column-major), gathered on its first visit: the
  // sweeps revisit the same blocks, and through the structure an entry costs
  // a few dot products
  double* block_matrix(std::size_t block) const;
  mutable std::vector<double> stored_;
  mutable std::vector<int> stored_at_;  // per block: its offset in stored_, -1 before its first visit
  mutable SmallLcpWorkspace small_;
};

// A small LCP (M, q) solved by Lemke's method after equilibration; false when
// no solution comes out.
bool solve_small_lcp(const MatX& M, const VecX& q, VecX& z);
bool solve_small_lcp(const MatX& M, const VecX& q, VecX& z, SmallLcpWorkspace& workspace);

}  // namespace pegsim::lemke_detail
