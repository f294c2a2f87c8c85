// fclib's local frictional contact problem (Acary, Brémond, Koziara, Pérignon,
// "FCLIB: a collection of discrete 3D frictional contact problems", INRIA
// RT-0444, 2014), built from a Stewart-Trinkle LCP:
//
//   u = W r + q,   K_mu* ∋ u + [mu |u_T|; 0]  ⊥  r ∈ K_mu   (per contact)
//
// with r = (r_n, r_t1[, r_t2]) the contact impulse in a local frame, W = H M^-1 H'
// the Delassus operator and q = H nu* (+ psi_n/h on the normal rows).
//
// The LCP of eq. 6.1 (thesis) holds what is needed: the normal row G_n and the
// n_d friction rows G_f of each contact (Jacobian rows, LcpStructure), the
// friction coefficient mu (the U entry of its slip row), and b = G' nu*. The
// tangent frame is t1 = d_1 and, in 3D, t2 the unit part of d_j orthogonal to
// d_1 (d_j the direction farthest from parallel): rows and b are linear in the
// direction (eq. 2.22), so H_t2 = (G_dj - cos(a) G_d1) / sin(a), likewise q_t2.
//
// Applies to problems whose rows are all Normal, Friction or Slip, with no Free
// rows, and every contact frictional (mu > 0 gives friction rows; a contact
// with mu = 0 has none, and no tangent rows to build the frame from).
#pragma once

#include "solvers/lcp.hpp"

#include <cstdint>
#include <string>
#include <vector>

namespace pegsim {

// A sparse matrix in compressed-column form (fclib's nz = -1 storage).
struct SparseCsc {
  int m = 0, n = 0;
  std::vector<std::int32_t> p;  // n + 1 column starts
  std::vector<std::int32_t> i;  // row of each stored entry
  std::vector<double> x;        // value of each stored entry
  MatX dense() const;
};

struct FclibLocal {
  int spacedim = 3;        // 2 or 3
  int contacts = 0;        // numberOfContacts = W.m / spacedim
  SparseCsc W;             // Delassus operator, spacedim * contacts square
  std::vector<double> q;   // spacedim * contacts
  std::vector<double> mu;  // contacts
  std::vector<int> normal_row;  // per contact: its Normal row in the LCP
};

// Builds the local problem; false (with the reason in `why`) when the problem
// is not a Stewart-Trinkle frictional one (see above).
bool make_fclib_local(const LcpProblem& problem, int spacedim, FclibLocal& out, std::string& why);

}  // namespace pegsim
