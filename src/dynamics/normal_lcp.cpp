#include "dynamics/normal_lcp.hpp"

#include <Eigen/QR>

#include <algorithm>
#include <cmath>

namespace pegsim {

void select_equality_rows(const MatX& candidates, const MatX& inverse_mass, EqualityRows& out) {
  const int m = static_cast<int>(candidates.cols());
  const int cap = std::min<int>(static_cast<int>(candidates.rows()), m);
  out.kept.clear();
  MatX L = MatX::Zero(cap, cap);   // L L' = Y over the kept rows (grown one row at a time)
  MatX mxt(m, cap);                // M^-1 X' of the kept rows
  int k = 0;
  for (int i = 0; i < candidates.rows() && k < cap; ++i) {
    const VecX u = inverse_mass * candidates.row(i).transpose();  // M^-1 x_i'
    const double diag = candidates.row(i).dot(u);
    if (!(diag > 0.0)) continue;  // a row with no inverse mass (both bodies static, a locked direction)
    VecX l(k);
    for (int r = 0; r < k; ++r) l(r) = out.X.row(r).dot(u);  // X_kept M^-1 x_i'
    if (k > 0) L.topLeftCorner(k, k).triangularView<Eigen::Lower>().solveInPlace(l);
    const double schur = diag - l.squaredNorm();
    if (schur <= EqualityRows::kRankTolerance * diag) continue;  // Algorithm 2, lines 14 / 19: dependent
    L.row(k).head(k) = l.transpose();
    L(k, k) = std::sqrt(schur);
    out.X.conservativeResize(k + 1, m);
    out.X.row(k) = candidates.row(i);
    mxt.col(k) = u;
    out.kept.push_back(i);
    ++k;
  }
  out.X.conservativeResize(k, m);
  out.inverse_mass_xt = mxt.leftCols(k);
  const MatX Y = out.X * out.inverse_mass_xt;
  out.y.compute(0.5 * (Y + Y.transpose()));
}

namespace {

void fill_lcp(const ContactSpace& space, const MatX& A, const VecX& normal_velocity, double h, double gap_floor,
              LcpProblem& lcp) {
  const int n = space.contacts();
  lcp.A = 0.5 * (A + A.transpose());  // symmetric by construction; rounding removed for ppm's symmetry check
  lcp.b = normal_velocity;
  for (int i = 0; i < n; ++i) lcp.b(i) += std::max(space.gap(i), gap_floor) / h;  // psi/h (thesis eq. 6.1)
  lcp.bound.assign(n, RowBound::NonNegative);
  lcp.role.assign(n, RowRole::Normal);
  lcp.contact_of.assign(n, -1);
  lcp.structure = LcpStructure{};
  lcp.layout.clear(n);
}

// R with R'R = M^-1 by a pivoted LDL' (M^-1 may be singular: planar bodies),
// R = D^1/2 L' with the pivoting undone.
MatX inverse_mass_root(const MatX& inverse_mass) {
  const Eigen::LDLT<MatX> ldlt(inverse_mass);
  const VecX root_d = ldlt.vectorD().cwiseMax(0.0).cwiseSqrt();
  MatX R = root_d.asDiagonal() * MatX(ldlt.matrixU());
  R = R * ldlt.transpositionsP().transpose();
  return R;
}

// The semi-implicit viscous law (header): with W the touching contacts'
// tangent rows (2k x m), D = h mu_v W'W and M^ = M + D,
//   v+ = M^-1 (M v* + N' f_N),   M^-1 = M^-1 - M^-1 W' C^-1 W M^-1,
//   C = I / (h mu_v) + W M^-1 W'  (Woodbury; M itself is never formed).
// In Gram form, as the no-slip P_X (same reason: a difference of nearly equal
// matrices once h mu_v is large): with R'R = M^-1, G = R W' and the thin QR
// of G stacked over (h mu_v)^-1/2 I, [G; I / sqrt(h mu_v)] = Q U (C = U'U),
//   M^-1 = R' K R,  K = I - Q_top Q_top' = the top-left block of the
//   projector I - Q Q', so  A = N M^-1 N' = B'B,  B = (I - Q Q') [R N'; 0],
//   M^-1 N' = R' B_top,   M^-1 M v* = v* - M^-1 W' C^-1 W v* = v* - R' Q_top U'^-1 W v*.
void fill_implicit_viscous(const ContactSpace& space, const VecX& free_velocity, double h, double gap_floor,
                           const MatX& W, double damping, NormalLcp& out) {
  const int m = space.m, k = static_cast<int>(W.rows());
  const MatX R = inverse_mass_root(space.inverse_mass);
  MatX stacked(m + k, k);
  stacked.topRows(m) = R * W.transpose();
  stacked.bottomRows(k) = MatX::Identity(k, k) / std::sqrt(damping);
  const Eigen::HouseholderQR<MatX> qr(stacked);
  const MatX Q = qr.householderQ() * MatX::Identity(m + k, k);
  const auto U = qr.matrixQR().topLeftCorner(k, k).triangularView<Eigen::Upper>();
  MatX B = MatX::Zero(m + k, space.contacts());
  B.topRows(m) = R * space.N.transpose();
  B -= Q * (Q.transpose() * B);
  out.inverse_mass_nt = R.transpose() * B.topRows(m);  // M^-1 N'
  VecX t = W * free_velocity;
  U.transpose().solveInPlace(t);
  out.base_velocity = free_velocity - R.transpose() * (Q.topRows(m) * t);  // M^-1 M v*
  fill_lcp(space, B.transpose() * B, space.N * out.base_velocity, h, gap_floor, out.lcp);
}

}  // namespace

void build_no_slip_lcp(const ContactSpace& space, const VecX& free_velocity, double h, double touch,
                       double gap_floor, NormalLcp& out, const std::vector<char>& released) {
  const int n = space.contacts();
  out.touching.assign(n, 0);
  // candidate equality rows (45)-(46), contact by contact, S then T (Algorithm 2's order)
  MatX candidates(2 * n, space.m);
  std::vector<int> candidate_of;
  int rows = 0;
  for (int i = 0; i < n; ++i) {
    if (space.gap(i) > touch) continue;  // guide B.6 [choice]: no-slip only where the bodies touch (or overlap)
    if (i >= n - space.limit_rows) continue;  // joint limits: no tangents
    if (!released.empty() && released[i]) continue;
    out.touching[i] = 1;
    candidates.row(rows++) = space.S.row(i);
    candidates.row(rows++) = space.T.row(i);
    candidate_of.push_back(2 * i);
    candidate_of.push_back(2 * i + 1);
  }
  select_equality_rows(candidates.topRows(rows), space.inverse_mass, out.equality);
  const EqualityRows& eq = out.equality;
  out.row_of.clear();
  for (int k : eq.kept) out.row_of.push_back(candidate_of[k]);
  out.row_drift.resize(static_cast<Eigen::Index>(out.row_of.size()));
  for (std::size_t k = 0; k < out.row_of.size(); ++k) {
    const int i = out.row_of[k] / 2;
    out.row_drift(static_cast<Eigen::Index>(k)) = out.row_of[k] % 2 == 0 ? space.drift_s(i) : space.drift_t(i);
  }
  const MatX mnt = space.inverse_mass * space.N.transpose();
  out.raw_inverse_mass_nt = mnt;
  out.free_velocity = free_velocity;
  if (eq.kept.empty()) {
    out.inverse_mass_nt = mnt;
    out.base_velocity = free_velocity;
    fill_lcp(space, space.N * mnt, space.N * free_velocity, h, gap_floor, out.lcp);
  } else {
    // P_X in Gram form. Written out, P_X = M^-1 - M^-1 X' Y^-1 X M^-1
    // subtracts nearly equal matrices through Y^-1, whose condition Algorithm
    // 2's tolerance lets reach 1e11: on the quadruped's no-slip trot N P_X N'
    // came out off by up to 5e-4 of its size on flat ground and 2% on the
    // tiles, indefinite by up to 5e-6 of its largest eigenvalue (a PSD LCP
    // that is not PSD: ppm and Lemke end on rays). With R'R = M^-1 (pivoted
    // LDL': M^-1 may be singular) and the thin QR  R X' = Q U  (Y = U'U):
    //   P_X = R' (I - Q Q') R,   A = N P_X N' = B'B,  B = (I - Q Q') R N',
    // symmetric positive semidefinite to rounding (1e-16 of its size), and
    //   P_X M v* = v* - M^-1 X' Y^-1 X v* = v* - R' Q U'^-1 X v*.
    const MatX R = inverse_mass_root(space.inverse_mass);
    const Eigen::HouseholderQR<MatX> qr(R * eq.X.transpose());
    const int k = static_cast<int>(eq.X.rows());
    const MatX Q = qr.householderQ() * MatX::Identity(space.m, k);
    const auto U = qr.matrixQR().topLeftCorner(k, k).triangularView<Eigen::Upper>();
    MatX B = R * space.N.transpose();
    B -= Q * (Q.transpose() * B);
    out.inverse_mass_nt = R.transpose() * B;  // P_X N'
    const VecX rates = eq.X * free_velocity + out.row_drift;  // X v* + sigma (the header)
    VecX t = rates;
    U.transpose().solveInPlace(t);
    // U singular after all: Algorithm 2's test on Y kept a row that depends on the others in R's metric (seen:
    // box-stack-3d-offset on the standard model's contacts, 60 rows of 287 contacts, step 334, where U'^-1
    // overflowed and the step went non-finite); the least-norm t treats the dependent row as the others fix it
    if (!t.allFinite()) t = Eigen::CompleteOrthogonalDecomposition<MatX>(MatX(U.transpose())).solve(rates);
    out.base_velocity = free_velocity - R.transpose() * (Q * t);  // P_X M v* - M^-1 X' Y^-1 sigma
    // (51)-(55): A = N P_X N', b = N P_X M v* + psi/h
    fill_lcp(space, B.transpose() * B, space.N * out.base_velocity, h, gap_floor, out.lcp);
  }
  out.tangent_impulse.setZero(n, 2);
}

void build_viscous_lcp(const ContactSpace& space, const VecX& start_velocity, const VecX& free_velocity, double h,
                       const ViscousLaw& law, double gap_floor, NormalLcp& out) {
  const int n = space.contacts();
  out.touching.assign(n, 0);
  out.equality.kept.clear();  // no equality rows (an LLT is not reset by assignment: -Wmaybe-uninitialized)
  out.equality.X.resize(0, space.m);
  out.row_of.clear();
  out.row_drift.resize(0);
  out.tangent_impulse.setZero(n, 2);
  out.damped_rows.resize(0, space.m);
  out.damped_row_of.clear();
  out.damping = h * law.mu_v;
  out.viscous_overshoots = 0;
  for (int i = 0; i < n - space.limit_rows; ++i) out.touching[i] = space.gap(i) <= law.touch;
  const int touching = static_cast<int>(std::count(out.touching.begin(), out.touching.end(), 1));
  if (law.implicit && out.damping > 0.0 && touching > 0) {
    // the damped rows W: each touching contact's S_i, T_i (2 i, 2 i + 1)
    out.damped_rows.resize(2 * touching, space.m);
    for (int i = 0, k = 0; i < n; ++i) {
      if (!out.touching[i]) continue;
      out.damped_rows.row(k) = space.S.row(i);
      out.damped_rows.row(k + 1) = space.T.row(i);
      out.damped_row_of.push_back(2 * i);
      out.damped_row_of.push_back(2 * i + 1);
      k += 2;
    }
    fill_implicit_viscous(space, free_velocity, h, gap_floor, out.damped_rows, out.damping, out);
    return;
  }
  VecX impulse = VecX::Zero(space.m);  // S' f_S + T' f_T
  for (int i = 0; i < n; ++i) {
    if (!out.touching[i]) continue;
    // eq. (15) over the step: f = -h mu_v (S v, T v) at the step's start velocity
    out.tangent_impulse(i, 0) = -out.damping * space.S.row(i).dot(start_velocity);
    out.tangent_impulse(i, 1) = -out.damping * space.T.row(i).dot(start_velocity);
    impulse += space.S.row(i).transpose() * out.tangent_impulse(i, 0) +
               space.T.row(i).transpose() * out.tangent_impulse(i, 1);
    // alone, a direction's slip becomes (1 - h mu_v w) times itself, w = S_i M^-1 S_i' (T_i alike): it
    // reverses once h mu_v w > 1 and grows once h mu_v w > 2 (the explicit law is unstable there)
    const double w = std::max(space.S.row(i).dot(space.inverse_mass * space.S.row(i).transpose()),
                              space.T.row(i).dot(space.inverse_mass * space.T.row(i).transpose()));
    if (out.damping * w > 2.0) ++out.viscous_overshoots;
  }
  out.base_velocity = free_velocity + space.inverse_mass * impulse;  // v**
  out.inverse_mass_nt = space.inverse_mass * space.N.transpose();
  // (41)-(42) at the impulse level: A = N M^-1 N', b = N v** + psi/h
  fill_lcp(space, space.N * out.inverse_mass_nt, space.N * out.base_velocity, h, gap_floor, out.lcp);
}

VecX NormalLcp::velocities(const VecX& f) {
  VecX v = base_velocity + inverse_mass_nt * f;
  if (damped_rows.rows() > 0) {  // semi-implicit viscous: f_t = -h mu_v (S v+, T v+)
    const VecX slip = damped_rows * v;
    for (std::size_t k = 0; k < damped_row_of.size(); ++k)
      tangent_impulse(damped_row_of[k] / 2, damped_row_of[k] % 2) = -damping * slip(static_cast<Eigen::Index>(k));
  }
  if (!equality.kept.empty()) {
    // rho = -Y^-1 (X (v* + M^-1 N' f) + sigma) (after (55)): the kept rows' impulses, for the report (v+ holds them)
    const VecX rho = -equality.y.solve(equality.X * (free_velocity + raw_inverse_mass_nt * f) + row_drift);
    tangent_impulse.setZero();
    for (std::size_t k = 0; k < row_of.size(); ++k) tangent_impulse(row_of[k] / 2, row_of[k] % 2) = rho(k);
  }
  return v;
}

}  // namespace pegsim
