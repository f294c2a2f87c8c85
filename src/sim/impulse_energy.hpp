// The energy check on a step's impulses (issue 17): a solve may not launch
// bodies.
//
// A failed solve still applies its best point: usually close to a solution,
// but sometimes (a Lemke path that pivoted on rounding) an impulse that
// launches bodies (box-stack-2d's energy rose 1020 J that way). And a solved
// problem can itself launch them: when contact determination hands the step
// rows that contradict each other (two sub-contacts of one pair whose normals
// nearly oppose, both asked to separate), A is near singular on them and the
// solution's impulses are huge; random pour seed 903 gained 131,600 J in one
// certified step that way. Both are held to a bound every reasonable solution
// obeys.
//
// Write the problem's rows as w = A z + b with A = G' M^-1 G + C (C: eq. 6.1's
// E, -E' and U blocks) and b = G' nu* + e, where e is what b holds beyond the
// free motion: the gap term psi/h (eq. 6.1), a kinematic body's velocity
// (JacobianRow::prescribed), a joint's stabilization (eq. 2.28). With p = G z
// and nu+ = nu* + M^-1 p (eq. 2.30) the kinetic energy changes by
//   dT = p' nu* + 1/2 p' M^-1 p = p' nu+ - 1/2 p' M^-1 p,
// and p' nu+ = z' (G' nu+) = z'w - z'Cz - z'e. At a solution z'w = 0
// (complementarity; bilateral rows have w = 0) and z'Cz = s mu p_n >= 0 (the
// slip rows), so dT <= -z'e - 1/2 p' M^-1 p: impulses do no more work than
// the gap and target terms ask for (friction dissipates). Split e into its
// target part (kinematic velocities, joint rows) and its gap part:
//   dT <= T(z) + G(z),   T(z) = sum_i max(0, -z_i e_target,i),
//                        G(z) = sum_i max(0, -z_i e_gap,i).
// G(z) grows with the impulses, so a contradiction's huge impulses pass it.
// The gap part is also bounded independently of z: over normal rows alone,
// max_{lambda >= 0} lambda'd - 1/2 lambda'A lambda <= 1/2 d'A^-1 d with
// d = max(0, -e_gap) (the penetrating rows' separation speeds), which is
// large only where A is near singular on those rows. Its stand-in, cheap and
// from the rows alone,
//   E = 4 * 1/2 (sum_{i: z_i != 0} d_i sqrt(mu_i))^2,
// mu_i the reduced mass 1 / (1/m_a + 1/m_b) of row i's bodies: one contact
// pushed out at d (friction holding its tangent or not) gets at most
// 1/2 mu d^2, since a point's effective mass never exceeds the reduced
// translational mass (K >= (1/m_a + 1/m_b) I for the point's 3x3 Delassus
// block); several rows are summed as one body of their masses at their
// speeds (Cauchy-Schwarz: at least the sum of each row alone). The factor 4
// (the speeds doubled) is room for bodies that turn (see kGapEnergyFactor). So
//   dT(z) <= T(z) + min(G(z), E).
// Impulses above it are scaled by the largest s in [0, 1] with
//   s a + 1/2 s^2 c <= s T + B,  a = p' nu*,  c = p' M^-1 p,  B = min(G, E),
// which keeps z's signs and friction cones (both are cones): the scaled
// impulses stay feasible, only smaller. PEG's I- and X-constraint rows (eqs.
// 4.41-4.51) measure R = G + extra; e is taken against R there. In this
// stepper, islands whose problem touches an articulated tree are not checked
// (their joint-space terms of A are not G' M^-1 G of the bodies); the
// normal-LCP steppers below check them.
//
// The no-slip and viscous steppers (sim/normal_lcp_stepper.hpp) solve an LCP
// in the normal impulses f alone (dynamics/normal_lcp.hpp) and get v+ through
// the tangential law, not from G z. There the whole change d = v+ - v* is
// measured with the bodies' masses, dT = d'M v* + 1/2 d'M d, and held to the
// same min(G(f), E) (no targets: those steppers refuse kinematic bodies).
// At a solution it holds: no-slip's v0 = P_X M v* is v*'s M-orthogonal
// projection onto the motions without slip (no more kinetic energy than v*),
// v+ = v0 + P_X N' f with P_X M P_X = P_X, so T(v+) = T(v0) + f'N v0 +
// 1/2 f'A f and f'w = 0 gives dT <= -f'g - 1/2 f'A f (g: b's gap term
// psi/h); viscous's v** = v* - h M^-1 (S' mu_v S + T' mu_v T) v dissipates
// while h mu_v stays within the explicit step's stability, and the rest is
// the frictionless case. A P_X whose Y = X M^-1 X' is near singular, or an
// explicit viscous step past its stability, gains energy and is caught.
// Above the bound d is scaled (v+ = v* + s d, f and the tangential impulses
// with it). E is looser ground there: a contact beside a point held by
// no-slip rows (a pivot) has an effective mass above the pair's reduced
// mass; certified solves of random pours under those steppers reached
// 1.5-4.2x E (scaled with the launches at 43x and more; docs/reliability.md).
// Islands with a tree's coordinates are measured in the metric the trees'
// LCP is posed in, M + h D (joint damping taken implicitly), d'(M + h D) d
// through the trees' factors, with each contact's own effective normal mass
// in E (sim/normal_impulse_bound.hpp).
#pragma once

#include "dynamics/formulation.hpp"

#include <algorithm>
#include <vector>

namespace pegsim {

struct ImpulseWork {
  double free_work = 0.0;    // a = p' nu*
  double quadratic = 0.0;    // c = p' M^-1 p >= 0
  double target_work = 0.0;  // T(z): kinematic bodies' velocities and joint rows
  double gap_work = 0.0;     // G(z)
  double gap_energy = 0.0;   // E
  double rounding = 0.0;     // what a may be off by when measured from d = v+ - v* (NormalImpulseBound)
  double energy_change() const { return free_work + 0.5 * quadratic; }  // dT at z
  double bound() const { return target_work + std::min(gap_work, gap_energy); }
};

// a, c, T, G and E of the impulses z of `problem` (bodies' scene velocities
// nu* and inverse masses, scene-indexed like apply_impulses).
ImpulseWork impulse_work(const StepProblem& problem, const VecX& z, const std::vector<InverseMass>& inverse_mass,
                         const std::vector<Vec6>& free_velocity);

// G and E of the normal impulses f of a normal-impulse LCP (see above): per
// row its gap term psi/h and the reduced mass of its bodies. The caller adds
// a = d'M v* and c = d'M d (T = 0).
ImpulseWork normal_impulse_gap_work(const VecX& gap_term, const VecX& f, const VecX& reduced_mass);

// The largest s in [0, 1] with dT(s z) within the bound (see above); 1 when z
// meets it, 0 when the terms overflowed. The comparison allows 1e-9 of
// |a| + c + T + G for rounding, plus the work's own `rounding`.
double energy_bounded_scale(const ImpulseWork& work);

}  // namespace pegsim
