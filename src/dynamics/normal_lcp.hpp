// The LCPs in normal impulses only of Drumwright & Shell, "Rapidly computable
// viscous friction and no-slip rigid contact models" (reference 002; its
// formulas were lost in the text's extraction: the forms below are the
// reading guide's reconstructions, shared/notes/drumwright-shell.md B.3 and
// B.6, checked against the prose and dimensions), in maximal coordinates
// without joint rows (P = M^-1):
//
// No-slip (002 section VI, eqs. (45)-(55)): every touching contact admits no
// tangential slip, S v+ = 0 (45), T v+ = 0 (46). With X the equality rows that
// Algorithm 2 keeps (a full-row-rank subset of [S; T]), Y = X M^-1 X' and
//   P_X = M^-1 - M^-1 X' Y^-1 X M^-1                                (after (50))
// the MLCP (47)-(50) reduces to the LCP in the n normal impulses (51)-(55):
//   w = (N P_X N') f_N + N P_X M v* + psi/h,   0 <= f_N perp w >= 0,
//   v+ = P_X M (v* + M^-1 N' f_N),   rho = -Y^-1 X (v* + M^-1 N' f_N)
// (v* = v + h M^-1 f, the free velocity of eq. 2.30; rho the tangential
// impulses [f_S; f_T] of the kept rows). P_X M v* is computed as
// v* - M^-1 X' Y^-1 X v*: M itself is never needed (planar bodies have a
// singular M^-1).
// With the contact drift correction (ContactSpace::drift_s, drift_t; sim/
// contact_drift.hpp) the rows are X v+ = -sigma, sigma the kept rows' drift
// rates: X v* becomes X v* + sigma above (v+ = P_X M v* - M^-1 X' Y^-1 sigma
// + P_X N' f_N); sigma = 0 without it.
//
// Viscous (002 section IV in the time-stepping form the guide calls V-imp,
// B.3): the tangential impulse at a touching contact is -h mu_v (S v, T v),
// proportional to the tangential velocity at the start of the step (eq. (15),
// explicit), and the normal impulses solve the frictionless LCP (41)-(42) at
// the impulse level:
//   v** = v* - h M^-1 (S' mu_v S + T' mu_v T) v,
//   w = (N M^-1 N') f_N + N v** + psi/h,   0 <= f_N perp w >= 0,   v+ = v** + M^-1 N' f_N.
// Alone, a contact direction's slip is scaled by 1 - h mu_v w over the step
// (w = S_i M^-1 S_i', its effective inverse mass): the explicit law reverses
// the slip once h mu_v w > 1 and amplifies it once h mu_v w > 2 (counted,
// NormalLcp::viscous_overshoots). The trotting quadruped's shins (0.2 kg)
// at h = 0.001 are flipped over by mu_v = 1000 N s/m that way.
// Semi-implicit viscous (ViscousLaw::implicit; the guide's optional variant
// for stiff mu_v, B.3: a deviation from the paper, off by default): the
// impulse at v+, -h mu_v (S v+, T v+), so that with D = h sum_i mu_v (S_i'S_i
// + T_i'T_i) over the touching contacts and M^ = M + D (SPD):
//   M^ v+ = M v* + N' f_N,   w = (N M^-1 N') f_N + N M^-1 M v* + psi/h,
// a PSD LCP again, whose damping only removes kinetic energy whatever h mu_v
// (mu_v -> infinity gives no-slip's P_X, mu_v = 0 the frictionless LCP).
//
// Both have one LCP variable per contact (Stewart-Trinkle with an n_d pyramid
// has n_d + 2), a symmetric PSD matrix, and are solved by any LCP solver of
// the chain (ppm: 002's Algorithm 1; qp-active-set: the QP they are the KKT
// conditions of). The gap term psi/h (Stewart-Trinkle's, thesis eq. 6.1) is
// pegsim's; 002 writes the models for touching contacts (guide B.9-13).
#pragma once

#include "dynamics/contact_space.hpp"
#include "solvers/lcp.hpp"

#include <Eigen/Cholesky>

#include <vector>

namespace pegsim {

// Algorithm 2 (002 section VI, guide B.6): walking the candidate rows in
// order, keep a row when its Schur complement against the rows kept so far,
// in Y = X M^-1 X', is above kRankTolerance times its own X_i M^-1 X_i' (the
// relative test of ppm.cpp; Moby and RPIsim use an absolute delta). Dropping a
// dependent row leaves {v : X v = 0} unchanged ("without affecting the solution").
struct EqualityRows {
  static constexpr double kRankTolerance = 1e-11;
  std::vector<int> kept;  // indices into the candidates, ascending
  MatX X;                 // the kept rows (k x m)
  MatX inverse_mass_xt;   // M^-1 X' (m x k)
  // of Y = X M^-1 X' (k x k, SPD); factored empty at first, so that a NormalLcp without equality rows
  // (viscous) copies and moves defined values (a default LLT leaves its status unset: UBSan)
  Eigen::LLT<MatX> y{MatX(0, 0)};
};
void select_equality_rows(const MatX& candidates, const MatX& inverse_mass, EqualityRows& out);

// A normal-impulse LCP and how to recover the velocities from its solution.
struct NormalLcp {
  LcpProblem lcp;          // n x n, dense, every row Normal / NonNegative
  VecX base_velocity;      // v* (no-slip: P_X M v*; viscous: v**) before the normal impulses
  MatX inverse_mass_nt;    // M^-1 N' (no-slip: P_X N')
  EqualityRows equality;   // no-slip: the kept rows; viscous: none
  std::vector<int> touching;  // per contact: 1 when gap <= touch (touching or overlapping) (the tangential law applies)
  MatX tangent_impulse;    // per contact (f_S, f_T) (n x 2); no-slip: rho, semi-implicit viscous: -h mu_v W v+,
                           // filled by velocities()
  // v+ for normal impulses f (and, for no-slip, rho into tangent_impulse)
  VecX velocities(const VecX& f);

  // no-slip: per kept row its contact and direction (2 i: S_i, 2 i + 1: T_i) and its drift rate sigma; v*;
  // M^-1 N'
  std::vector<int> row_of;
  VecX row_drift;
  VecX free_velocity;
  MatX raw_inverse_mass_nt;

  // viscous: h mu_v; semi-implicit, the damped rows W (the touching contacts' S_i, T_i) and each row's
  // (2 i: S_i, 2 i + 1: T_i); explicit, the touching contacts whose h mu_v w exceeds 2 (the header)
  double damping = 0.0;
  MatX damped_rows;
  std::vector<int> damped_row_of;
  int viscous_overshoots = 0;
};

// The viscous law's parameters (SimOptions::drumwright_shell).
struct ViscousLaw {
  double mu_v = 0.0;      // N s/m per touching contact
  double touch = 1e-5;    // gap (m) up to which a contact touches
  bool implicit = false;  // the impulse at v+ (semi-implicit) or at the step's start velocity (eq. (15))
};

// gap_floor: -infinity for the gaps as found; 0 for the recovery that solves
// again with penetrating gaps clamped (sim/island_solver.hpp's rule).
// `released`: per row, 1 for a touching contact that gets no no-slip rows
// (the stepper's rule for contacts that separate without a normal impulse,
// sim/normal_lcp_stepper.hpp); empty: none.
void build_no_slip_lcp(const ContactSpace& space, const VecX& free_velocity, double h, double touch,
                       double gap_floor, NormalLcp& out, const std::vector<char>& released = {});
void build_viscous_lcp(const ContactSpace& space, const VecX& start_velocity, const VecX& free_velocity, double h,
                       const ViscousLaw& law, double gap_floor, NormalLcp& out);

}  // namespace pegsim
