// Random rigid-body contact problems, after Drumwright & Shell's benchmark of
// LCP solvers on randomly generated contact problems (reference 002, its ref.
// [8]; the model of reference 000): random bodies with random masses,
// inertias and orientations, random contact points and normals between them
// (or against the static world), Coulomb friction with a polyhedral cone, and
// the Stewart-Trinkle LCP of thesis eq. 6.1 built from them:
//
//   A = | Gn'M^-1Gn  Gn'M^-1Gf  0 |     b = | Gn' nu |
//       | Gf'M^-1Gn  Gf'M^-1Gf  E |         | Gf' nu |
//       | U          -E'        0 |         | 0      |
//
// with random body velocities nu. The G'M^-1G block is positive semi-definite
// (a Gram matrix), so the LCP is copositive-plus and Lemke solves it.
//
// Deterministic for a seed with every standard library: std::mt19937_64's raw
// output is mapped to doubles by hand (no std::*_distribution), and only
// +, -, *, / and sqrt (correctly rounded) touch the numbers.
#pragma once

#include "solvers/lcp.hpp"

#include <cstdint>
#include <random>

namespace pegsim {

struct RandomProblemOptions {
  int contacts = 10;            // K
  int bodies = 0;               // dynamic bodies; 0: K / 2 + 1
  int friction_directions = 4;  // n_d per contact (eq. 2.22)
  double static_share = 0.25;   // share of contacts against the static world
  double mu_min = 0.1, mu_max = 1.0;
};

// std::mt19937_64 with its own mappings (the same numbers everywhere).
class ProblemRng {
 public:
  explicit ProblemRng(std::uint64_t seed) : engine_(seed) {}
  double uniform(double a, double b) { return a + (b - a) * (static_cast<double>(engine_() >> 11) * 0x1.0p-53); }
  int index(int n) { return static_cast<int>(uniform(0.0, 1.0) * n); }  // 0 .. n-1
  Vec3 unit_vector();  // uniform on the sphere (rejection in the cube)

 private:
  std::mt19937_64 engine_;
};

// One random problem: A, b, roles, contact_of and the LcpStructure, laid out
// as build_problem lays out a Stewart-Trinkle problem (normals, friction
// directions, slips).
LcpProblem random_contact_problem(const RandomProblemOptions& options, ProblemRng& rng);

}  // namespace pegsim
