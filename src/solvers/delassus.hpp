// The Delassus part of A, G' M^-1 G, and PEG's (R - G)' M^-1 G (thesis 4.7),
// summed one way (thesis eqs. 2.26, 2.30; the order: LcpStructure).
//
// Three code paths read these sums: the formulation's fill of the dense A,
// assemble_matrix() for a structure-only problem handed to a solver that
// needs A, and StructuredMatrix's entries for Lemke's warm start on the
// structure. They must agree bit for bit: a resting contact problem is
// degenerate at rounding level, and a 4e-15 difference in A changed which
// solution PATH returned on a knife-edge robot scene (performance.md, "Lemke's
// warm start on the structure"). So the grouping of rows by body and M_b^-1 j
// live here, once.
#pragma once

#include "solvers/lcp.hpp"

#include <utility>
#include <vector>

namespace pegsim::solver_detail {

// M_b^-1 j for one body's inverse-mass block, summed as InverseMass::apply
// (dynamics/mass.hpp) sums it (the linear part diagonal, the angular part a
// 3 x 3 product) when the block has that form, else the general 6 x 6 product.
Vec6 inverse_mass_times(const Mat6& m, const Vec6& j);
// Whether m has that form, and the product told so: a reader of many rows on
// few bodies tests each body once (inline: StructuredMatrix::assign calls it
// twice a row)
bool is_world_form(const Mat6& m);
inline Vec6 inverse_mass_times(const Mat6& m, const Vec6& j, bool world_form) {
  if (!world_form) return m * j;
  Vec6 dv;  // as InverseMass::apply: (m_inv mask_k) p_k equals m_inv (mask_k p_k) for masks of 0 and 1
  dv.head<3>() = m.diagonal().head<3>().cwiseProduct(j.head<3>());
  dv.tail<3>() = m.bottomRightCorner<3, 3>() * j.tail<3>();
  return dv;
}

// The first n_rows of structure.rows grouped by body: body b's (row, j_row(b))
// at rows[start[b] .. start[b + 1]), in row order (a counting sort; a row
// names each of its bodies once). Bodies are the structure's own numbers,
// 0 .. structure.inverse_mass.size() - 1; kNoBody and larger are skipped.
struct RowsByBody {
  std::vector<int> start;
  std::vector<std::pair<int, Vec6>> rows;
  std::vector<int> cursor;  // scratch
  void assign(const LcpStructure& structure, int n_rows);
  // the same for any list of rows over `bodies` bodies (the structure's measures)
  void assign(const std::vector<JacobianRow>& list, int n_rows, std::size_t bodies);
};

// A += G' M^-1 G over the first n_rows of structure.rows (A at least n_rows
// square; structure.inverse_mass filled, as number_island_bodies does): per
// body, A_ij and A_ji += j_i' (M_b^-1 j_j) for i <= j in row order. Each A_ij
// sums at most two bodies' terms, so the body order does not change its bits.
// The storage is the thread's: a steady step allocates nothing here.
void add_delassus(const LcpStructure& structure, int n_rows, MatX& A);

// A += (R - G)' M^-1 G (LcpStructure::measures) over the first n_rows rows and
// columns: per measuring row i, per body b of its measure in its order
// (body_a, then body_b), A_ij += x_i(b)' (M_b^-1 g_j(b)) for every column j
// acting on b. After add_delassus and before C: the order every reader sums.
void add_measures(const LcpStructure& structure, int n_rows, MatX& A);

// w_i += x_i' u over the measuring rows i < n_rows (R - G, LcpStructure::measures),
// u a velocity per body (the structure's numbering): the measures' part of
// w = R' u after the G' u part, in product and residual readers alike.
void add_measured_rates(const LcpStructure& structure, int n_rows, const std::vector<Vec6>& u, VecX& w);

}  // namespace pegsim::solver_detail
