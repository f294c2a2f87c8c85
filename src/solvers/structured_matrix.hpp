// A = G' M^-1 G + C read from a problem's factored form (LcpStructure)
// without forming it: entries, diagonal, columns and products (internal to
// the solvers stage).
//
// Lemke's warm start (lemke_active_set.hpp) touches A through a few columns
// and a small principal block A_JJ: at rest on box-stack-3d, J has ~22 rows
// of n = 360. Reading them from the structure costs O(rows per body) each,
// where forming the dense A costs O(n^2) and checking, scaling and
// multiplying by it as much again (issue 11 item 6: the warm path of a
// resting contact set without a dense A). The same algorithms run on the
// dense A through DenseMatrix, so the two paths differ only in how A_ij is
// summed (rounding).
//
// A_ij = sum over the bodies b rows i and j share of j_i(b)' M_b^-1 j_j(b),
// plus what row i measures beyond its own column on j's bodies,
// x_i(b)' M_b^-1 j_j(b) (PEG's R - G, thesis 4.7), plus C_ij (thesis eq. 2.30
// with eq. 6.1's E, -E' and U blocks), summed in that order (LcpStructure).
#pragma once

#include "solvers/delassus.hpp"
#include "solvers/lcp.hpp"

#include <cstdint>
#include <utility>
#include <vector>

namespace pegsim::solver_detail {

// The dense A of a problem that has one, behind the interface below.
class DenseMatrix {
 public:
  explicit DenseMatrix(const LcpProblem& p) : p_(&p) {}
  const LcpProblem& problem() const { return *p_; }
  double operator()(int i, int j) const { return p_->A(i, j); }
  double diagonal(int i) const { return p_->A(i, i); }
  void add_column(int j, double s, VecX& w) const { w.noalias() += s * p_->A.col(j); }  // w += s A_j
  void add_columns(const int* cols, const double* s, int k, VecX& w) const {            // w += sum s_c A_cols[c]
    for (int c = 0; c < k; ++c)
      if (s[c] != 0.0) add_column(cols[c], s[c], w);
  }
  void block(const int* rows, int k, double* out) const {  // A_bb of these rows, column-major
    for (int c = 0; c < k; ++c)
      for (int r = 0; r < k; ++r) out[c * k + r] = p_->A(rows[r], rows[c]);
  }
  void product(const VecX& z, VecX& w) const { w = p_->A * z + p_->b; }  // w = A z + b
  // w = A z + b for a z that is zero off J
  void product_on(const std::vector<int>& J, const VecX& z, VecX& w) const {
    w = p_->b;
    for (int j : J)
      if (z(j) != 0.0) add_column(j, z(j), w);
  }

 private:
  const LcpProblem* p_;
};

class StructuredMatrix {
 public:
  // Reads p's structure, which must describe all of A: one JacobianRow per
  // row, finite Jacobians, inverse masses and coupling, coupling entries inside
  // the problem, and no joint-space terms (LcpStructure::dense_only); false,
  // and nothing to read, when it does not. p must outlive the use. One pass
  // over the data; the storage is kept from call to call (a steady step
  // allocates nothing).
  bool assign(const LcpProblem& p);
  // The same test on its own (a reader of its own).
  static bool describes(const LcpProblem& p);
  const LcpProblem& problem() const { return *p_; }

  double operator()(int i, int j) const;
  double diagonal(int i) const { return diagonal_(i); }
  void add_column(int j, double s, VecX& w) const { add_columns(&j, &s, 1, w); }  // w += s A_j
  // w += sum s_c A_cols[c]: the columns' velocity changes M^-1 G_c s_c summed
  // per body first (a contact's rows share their two bodies), then spread
  // over the rows on each body once
  void add_columns(const int* cols, const double* s, int k, VecX& w) const;
  // A_bb of these rows (distinct), column-major: entry by entry as operator(),
  // with each body term summed once for the pair and C read row by row, each
  // entry placed through its column's position in the block
  void block(const int* rows, int k, double* out) const;
  void product(const VecX& z, VecX& w) const;  // w = A z + b
  void product_on(const std::vector<int>& /*J*/, const VecX& z, VecX& w) const { product(z, w); }

  // lemke_detail::equilibration's D of the dense A: A_ii^-1/2 on rows with a
  // positive diagonal, the geometric mean of the scaled row's and column's
  // largest entries on the rest (rows with a zero diagonal: Stewart-Trinkle
  // slip rows, whose entries are coupling entries, and rows without a
  // Jacobian that measure bodies, whose row also reads those bodies' columns).
  void equilibration(VecX& D) const;

 private:
  // A_ij's G' M^-1 G part: the bodies rows i and j share
  double delassus(int i, int j) const;
  // v += row i's measure terms against column j, side by side (LcpStructure's order)
  void add_measured(int i, int j, double& v) const;

  const LcpProblem* p_ = nullptr;
  std::size_t bodies_ = 0;
  std::vector<Vec6> scaled_a_, scaled_b_;  // per row: M^-1 j on its body_a, body_b
  std::vector<char> world_form_;           // per body: is_world_form of its inverse mass
  RowsByBody by_body_;                     // each body's rows and their Jacobian blocks on it
  RowsByBody measured_by_body_;            // each body's measuring rows and their R - G blocks on it
  int measuring_ = 0;                      // rows with a measure: 0 .. measuring_ - 1
  std::vector<int> row_start_, by_row_;    // coupling entries of row i: by_row_[row_start_[i] .. row_start_[i + 1])
  std::vector<int> col_start_, by_col_;    // coupling entries of column j
  VecX diagonal_;
  std::vector<int> cursor_;                // assign()'s scratch
  mutable std::vector<int> position_;      // block()'s: a row's place in the block, -1 outside (equilibration's marks too)
  mutable std::vector<std::pair<int, double>> entries_;  // equilibration's copy of a row's or column's C entries
  mutable std::vector<std::pair<std::uint32_t, Vec6>> moved_;  // add_columns' velocity change per body
  mutable std::vector<Vec6> impulse_;      // product()'s G z per body
};

}  // namespace pegsim::solver_detail
