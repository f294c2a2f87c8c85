// Elimination of the Free rows of an MLCP (as thesis eqs. 2.37-2.38 do for
// the bilateral rows), so that a pure-LCP method (Lemke, for path's fall
// back) can solve what is left. Internal to the solvers stage.
//
// With F the Free rows and N the NonNegative ones,
//   A_FF z_F + A_FN z_N + b_F = 0   =>   z_F = -A_FF^-1 (A_FN z_N + b_F),
// and z_N solves the LCP of the Schur complement
//   0 <= z_N  perp  (A_NN - A_NF A_FF^-1 A_FN) z_N + (b_N - A_NF A_FF^-1 b_F) >= 0,
// whose w is the MLCP's w_N (a block Gaussian elimination). A_FF singular
// (LU reciprocal condition estimate below 1e-12: redundant joints): the
// columns that LU with complete pivoting finds dependent (pivots below 1e-10
// of the largest) get z = 0 and their rows leave F; their equations w_i = 0
// then hold when the redundancy is consistent, and the caller's residual
// check says whether it was.
#pragma once

#include "solvers/lcp.hpp"

#include <Eigen/LU>

#include <string>
#include <vector>

namespace pegsim::solver_detail {

struct FreeRowElimination {
  std::vector<int> free, bounded;  // row indices of F and N
  std::vector<int> dropped;        // dependent Free rows, z = 0
  LcpProblem reduced;  // on N: roles kept, contact_of re-indexed (-1 where it named a Free row)
  std::string issue;   // empty when the elimination succeeded
  bool ok() const { return issue.empty(); }

  // z on all rows from z_N (z_F from its equation), and z_N from z.
  VecX expand(const VecX& z_bounded) const;
  VecX restrict_to_bounded(const VecX& z) const;

  Eigen::PartialPivLU<MatX> lu;  // of A_FF
  MatX A_FN;
  VecX b_F;
};

FreeRowElimination eliminate_free_rows(const LcpProblem& p);

}  // namespace pegsim::solver_detail
